package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.ConfigException.Problem;
import io.headroom.kube.Kubeconfig.Located;
import io.headroom.kube.Kubeconfig.Sources;
import io.headroom.kube.Kubeconfig.State;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How kubeconfig files are found, read and merged, ported from {@code kubernetes/client-go}
 * {@code tools/clientcmd/loader_test.go} (commit 32ce75a7): each test names the upstream test or
 * example it comes from, with its fixtures ({@code testConfigAlfa} … as kubeconfig files).
 *
 * <p>Left out, and why: {@code TestEncodeYAML}, {@code TestRelativizePathWithNoBacksteps},
 * {@code TestMigratingFile}, {@code TestMigratingFileLeaveExistingFileAlone},
 * {@code TestMigratingFileSourceMissingSkip} and {@code TestFileLocking} are about writing kubeconfig
 * files (kubectl config set…, the 2015 ~/.kube/.kubeconfig migration); Headroom never writes the user's
 * kubeconfig.
 */
class KubeconfigLoaderTest {
    @TempDir
    Path dir;

    static final String ALFA = """
            users: [{name: red-user, user: {token: red-token}}]
            clusters: [{name: cow-cluster, cluster: {server: "http://cow.org:8080"}}]
            contexts: [{name: federal-context, context: {user: red-user, cluster: cow-cluster, namespace: hammer-ns}}]
            """;
    static final String BRAVO = """
            users: [{name: black-user, user: {token: black-token}}]
            clusters: [{name: pig-cluster, cluster: {server: "http://pig.org:8080"}}]
            contexts: [{name: queen-anne-context, context: {user: black-user, cluster: pig-cluster, namespace: saw-ns}}]
            """;
    static final String CHARLIE = """
            users: [{name: green-user, user: {token: green-token}}]
            clusters: [{name: horse-cluster, cluster: {server: "http://horse.org:8080"}}]
            contexts: [{name: shaker-context, context: {user: green-user, cluster: horse-cluster, namespace: chisel-ns}}]
            """;
    static final String DELTA = """
            users: [{name: blue-user, user: {token: blue-token}}]
            clusters: [{name: chicken-cluster, cluster: {server: "http://chicken.org:8080"}}]
            contexts: [{name: gothic-context, context: {user: blue-user, cluster: chicken-cluster, namespace: plane-ns}}]
            """;
    static final String CONFLICT_ALFA = """
            users:
            - {name: red-user, user: {token: a-different-red-token}}
            - {name: yellow-user, user: {token: yellow-token}}
            clusters:
            - {name: cow-cluster, cluster: {server: "http://a-different-cow.org:8080", insecure-skip-tls-verify: true, disable-compression: true}}
            - {name: donkey-cluster, cluster: {server: "http://donkey.org:8080", insecure-skip-tls-verify: true, disable-compression: true}}
            current-context: federal-context
            """;

    Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    /**
     * The merged view as the upstream examples print it (clientcmd's encoder: entries sorted by name,
     * empty fields left out), tokens included: these are the fixtures' made-up tokens.
     */
    static String render(Kubeconfig k) {
        StringBuilder sb = new StringBuilder("clusters:\n");
        new TreeMap<>(k.clusters()).forEach((name, c) -> {
            sb.append("- ").append(name).append(":");
            if (c.value().disableCompression()) {
                sb.append(" disable-compression: true");
            }
            if (c.value().insecureSkipTlsVerify()) {
                sb.append(" insecure-skip-tls-verify: true");
            }
            sb.append(" server: ").append(c.value().server()).append('\n');
        });
        sb.append("contexts:\n");
        new TreeMap<>(k.contexts()).forEach((name, c) -> sb.append("- ").append(name).append(": cluster: ")
                .append(c.value().cluster()).append(" namespace: ").append(c.value().namespace()).append(" user: ")
                .append(c.value().user()).append('\n'));
        sb.append("current-context: \"").append(k.currentContext()).append("\"\nusers:\n");
        new TreeMap<>(k.users()).forEach((name, u) -> sb.append("- ").append(name).append(": token: ")
                .append(u.value().token()).append('\n'));
        return sb.toString();
    }

