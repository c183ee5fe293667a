package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The pod-deletion-cost annotation as the gateway reads it from a cached pod (no API server needed). */
class DeletionCostTest {

    @Test
    void theCostAnnotationReadsAsKubernetesParsesIt() {
        assertEquals(Integer.MIN_VALUE, KubeClusterGateway.deletionCost("-2147483648"));
        assertEquals(Integer.MAX_VALUE, KubeClusterGateway.deletionCost("2147483647"));
        assertEquals(0, KubeClusterGateway.deletionCost("0"));
        for (String bad : new String[] {"2147483648", "-2147483649", "1.5", " 5", "", "ten", "0x10"}) {
            assertNull(KubeClusterGateway.deletionCost(bad), bad);
        }
        assertNull(KubeClusterGateway.deletionCost(null));
    }
}
