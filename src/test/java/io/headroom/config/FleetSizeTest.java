package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Signals;
import io.headroom.testing.FleetFile;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A fleet's workloads file: the grouped queries were built and measured for thousands of classes, so
 * one file holds them (issue 26: at least 5,000), and past the limit the file is refused at its line.
 */
class FleetSizeTest {

    @Test
    void fiveThousandClassesReadWithOneGroupedQueryPerSignal(@TempDir Path dir) throws Exception {
        WorkloadsFile f = WorkloadsFile.read(FleetFile.write(dir, "http://127.0.0.1:9090", 5_000));
        assertEquals(5_000, f.classes().size());
        assertEquals(FleetFile.className(4_999), f.classes().get(4_999).name());
        Set<Object> keys = new HashSet<>();
        for (ClassConfig c : f.classes()) {
            keys.add(c.groupedQuery(Signals.QUEUE_LENGTH).key());
        }
        assertEquals(1, keys.size(), "every class shares the anchored query: one request a tick, not 5,000");
    }

    @Test
    void theLimitItselfReads(@TempDir Path dir) throws Exception {
        assertEquals(WorkloadsFile.MAX_CLASSES,
                WorkloadsFile.read(FleetFile.write(dir, "http://127.0.0.1:9090", WorkloadsFile.MAX_CLASSES))
                        .classes().size());
    }

    @Test
    void oneClassPastTheLimitIsRefusedAtTheList(@TempDir Path dir) throws Exception {
        int n = WorkloadsFile.MAX_CLASSES + 1;
        Path file = FleetFile.write(dir, "http://127.0.0.1:9090", n);
        ConfigException e = assertThrows(ConfigException.class, () -> WorkloadsFile.read(file));
        assertTrue(e.getMessage().contains(":5: classes: has " + n + " class entries; at most "
                + WorkloadsFile.MAX_CLASSES + " are allowed"), e.getMessage());
    }
}