    @Test
    void testNilOutMap_aGcpAuthProviderDecodesAndIsRefusedWhenOpened() throws Exception {
        Path f = write("config", """
                apiVersion: v1
                kind: Config
                clusters:
                - cluster:
                    certificate-authority-data: UEhPTlkK
                    server: https://1.1.1.1
                  name: production
                contexts:
                - context:
                    cluster: production
                    user: production
                  name: production
                current-context: production
                users:
                - name: production
                  user:
                    auth-provider:
                      name: gcp""");
        Kubeconfig k = Kubeconfig.load(Sources.list(List.of(f)));
        assertEquals(List.of(), k.loadProblems(), "loader_test.go TestNilOutMap: it decodes");
        assertEquals("gcp", k.users().get("production").value().authProvider().name());
        List<Problem> refused = KubeconfigValidation.whenOpened(k, "production");
        assertEquals(1, refused.size(), refused.toString());
        assertEquals(f + ":17: user \"production\" uses the gcp auth-provider, which was removed from client-go"
                + " (Kubernetes 1.26) and is never used by Headroom: use the gke-gcloud-auth-plugin exec credential"
                + " plugin instead (gcloud components install gke-gcloud-auth-plugin, then gcloud container clusters"
                + " get-credentials)", refused.get(0).toString());
    }

    @Test
    void testNonExistentCommandLineFile() {
        Kubeconfig k = Kubeconfig.load(Sources.explicitFile(Path.of("bogus_file")));
        assertEquals(1, k.loadProblems().size());
        assertTrue(k.loadProblems().get(0).toString().contains("bogus_file"), k.loadProblems().toString());
        assertTrue(k.loadProblems().get(0).message().contains("does not exist"), k.loadProblems().toString());
    }

    @Test
    void testToleratingMissingFiles() {
        List<Path> bogus = List.of(Path.of("bogus1"), Path.of("bogus2"), Path.of("bogus3"));
        Kubeconfig k = Kubeconfig.load(Sources.list(bogus));
        assertEquals(List.of(), k.loadProblems(), "missing files of a list are no error");
        assertEquals(bogus, k.missingFiles(), "client-go warns 'Config not found: …'; headroom contexts says so");
        assertTrue(k.isEmpty());
    }

    /** {@code TestWarningMissingFiles} (and its quiet twin {@code TestNoWarningMissingFiles}): KUBECONFIG=bogus. */
    @Test
    void testWarningMissingFiles_andTestNoWarningMissingFiles() throws Exception {
        try (MockCluster.LogCapture log = new MockCluster.LogCapture()) {
            Kubeconfig k = Kubeconfig.load(Sources.environment("bogus", dir));
            assertEquals(List.of(), k.loadProblems());
            assertEquals(List.of(Path.of("bogus")), k.missingFiles(), "what the warning names");
            assertEquals(List.of(), log.lines(), "loading logs nothing (as client-go at verbosity 0)");
        }
    }

    @Test
    void testErrorReadingFile() throws Exception {
        Path f = write("commandline", "bogus value");
        Kubeconfig k = Kubeconfig.load(Sources.explicitFile(f));
        assertEquals(State.UNREADABLE, k.files().get(0).state());
        assertEquals(f + ":1: a kubeconfig is a mapping (apiVersion, kind, clusters, users, contexts …), not a string",
                k.loadProblems().get(0).toString());
    }

    @Test
    void testErrorReadingNonFile() {
        Kubeconfig k = Kubeconfig.load(Sources.explicitFile(dir));
        assertEquals(State.UNREADABLE, k.files().get(0).state());
        assertEquals(dir + ":1: is a directory, not a file", k.loadProblems().get(0).toString());
    }

    @Test
    void testConflictingCurrentContext() throws Exception {
        Path commandLine = write("commandline", "current-context: any-context-value\n");
        Path envVar = write("envvar", "current-context: a-different-context\n");
        Kubeconfig k = Kubeconfig.load(new Sources(commandLine, List.of(envVar), "--kubeconfig"));
        assertEquals(List.of(), k.loadProblems());
        assertEquals("any-context-value", k.currentContext());
        assertEquals(1, k.files().size(), "the explicit file alone is read");
    }

    @Test
    void testLoadingEmptyMaps() throws Exception {
        Kubeconfig k = Kubeconfig.load(Sources.list(List.of(write("config", "current-context: any-context-value\n"))));
        assertEquals(List.of(), k.loadProblems());
        assertEquals(Map.of(), k.clusters());
        assertEquals(Map.of(), k.users());
        assertEquals(Map.of(), k.contexts());
        assertEquals("any-context-value", k.currentContext());
    }

