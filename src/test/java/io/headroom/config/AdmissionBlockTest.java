package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.AdmissionPolicy;
import org.junit.jupiter.api.Test;

/** A class's {@code admission:} block: publish and onMissingTelemetry, refused with FILE:LINE like the rest (issue 30). */
class AdmissionBlockTest {
    static final String PROM = "prometheus: {url: 'http://127.0.0.1:9090'}\n";

    @Test
    void aClassWithoutTheBlockIsConservativeAndUnpublished() throws Exception {
        ClassConfig c = WorkloadsFileTest.read(PROM + WorkloadsFileTest.CLASS).classes().get(0);
        assertEquals(AdmissionPolicy.DEFAULT, c.admission());
        assertFalse(c.admission().publish());
    }

    @Test
    void theBlockIsRead() throws Exception {
        ClassConfig c = WorkloadsFileTest.read(PROM + WorkloadsFileTest.CLASS
                + "    admission: {publish: true, onMissingTelemetry: \"degrade:batch-cheap\"}\n").classes().get(0);
        assertTrue(c.admission().publish());
        assertEquals(AdmissionPolicy.OnMissing.DEGRADE, c.admission().onMissingTelemetry());
        assertEquals("batch-cheap", c.admission().degradeTo());
        ClassConfig close = WorkloadsFileTest.read(PROM + WorkloadsFileTest.CLASS
                + "    admission: {onMissingTelemetry: close}\n").classes().get(0);
        assertEquals(AdmissionPolicy.OnMissing.CLOSE, close.admission().onMissingTelemetry());
        assertTrue(close.admission().publish(), "a block publishes unless it says publish: false");
    }

    @Test
    void aBadChoiceIsRefusedWithItsFileAndLine() {
        ConfigException e = assertThrows(ConfigException.class, () -> WorkloadsFileTest.read(PROM
                + WorkloadsFileTest.CLASS + "    admission:\n      onMissingTelemetry: shrug\n"));
        assertTrue(e.getMessage().contains("w.yaml:12"), e.getMessage());
        assertTrue(e.getMessage().contains("onMissingTelemetry: must be close, conservative or degrade:<class>"),
                e.getMessage());
        ConfigException unknown = assertThrows(ConfigException.class, () -> WorkloadsFileTest.read(PROM
                + WorkloadsFileTest.CLASS + "    admission: {publsh: true}\n"));
        assertTrue(unknown.getMessage().contains("publsh"), unknown.getMessage());
    }
}
