package io.headroom;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The sandbox, config and scenario code stay pure: no UI or cluster client imports, no wall clock. */
class SandboxLayersTest {

    static final Pattern FORBIDDEN = Pattern.compile(
            "^import\\s+(static\\s+)?(javafx\\.|io\\.fabric8\\.|okhttp3\\.)|System\\.currentTimeMillis|Instant\\.now\\(|Thread\\.sleep",
            Pattern.MULTILINE);

    @ParameterizedTest
    @ValueSource(strings = {"sandbox", "config", "sim"})
    void packageIsPure(String pkg) throws IOException {
        List<String> offenders = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Path.of("src/main/java/io/headroom", pkg))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                if (FORBIDDEN.matcher(Files.readString(f)).find()) {
                    offenders.add(f.toString());
                }
            }
        }
        assertTrue(offenders.isEmpty(), "forbidden imports or wall-clock calls in " + offenders);
    }
}