    static Stream<Arguments> duplicates() {
        String cluster = """
                - cluster:
                    api-version: v1
                    server: https://kubernetes.default.svc:443
                    certificate-authority: /var/run/secrets/kubernetes.io/serviceaccount/ca.crt
                  name: kubeconfig-cluster
                """;
        String context = """
                - context:
                    cluster: kubeconfig-cluster
                    namespace: default
                    user: kubeconfig-user
                  name: kubeconfig-context
                """;
        String user = """
                - name: kubeconfig-user
                  user:
                    tokenFile: /var/run/secrets/kubernetes.io/serviceaccount/token
                """;
        String head = "kind: Config\napiVersion: v1\n";
        String tail = "current-context: kubeconfig-context\n";
        return Stream.of(
                Arguments.of("TestDuplicateClusterName", head + "clusters:\n" + cluster + cluster.replace(
                        "https://kubernetes.default.svc:443", "https://test.example.server:443")
                        + "contexts:\n" + context + tail + "users:\n" + user, "clusters", "kubeconfig-cluster", 9, 4),
                Arguments.of("TestDuplicateContextName", head + "clusters:\n" + cluster + "contexts:\n" + context
                        + context.replace("cluster: kubeconfig-cluster", "cluster: test-example-cluster")
                        + tail + "users:\n" + user, "contexts", "kubeconfig-context", 15, 10),
                Arguments.of("TestDuplicateUserName", head + "clusters:\n" + cluster + "contexts:\n" + context + tail
                        + "users:\n" + user + user.replace("kubernetes.io", "test.example.com"), "users",
                        "kubeconfig-user", 20, 17),
                Arguments.of("TestDuplicateExtensionName", head + "clusters:\n" + cluster + "contexts:\n" + context
                        + tail + "users:\n" + user + "extensions:\n- extension:\n    bytes: test\n  name: test-extension\n"
                        + "- extension:\n    bytes: some-example\n  name: test-extension\n", "extensions",
                        "test-extension", 24, 21));
    }

