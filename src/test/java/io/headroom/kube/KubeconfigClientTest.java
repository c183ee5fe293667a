package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.Config;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a context becomes when it is opened: the client configuration fabric8 gets from exactly the
 * listed definitions. Rows are ported from {@code kubernetes/client-go} {@code tools/clientcmd/
 * client_config_test.go} (commit 32ce75a7) where they read the kubeconfig (not kubectl's command-line
 * overrides), each naming its upstream test; {@code merged_client_builder_test.go} is about falling back
 * to a Pod's in-cluster service account, which Headroom never does (one row says so). No request is sent.
 *
 * <p>Left out of client_config_test.go, and why: {@code TestMergeSemantics} (Go's struct-merge helper);
 * {@code TestDisableCompression}, {@code TestInsecureOverridesCA}, {@code TestCAOverridesCAData},
 * {@code TestTLSServerName}, {@code TestTLSServerNameClearsWhenServerNameSet}, {@code TestNamespaceOverride},
 * {@code TestMergeRawConfigDoOverride}, {@code TestClientCertOverrideData}, the override half of
 * {@code TestMergeContext} and the {@code ""}-server row of {@code TestCreateCleanWithPrefix} (kubectl's
 * {@code --server}/{@code --namespace}/… overrides and cluster defaults: Headroom takes none);
 * {@code TestModifyContext} (writes the kubeconfig); {@code TestInClusterClientConfigPrecedence} (in-cluster).
 */
class KubeconfigClientTest {
    @TempDir
    Path dir;

    static final UnaryOperator<String> NO_ENV = name -> null;

    Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    /** client_config_test.go's {@code createValidTestConfig}, with the cluster and user bodies given. */
    Kubeconfig clean(String cluster, String user) throws Exception {
        Path f = write("config-" + System.nanoTime(), """
                clusters: [{name: clean, cluster: %s}]
                users: [{name: clean, user: %s}]
                contexts: [{name: clean, context: {cluster: clean, user: clean}}]
                current-context: clean
                """.formatted(cluster, user));
        Kubeconfig k = Kubeconfig.load(Kubeconfig.Sources.list(List.of(f)));
        assertEquals(List.of(), k.loadProblems());
        return k;
    }

    static Config configure(Kubeconfig k, String context, UnaryOperator<String> env) {
        assertEquals(List.of(), KubeconfigValidation.problems(k, context), "the context is usable");
        Config c = Config.empty();
        KubeconfigClient.configure(c, k, context, env);
        return c;
    }

    static Stream<Arguments> proxyUrls() {
        return Stream.of(Arguments.of("no proxy-url", "", null),
                Arguments.of("socks5 proxy-url", "socks5://example.com", "socks5://example.com:1080"),
                Arguments.of("https proxy-url", "https://example.com", "https://example.com:443"),
                Arguments.of("http proxy-url", "http://example.com", "http://example.com:80"),
                Arguments.of("bad scheme proxy-url", "socks6://example.com", "unsupported scheme \"socks6\""),
                Arguments.of("no scheme proxy-url", "example.com", "unsupported scheme \"\""),
                Arguments.of("not a url proxy-url", "chewbacca@example.com", "unsupported scheme \"\""));
    }

    /**
     * {@code TestProxyURL}: http, https and socks5 proxies are taken (without a port: the scheme's, which
     * Go's transport also uses; fabric8 needs it written), anything else refuses the context. The one
     * proxy is used whatever the server's scheme (fabric8 alone would drop an http proxy for an https server).
     */
    @ParameterizedTest(name = "TestProxyURL {0}")
    @MethodSource("proxyUrls")
    void testProxyURL(String desc, String proxyUrl, String expected) throws Exception {
        Kubeconfig k = clean("{server: \"https://localhost:8443\", proxy-url: \"" + proxyUrl + "\"}", "{}");
        if (expected != null && !expected.contains("://")) {
            List<String> problems = KubeconfigValidation.problems(k, "clean").stream().map(Object::toString).toList();
            assertEquals(1, problems.size(), problems.toString());
            assertTrue(problems.get(0).contains("invalid 'proxy-url'") && problems.get(0).contains(expected),
                    problems.get(0));
            return;
        }
        Config c = configure(k, "clean", NO_ENV);
        assertEquals(expected, c.getHttpsProxy());
        assertEquals(expected, c.getHttpProxy());
    }

    @Test
    void testBasicAuthData() throws Exception {
        Config c = configure(clean("{server: \"https://localhost:8443\"}", "{username: myuser, password: mypass}"),
                "clean", NO_ENV);
        assertEquals("myuser", c.getUsername());
        assertEquals("mypass", c.getPassword());
    }

    @Test
    void testBasicTokenFile() throws Exception {
        Path token = write("tokenfile", "exampletoken");
        Config c = configure(clean("{server: \"https://localhost:8443\"}", "{tokenFile: " + token + "}"), "clean",
                NO_ENV);
        assertEquals("exampletoken", c.getAutoOAuthToken(), "fabric8 alone ignores tokenFile");
    }

    @Test
    void testPrecedenceTokenFile() throws Exception {
        Path token = write("tokenfile", "exampletoken");
        Config c = configure(clean("{server: \"https://localhost:8443\"}", "{token: expected, tokenFile: " + token
                + "}"), "clean", NO_ENV);
        assertEquals("expected", c.getAutoOAuthToken());
    }

    @Test
    void testCreateClean() throws Exception {
        Config c = configure(clean("{server: \"https://anything.com:8080\"}", "{token: the-token}"), "clean", NO_ENV);
        assertEquals("https://anything.com:8080/", c.getMasterUrl());
        assertEquals("the-token", c.getAutoOAuthToken());
        assertFalse(c.isTrustCerts());
        assertNull(c.getTlsServerName());
    }

    static Stream<String> prefixes() {
        return Stream.of("https://anything.com:8080/foo/bar", "http://anything.com:8080/foo/bar",
                "http://anything.com:8080/foo/bar/", "http://anything.com:8080/", "http://anything.com:8080//",
                "anything.com:8080/foo/bar", "anything.com:8080", "anything.com", "anything");
    }

    /** {@code TestCreateCleanWithPrefix}: whatever the server is written as, client-go takes it; so does the listing. */
    @ParameterizedTest(name = "TestCreateCleanWithPrefix {0}")
    @MethodSource("prefixes")
    void testCreateCleanWithPrefix(String server) throws Exception {
        Kubeconfig k = clean("{server: \"" + server + "\"}", "{token: the-token}");
        assertEquals(List.of(), KubeconfigValidation.problems(k, "clean"));
        Contexts contexts = Contexts.load(k.sources(), NO_ENV);
        assertEquals(server, contexts.get("clean").orElseThrow().server());
    }

    /** {@code TestCreateCleanDefault} and {@code TestCreateCleanDefaultCluster}: no context named, the current one. */
    @Test
    void testCreateCleanDefault() throws Exception {
        Contexts contexts = Contexts.load(clean("{server: \"https://anything.com:8080\"}", "{token: the-token}")
                .sources(), NO_ENV);
        KubeContext current = contexts.current().orElseThrow();
        assertEquals("clean", current.name());
        assertEquals("https://anything.com:8080", current.server());
        assertEquals("the-token", configure(contexts.kubeconfig(), current.name(), NO_ENV).getAutoOAuthToken());
    }

    /** {@code TestCreateMissingContextNoDefault} and {@code TestCreateMissingContext}: an unknown context is an error. */
    @Test
    void testCreateMissingContext() throws Exception {
        Contexts contexts = Contexts.load(clean("{server: \"https://anything.com:8080\"}", "{token: the-token}")
                .sources(), NO_ENV);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> contexts.open("not-present"));
        assertTrue(e.getMessage().startsWith("no context \"not-present\" in the kubeconfig (the kubeconfig list: "),
                e.getMessage());
        assertEquals(List.of("context was not found for specified context: \"not-present\""),
                KubeconfigValidation.confirmUsable(contexts.kubeconfig(), "not-present").stream()
                        .map(p -> p.message()).toList());
    }

    @Test
    void testCertificateData() throws Exception {
        String ca = Base64.getEncoder().encodeToString("ca-data".getBytes());
        String cert = Base64.getEncoder().encodeToString("cert-data".getBytes());
        String key = Base64.getEncoder().encodeToString("key-data".getBytes());
        Config c = configure(clean("{server: \"https://localhost:8443\", certificate-authority-data: " + ca + "}",
                "{client-certificate-data: " + cert + ", client-key-data: " + key + "}"), "clean", NO_ENV);
        assertEquals(ca, c.getCaCertData());
        assertEquals(cert, c.getClientCertData());
        assertEquals(key, c.getClientKeyData());
    }

    /** {@code TestMergeContext} (without overrides): a context that names no namespace works in "default". */
    @Test
    void testMergeContext() throws Exception {
        Kubeconfig k = clean("{server: \"https://anything.com:8080\"}", "{token: the-token}");
        assertEquals("default", configure(k, "clean", NO_ENV).getNamespace());
        assertEquals("", Contexts.load(k.sources(), NO_ENV).get("clean").orElseThrow().namespaceGiven());
    }

    /**
     * {@code TestFullImpersonateConfig}: user, groups and extra are impersonated as client-go does; a UID
     * (as-uid) cannot be sent by fabric8, so such a context is refused rather than acting as someone else
     * (docs/decisions/0014).
     */
    @Test
    void testFullImpersonateConfig() throws Exception {
        Config c = configure(clean("{server: \"https://localhost:8443\"}",
                "{as: alice, as-groups: [group-1], as-user-extra: {some-key: [some-value]}}"), "clean", NO_ENV);
        assertEquals("alice", c.getImpersonateUsername());
        assertArrayEquals(new String[] {"group-1"}, c.getImpersonateGroups());
        assertEquals(Map.of("some-key", List.of("some-value")), c.getImpersonateExtras());

        Kubeconfig uid = clean("{server: \"https://localhost:8443\"}", "{as: alice, as-uid: abc123}");
        List<String> problems = KubeconfigValidation.problems(uid, "clean").stream().map(p -> p.message()).toList();
        assertEquals(List.of("user \"clean\" impersonates a UID (as-uid), which Headroom's Kubernetes client cannot"
                + " send: refused rather than act as someone else"), problems);
    }

    /** A plugin that records the KUBERNETES_EXEC_INFO it was given and its arguments, then prints a token. */
    Path recordingPlugin() throws Exception {
        Path plugin = dir.resolve("record-plugin.sh");
        Files.writeString(plugin, """
                #!/bin/sh
                printf '%s' "$KUBERNETES_EXEC_INFO" > "$(dirname "$0")/exec-info"
                printf '%s\\n' "$@" > "$(dirname "$0")/args"
                printf '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"from-plugin"}}\\n'
                """);
        Files.setPosixFilePermissions(plugin, PosixFilePermissions.fromString("rwx------"));
        return plugin;
    }

    /**
     * {@code TestAuthConfigMerge}: the exec plugin gets its arguments, and with {@code provideClusterInfo}
     * the cluster (and the cluster's {@code client.authentication.k8s.io/exec} extension as its config)
     * in {@code KUBERNETES_EXEC_INFO}, as client-go gives it; never interactive here.
     */
    @Test
    void testAuthConfigMerge() throws Exception {
        Path plugin = recordingPlugin();
        Path f = write("config", """
                apiVersion: v1
                clusters:
                - cluster:
                    server: https://localhost:8080
                    extensions:
                    - name: client.authentication.k8s.io/exec
                      extension:
                        audience: foo
                        other: bar
                  name: foo-cluster
                contexts:
                - context:
                    cluster: foo-cluster
                    user: foo-user
                    namespace: bar
                  name: foo-context
                current-context: foo-context
                kind: Config
                users:
                - name: foo-user
                  user:
                    exec:
                      apiVersion: client.authentication.k8s.io/v1
                      interactiveMode: Never
                      args:
                      - arg-1
                      - arg-2
                      command: %s
                      provideClusterInfo: true
                """.formatted(plugin));
        Kubeconfig k = Kubeconfig.load(Kubeconfig.Sources.list(List.of(f)));
        Config c = configure(k, "foo-context", NO_ENV);
        assertEquals("from-plugin", c.getAutoOAuthToken());
        assertEquals("bar", c.getNamespace());
        assertEquals("arg-1\narg-2\n", Files.readString(dir.resolve("args")));
        JsonNode info = new ObjectMapper().readTree(Files.readString(dir.resolve("exec-info")));
        assertEquals("ExecCredential", info.get("kind").asString(""));
        assertEquals("client.authentication.k8s.io/v1", info.get("apiVersion").asString(""));
        assertFalse(info.get("spec").get("interactive").asBoolean(false));
        JsonNode cluster = info.get("spec").get("cluster");
        assertEquals("https://localhost:8080", cluster.get("server").asString(""));
        assertEquals(new ObjectMapper().readTree("{\"audience\":\"foo\",\"other\":\"bar\"}"), cluster.get("config"));
    }

    /** client-go's exec plugin runner: with a token, username/password or client certificate, the plugin never runs. */
    @Test
    void aTokenBesideAnExecPluginIsUsedAndThePluginNotRun() throws Exception {
        Path plugin = recordingPlugin();
        Config c = configure(clean("{server: \"https://localhost:8443\"}", "{token: given, exec: {command: " + plugin
                + ", apiVersion: client.authentication.k8s.io/v1, interactiveMode: Never}}"), "clean", NO_ENV);
        assertEquals("given", c.getAutoOAuthToken(), "fabric8 alone runs the plugin and overwrites the token");
        assertFalse(Files.exists(dir.resolve("exec-info")), "the plugin did not run");
    }

    static Stream<Arguments> ansi() {
        return Stream.of(
                Arguments.of("DenyBoldCharacters", "\u001b[1mbold tuna\u001b[0m, fish, \u001b[1mbold marlin\u001b[0m",
                        "\\x1b[1mbold tuna\\x1b[0m, fish, \\x1b[1mbold marlin\\x1b[0m"),
                Arguments.of("DenyCursorNavigation", "\u001b[2Aup up, \u001b[2Cright right",
                        "\\x1b[2Aup up, \\x1b[2Cright right"),
                Arguments.of("DenyClearScreen", "clear: \u001b[2J", "clear: \\x1b[2J"),
                // Headroom says a problem on one line: line breaks, tabs and wide spaces become one space.
                Arguments.of("AllowSpaceCharactersUnchanged", "tuna\nfish\r\nmarlin\t\r\ntuna\u000bfish\fmarlin",
                        "tuna fish marlin tuna fish marlin"),
                Arguments.of("AllowLetters", "alpha: \u03b1, beta: \u03b2, gamma: \u03b3", null),
                Arguments.of("AllowMarks", "tu\u0301na with a mark over the u, fi\u0302sh with a mark over the i,"
                        + " ma\u030Arlin with a mark over the a", null),
                Arguments.of("AllowNumbers", "t1na, f2sh, m3rlin, t12a, f34h, m56lin, t123, f456, m567n", null),
                Arguments.of("AllowPunctuation", "\"here's a sentence; with! some...punctuation ;)\"", null),
                Arguments.of("AllowSymbols", "the integral of f(x) from 0 to n approximately equals the sum of f(x)"
                        + " from a = 0 to n, where a and n are natural numbers:"
                        + "\u222b\u2081\u207F f(x) dx \u2248 \u2211\u2090\u208C\u2081\u207F f(x),"
                        + " a \u2208 \u2115, n \u2208 \u2115", null),
                Arguments.of("AllowSepatators", "here is a paragraph separator\u2029and here\u2003are\u2003some"
                        + "\u2003em\u2003spaces", "here is a paragraph separator and here are some em spaces"));
    }

    /**
     * {@code TestCleanANSIEscapeCodes} and {@code TestCreateAuthConfigExecInstallHintCleanup}: a plugin that
     * cannot be run is said with the kubeconfig's install hint, whose escape sequences are written out,
     * never obeyed (client-go writes U+001B, Headroom {@code \x1b}); the failure is said, never "An error
     * has occurred.".
     */
    @ParameterizedTest(name = "TestCleanANSIEscapeCodes {0}")
    @MethodSource("ansi")
    void testCleanANSIEscapeCodes(String name, String hint, String expected) throws Exception {
        Path f = write("config", """
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
                users:
                - name: u
                  user:
                    exec:
                      apiVersion: client.authentication.k8s.io/v1
                      interactiveMode: Never
                      command: %s
                      installHint: %s
                contexts: [{name: x, context: {cluster: c, user: u}}]
                """.formatted(dir.resolve("no-such-plugin"), new ObjectMapper().writeValueAsString(hint)));
        Contexts contexts = Contexts.load(List.of(f));
        assertEquals(List.of(), contexts.get("x").orElseThrow().problems());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> contexts.open("x"));
        String m = e.getMessage();
        assertTrue(m.startsWith("context \"x\" cannot be opened: the exec credential plugin \""
                + dir.resolve("no-such-plugin") + "\" of user \"u\" (" + f + ":5) could not be run: no such executable"
                + " file."), m);
        assertTrue(m.endsWith(". " + (expected == null ? hint : expected)), m);
        assertFalse(m.contains("\u001b") || m.contains("An error has occurred"), m);
    }

    /**
     * {@code merged_client_builder_test.go} ({@code TestInClusterConfig}, {@code TestInClusterConfigNamespace}):
     * client-go falls back to a Pod's service account when the kubeconfig is empty; Headroom, a console on
     * the operator's machine, never does (docs/decisions/0014): no kubeconfig, no context.
     */
    @Test
    void anEmptyKubeconfigNeverFallsBackToInClusterConfig() throws Exception {
        Contexts contexts = Contexts.load(Kubeconfig.Sources.list(List.of(write("empty", ""))),
                name -> name.startsWith("KUBERNETES_SERVICE_") ? "10.0.0.1" : null);
        assertEquals(List.of(), contexts.list());
        assertTrue(contexts.current().isEmpty());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> contexts.open(""));
        assertTrue(e.getMessage().startsWith("no context \"\" in the kubeconfig"), e.getMessage());
    }

    // ------------------------------------------------------------------ what fabric8 alone did otherwise

    /** A context whose cluster is defined nowhere is refused; fabric8 alone sent it to https://kubernetes.default.svc. */
    @Test
    void aMissingClusterIsRefusedNotSentToTheDefaultService() throws Exception {
        Path f = write("config", """
                users: [{name: u, user: {token: t}}]
                contexts: [{name: x, context: {cluster: gone, user: u}}]
                """);
        Contexts contexts = Contexts.load(List.of(f));
        KubeContext x = contexts.get("x").orElseThrow();
        assertNull(x.server());
        assertEquals(List.of(f + ":2: cluster \"gone\" was not found for context \"x\" (no file of the list defines it)"),
                x.problems());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> contexts.open("x"));
        assertEquals("context \"x\" cannot be opened: " + x.problems().get(0), e.getMessage());
    }

    @Test
    void theProxyEnvironmentIsReadAsGoReadsIt() {
        Map<String, String> env = Map.of("HTTPS_PROXY", "proxy.corp:3128", "http_proxy", "http://plain.corp",
                "NO_PROXY", "internal.example,.svc.local,10.0.0.0/8,*.lab:6443");
        UnaryOperator<String> e = env::get;
        assertEquals("http://proxy.corp:3128", KubeconfigClient.proxyFor("https://api.example:6443", "", e));
        assertEquals("http://plain.corp:80", KubeconfigClient.proxyFor("http://api.example", "", e));
        assertNull(KubeconfigClient.proxyFor("https://internal.example:6443", "", e), "a named host");
        assertNull(KubeconfigClient.proxyFor("https://api.internal.example", "", e), "its subdomains");
        assertNull(KubeconfigClient.proxyFor("https://kube.svc.local", "", e), "a leading dot");
        assertNull(KubeconfigClient.proxyFor("https://10.1.2.3:6443", "", e), "a CIDR");
        assertNull(KubeconfigClient.proxyFor("https://k.lab:6443", "", e), "a wildcard with its port");
        assertEquals("http://proxy.corp:3128", KubeconfigClient.proxyFor("https://k.lab:443", "", e), "another port");
        assertNull(KubeconfigClient.proxyFor("https://127.0.0.1:6443", "", e), "loopback never goes through a proxy");
        assertEquals("socks5://s.corp:1080", KubeconfigClient.proxyFor("https://internal.example", "socks5://s.corp",
                e), "proxy-url wins over the environment and NO_PROXY");
        assertNull(KubeconfigClient.proxyFor("https://api.example", "", n -> n.equals("NO_PROXY") ? "*" : env.get(n)));
    }
}
