package io.headroom.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.headroom.cluster.ClusterGateway;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A gateway that wraps another must pass on every method of the port. A default method it forgets
 * answers "this cluster cannot…" (or drops an argument) instead of reaching the real cluster: that is
 * how the supervisor's freeze gate once swallowed the clean-up of expired drain marks.
 */
class GatewayWrappersTest {

    @ParameterizedTest
    @ValueSource(strings = {"io.headroom.supervise.GatedCluster", "io.headroom.cluster.RoutingClusterGateway"})
    void aWrapperOverridesEveryMethodOfThePort(String wrapper) throws ClassNotFoundException {
        Class<?> c = Class.forName(wrapper);
        List<String> missing = new ArrayList<>();
        for (Method m : ClusterGateway.class.getMethods()) {
            if (Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            try {
                Method impl = c.getDeclaredMethod(m.getName(), m.getParameterTypes());
                if (impl.getDeclaringClass() != c) {
                    missing.add(m.toString());
                }
            } catch (NoSuchMethodException e) {
                missing.add(m.getName() + java.util.Arrays.toString(m.getParameterTypes()));
            }
        }
        assertEquals(List.of(), missing, wrapper + " must pass these on to the gateway it wraps");
    }
}