    /** client-go refuses a file that names a cluster, context, user or extension twice (the first wins only across files). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("duplicates")
    void aNameTwiceInOneFileMakesTheFileUnreadable(String upstream, String yaml, String list, String name, int line,
                                                   int first) throws Exception {
        Path f = write("config", yaml);
        Kubeconfig k = Kubeconfig.load(Sources.list(List.of(f)));
        assertEquals(State.UNREADABLE, k.files().get(0).state(), upstream);
        assertEquals(List.of(f + ":" + line + ": " + list + "[1]: duplicate name \"" + name + "\" in " + list
                + " (first at line " + first + "); client-go refuses a file that defines a name twice"),
                k.loadProblems().stream().map(Problem::toString).toList(), upstream);
    }

    @Test
    void testResolveRelativePaths() throws Exception {
        Path absolute = dir.resolve("absolute");
        String sep = File.separator;
        Path file1 = write("one/.kubeconfig", """
                users:
                - {name: relative-user-1, user: {client-certificate: relative/client/cert, client-key: ../relative/client/key}}
                - {name: absolute-user-1, user: {client-certificate: %1$s/client/cert, client-key: %1$s/client/key}}
                - {name: relative-cmd-1, user: {exec: {command: ../relative/client/cmd}}}
                - {name: absolute-cmd-1, user: {exec: {command: %1$s/client/cmd}}}
                - {name: PATH-cmd-1, user: {exec: {command: cmd}}}
                clusters:
                - {name: relative-server-1, cluster: {certificate-authority: ../relative/ca}}
                - {name: absolute-server-1, cluster: {certificate-authority: %1$s/ca}}
                """.formatted(absolute));
        Path file2 = write("two/nested/.kubeconfig", """
                users:
                - {name: relative-user-2, user: {client-certificate: relative/client/cert2, client-key: ../relative/client/key2}}
                - {name: absolute-user-2, user: {client-certificate: %1$s/client/cert2, client-key: %1$s/client/key2}}
                clusters:
                - {name: relative-server-2, cluster: {certificate-authority: ../relative/ca2}}
                - {name: absolute-server-2, cluster: {certificate-authority: %1$s/ca2}}
                """.formatted(absolute));
        Kubeconfig k = Kubeconfig.load(Sources.list(List.of(file1, file2)));
        assertEquals(List.of(), k.loadProblems());
        Path dir1 = file1.getParent();
        Path dir2 = file2.getParent();
        assertEquals(4, k.clusters().size());
        assertEquals(dir1.resolve("../relative/ca").normalize().toString(),
                k.clusters().get("relative-server-1").value().certificateAuthority());
        assertEquals(dir2.resolve("../relative/ca2").normalize().toString(),
                k.clusters().get("relative-server-2").value().certificateAuthority());
        assertEquals(absolute + sep + "ca", k.clusters().get("absolute-server-1").value().certificateAuthority());
        assertEquals(absolute + sep + "ca2", k.clusters().get("absolute-server-2").value().certificateAuthority());
        assertEquals(7, k.users().size());
        assertEquals(dir1.resolve("relative/client/cert").toString(),
                k.users().get("relative-user-1").value().clientCertificate());
        assertEquals(dir1.resolve("../relative/client/key").normalize().toString(),
                k.users().get("relative-user-1").value().clientKey());
        assertEquals(dir2.resolve("relative/client/cert2").toString(),
                k.users().get("relative-user-2").value().clientCertificate());
        assertEquals(dir2.resolve("../relative/client/key2").normalize().toString(),
                k.users().get("relative-user-2").value().clientKey());
        assertEquals(absolute + "/client/cert", k.users().get("absolute-user-1").value().clientCertificate());
        assertEquals(absolute + "/client/key2", k.users().get("absolute-user-2").value().clientKey());
        assertEquals(dir1.resolve("../relative/client/cmd").normalize().toString(),
                k.users().get("relative-cmd-1").value().exec().command());
        assertEquals(absolute + "/client/cmd", k.users().get("absolute-cmd-1").value().exec().command());
        assertEquals("cmd", k.users().get("PATH-cmd-1").value().exec().command(), "a bare name is looked up on PATH");
    }

    @Test
    void example_noMergingOnExplicitPaths() throws Exception {
        Path commandLine = write("commandline", ALFA);
        Path envVar = write("envvar", CONFLICT_ALFA);
        Kubeconfig k = Kubeconfig.load(new Sources(commandLine, List.of(envVar), "--kubeconfig"));
        assertEquals("""
                clusters:
                - cow-cluster: server: http://cow.org:8080
                contexts:
                - federal-context: cluster: cow-cluster namespace: hammer-ns user: red-user
                current-context: ""
                users:
                - red-user: token: red-token
                """, render(k));
    }

    @Test
    void example_mergingSomeWithConflict() throws Exception {
        Kubeconfig k = Kubeconfig.load(Sources.list(List.of(write("commandline", ALFA),
                write("envvar", CONFLICT_ALFA))));
        assertEquals("""
                clusters:
                - cow-cluster: server: http://cow.org:8080
                - donkey-cluster: disable-compression: true insecure-skip-tls-verify: true server: http://donkey.org:8080
                contexts:
                - federal-context: cluster: cow-cluster namespace: hammer-ns user: red-user
                current-context: "federal-context"
                users:
                - red-user: token: red-token
                - yellow-user: token: yellow-token
                """, render(k));
        Located<Kubeconfig.Cluster> cow = k.clusters().get("cow-cluster");
        assertEquals(dir.resolve("commandline"), cow.file(), "the first file to define it wins it whole");
        assertFalse(cow.value().insecureSkipTlsVerify(), "not even fields the first left unset are taken from later files");
    }

    @Test
    void example_mergingEverythingNoConflicts() throws Exception {
        Kubeconfig k = Kubeconfig.load(Sources.list(List.of(write("commandline", ALFA), write("envvar", BRAVO),
                write("currentdir", CHARLIE), write("homedir", DELTA))));
        assertEquals("""
                clusters:
                - chicken-cluster: server: http://chicken.org:8080
                - cow-cluster: server: http://cow.org:8080
                - horse-cluster: server: http://horse.org:8080
                - pig-cluster: server: http://pig.org:8080
                contexts:
                - federal-context: cluster: cow-cluster namespace: hammer-ns user: red-user
                - gothic-context: cluster: chicken-cluster namespace: plane-ns user: blue-user
                - queen-anne-context: cluster: pig-cluster namespace: saw-ns user: black-user
                - shaker-context: cluster: horse-cluster namespace: chisel-ns user: green-user
                current-context: ""
                users:
                - black-user: token: black-token
                - blue-user: token: blue-token
                - green-user: token: green-token
                - red-user: token: red-token
                """, render(k));
    }

    static Stream<Arguments> deduplicate() {
        return Stream.of(Arguments.of("a:b:c:d:e:f", "a b c d e f"), Arguments.of("a:b:c:b:e:f", "a b c e f"),
                Arguments.of("a:a:b:b:c:b", "a b c"));
    }

    /** {@code TestDeduplicate}: the same path twice in KUBECONFIG is read once. */
    @ParameterizedTest(name = "TestDeduplicate {0}")
    @MethodSource("deduplicate")
    void testDeduplicate(String kubeconfig, String expected) {
        Sources s = Sources.environment(kubeconfig.replace(":", File.pathSeparator), dir);
        assertEquals(expected, String.join(" ", s.files().stream().map(Path::toString).toList()));
    }

    static Stream<Arguments> precedence() {
        return Stream.of(Arguments.of("default", null, null, List.of("HOME/.kube/config")),
                Arguments.of("explicit", "/explicit/kubeconfig", null, List.of("/explicit/kubeconfig")),
                Arguments.of("envvar-single", null, "/env/kubeconfig", List.of("/env/kubeconfig")),
                Arguments.of("envvar-multiple", null, "/env/kubeconfig" + File.pathSeparator + "/other/kubeconfig",
                        List.of("/env/kubeconfig", "/other/kubeconfig")));
    }

    /** {@code TestLoadingGetLoadingPrecedence}: which files are read, and in which order. */
    @ParameterizedTest(name = "TestLoadingGetLoadingPrecedence {0}")
    @MethodSource("precedence")
    void testLoadingGetLoadingPrecedence(String name, String explicit, String env, List<String> expected) {
        Path home = dir.resolve("home");
        Sources s = explicit != null ? Sources.explicitFile(Path.of(explicit)) : Sources.environment(env, home);
        assertEquals(expected.stream().map(p -> p.replace("HOME", home.toString())).toList(),
                s.files().stream().map(Path::toString).toList());
    }

    // ------------------------------------------------------------------ loader.go's own rules, beyond its tests

    /**
     * {@code loader.go} {@code Load}: "if there's no data in a file, return the default object instead of
     * failing". Headroom reads a file of only blank lines and comments the same way (no value in it).
     */
    @Test
    void anEmptyFileAnywhereInTheListIsAnEmptyConfig() throws Exception {
        Path empty = write("empty", "");
        Path comments = write("comments", "# kubectl will write here\n\n---\n");
        Path alfa = write("alfa", ALFA);
        Kubeconfig k = Kubeconfig.load(Sources.list(List.of(empty, alfa, comments)));
        assertEquals(List.of(State.EMPTY, State.READ, State.EMPTY), k.files().stream().map(Kubeconfig.FileStatus::state)
                .toList());
        assertEquals(List.of(), k.loadProblems());
        assertEquals(List.of("federal-context"), List.copyOf(k.contexts().keySet()));
    }

    /** A field of the wrong type fails the file as client-go's decoder does, located, and never quotes the value. */
    @Test
    void aFieldOfTheWrongTypeIsLocatedWithoutItsValue() throws Exception {
        Path f = write("config", """
                users:
                - name: u
                  user:
                    token: 123456789
                    password: [s3cret]
                    client-key-data: not base64!
                clusters:
                - name: c
                  cluster: {server: https://c, insecure-skip-tls-verify: "yes"}
                kind: Pod
                """);
        Kubeconfig k = Kubeconfig.load(Sources.list(List.of(f)));
        assertEquals(List.of(
                f + ":10: kind: this is not a kubeconfig: kind is \"Pod\", a kubeconfig's is Config",
                f + ":9: clusters[0].cluster.insecure-skip-tls-verify: must be true or false, not a string",
                f + ":6: users[0].user.client-key-data: is not base64 data",
                f + ":4: users[0].user.token: must be a string, not a number",
                f + ":5: users[0].user.password: must be a string, not a list"),
                k.loadProblems().stream().map(Problem::toString).toList());
        String all = k.loadProblems().toString();
        assertFalse(all.contains("123456789") || all.contains("s3cret") || all.contains("not base64!"), all);
    }

    /** A CA bundle is one base64 line far longer than the workloads file's 16 KiB line limit. */
    @Test
    void certificateDataOnOneLongLineIsRead() throws Exception {
        String bundle = java.util.Base64.getEncoder().encodeToString(new byte[100_000]);
        Path f = write("config", "clusters:\n- name: c\n  cluster:\n    server: https://c\n"
                + "    certificate-authority-data: " + bundle + "\n");
        Kubeconfig k = Kubeconfig.load(Sources.list(List.of(f)));
        assertEquals(List.of(), k.loadProblems());
        assertEquals(bundle, k.clusters().get("c").value().certificateAuthorityData());
    }

    @Test
    void theFirstCurrentContextWinsAndAnEmptyOneIsNoCurrentContext() throws Exception {
        Kubeconfig k = Kubeconfig.load(Sources.list(List.of(write("a", "current-context: \"\"\n"),
                write("b", "current-context: second\n"), write("c", "current-context: third\n"))));
        assertEquals("second", k.currentContext());
        assertEquals(dir.resolve("b"), k.currentContextAt().file());
        assertNull(Kubeconfig.load(Sources.list(List.of(write("d", "kind: Config\n")))).currentContextAt(),
                "no current-context: nothing to point at");
    }
}
