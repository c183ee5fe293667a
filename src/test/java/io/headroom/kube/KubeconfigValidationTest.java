package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.config.ConfigException.Problem;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * client-go's kubeconfig validation, ported from {@code kubernetes/client-go}
 * {@code tools/clientcmd/validation_test.go} (commit 32ce75a7): each upstream test builds a config in
 * memory and runs {@code Validate} ({@code testConfig}), {@code ConfirmUsable} or one of
 * {@code validateContext}/{@code validateClusterInfo}/{@code validateAuthInfo} on it; here the same
 * config is a kubeconfig file read by {@link Kubeconfig}, and each row names the upstream test and which
 * of those it runs. Expected words are Headroom's (the kubeconfig's field names, the entry's name in
 * quotes); their substance is upstream's. Rows with no expected words expect no problem at all.
 *
 * <p>Left out, and why: {@code TestIsContextNotFound}, {@code TestIsEmptyConfig},
 * {@code TestIsConfigurationInvalid}, {@code TestErrConfigurationInvalidWithErrorsIs} and
 * {@code …ShortCircuitsOnFirstMatch} test Go error types and {@code errors.Is}; Headroom's problems are
 * located sentences (the missing-current-context and empty-config words they rely on are rows here).
 */
class KubeconfigValidationTest {
    @TempDir
    static Path dir;

    /** What a row runs, as the upstream test's helper does. */
    enum Check { CONFIG, CONFIRM_USABLE, CONTEXT, CLUSTER, USER }

    /**
     * @param upstream the upstream test function
     * @param yaml     the upstream in-memory config as a kubeconfig; {@code TEMP} is an existing empty file
     * @param exact    the problems must be exactly as many as {@code expected} (else: at least those)
     */
    record Row(String upstream, Check check, String name, String yaml, List<String> expected, boolean exact) {
        @Override
        public String toString() {
            return upstream + " (" + check + (name == null ? "" : " " + name) + ")";
        }
    }

    static Row row(String upstream, Check check, String name, String yaml, String... expected) {
        return new Row(upstream, check, name, yaml, List.of(expected), false);
    }

    /** The test's pair of checks: its own helper on one entry, then {@code testConfig} on the whole. */
    static List<Row> pair(String upstream, Check check, String name, String yaml, String... expected) {
        return List.of(row(upstream, check, name, yaml, expected), row(upstream, Check.CONFIG, null, yaml, expected));
    }

    static final String CERT_DATA = Base64.getEncoder().encodeToString("certdata".getBytes());
    static final String KEY_DATA = Base64.getEncoder().encodeToString("keydata".getBytes());

    static Stream<Row> rows() {
        List<Row> rows = new ArrayList<>();
        String badInfoButOk = """
                clusters:
                - {name: missing ca, cluster: {server: anything, certificate-authority: missing}}
                - {name: clean, cluster: {server: anything}}
                users:
                - {name: error, user: {username: anything, token: here}}
                - {name: clean, user: {token: here}}
                contexts:
                - {name: dirty, context: {cluster: missing ca, user: error}}
                - {name: clean, context: {cluster: clean, user: clean}}
                """;
        rows.add(row("TestConfirmUsableBadInfoButOkConfig", Check.CONFIRM_USABLE, "clean", badInfoButOk));
        rows.add(row("TestConfirmUsableBadInfoButOkConfig", Check.CONFIG, null, badInfoButOk,
                "unable to read certificate-authority"));
        String missingObjects = """
                clusters: [{name: kind-cluster, cluster: {server: anything}}]
                users: [{name: kind-user, user: {token: any-value}}]
                contexts:
                - {name: missing-user, context: {cluster: kind-cluster, user: garbage}}
                - {name: missing-cluster, context: {cluster: garbage, user: kind-user}}
                """;
        String missingUser = "user \"garbage\" was not found for context \"missing-user\"";
        String missingCluster = "cluster \"garbage\" was not found for context \"missing-cluster\"";
        rows.add(row("TestConfirmUsableMissingObjects", Check.CONFIRM_USABLE, "missing-user", missingObjects, missingUser));
        rows.add(row("TestConfirmUsableMissingObjects", Check.CONFIG, null, missingObjects, missingUser));
        rows.add(row("TestConfirmUsableMissingObjects", Check.CONFIRM_USABLE, "missing-cluster", missingObjects,
                missingCluster));
        rows.add(row("TestConfirmUsableMissingObjects", Check.CONFIG, null, missingObjects, missingCluster));
        rows.add(row("TestConfirmUsableBadInfoConfig", Check.CONFIRM_USABLE, "first", """
                clusters: [{name: missing ca, cluster: {server: anything, certificate-authority: missing}}]
                users: [{name: error, user: {username: anything, token: here}}]
                contexts: [{name: first, context: {cluster: missing ca, user: error}}]
                """, "unable to read certificate-authority"));
        String noConfig = "no configuration has been provided";
        rows.add(row("TestConfirmUsableEmptyConfig", Check.CONFIRM_USABLE, "", "", noConfig));
        rows.add(row("TestConfirmUsableMissingConfig", Check.CONFIRM_USABLE, "not-here", "", noConfig));
        rows.add(row("TestValidateEmptyConfig", Check.CONFIG, null, "", noConfig));
        rows.add(row("TestValidateMissingCurrentContextConfig", Check.CONFIG, null, "current-context: anything\n",
                "context was not found for specified "));
        rows.addAll(pair("TestValidateMissingReferencesConfig", Check.CONTEXT, "anything", """
                current-context: anything
                contexts: [{name: anything, context: {cluster: missing, user: missing}}]
                """, "user \"missing\" was not found for context \"anything\"",
                "cluster \"missing\" was not found for context \"anything\""));
        rows.addAll(pair("TestValidateEmptyContext", Check.CONTEXT, "anything", """
                current-context: anything
                contexts: [{name: anything, context: {}}]
                """, "user was not specified for context \"anything\"",
                "cluster was not specified for context \"anything\""));
        rows.addAll(pair("TestValidateEmptyContextName", Check.CONTEXT, "", """
                current-context: anything
                contexts: [{name: "", context: {cluster: missing, user: missing}}]
                """, "empty context name", "is not allowed"));
        rows.addAll(pair("TestValidateEmptyClusterInfo", Check.CLUSTER, "empty",
                "clusters: [{name: empty, cluster: {}}]\n", "has no server defined"));
        rows.add(new Row("TestValidateClusterInfoErrEmptyCluster", Check.CLUSTER, "",
                "clusters: [{name: \"\", cluster: {}}]\n", List.of("has no server defined"), true));
        rows.addAll(pair("TestValidateMissingCAFileClusterInfo", Check.CLUSTER, "missing ca",
                "clusters: [{name: missing ca, cluster: {server: anything, certificate-authority: missing}}]\n",
                "unable to read certificate-authority"));
        rows.addAll(pair("TestValidateCleanClusterInfo", Check.CLUSTER, "clean",
                "clusters: [{name: clean, cluster: {server: anything}}]\n"));
        rows.addAll(pair("TestValidateCleanWithCAClusterInfo", Check.CLUSTER, "clean",
                "clusters: [{name: clean, cluster: {server: anything, certificate-authority: TEMP}}]\n"));
        rows.addAll(pair("TestValidateEmptyAuthInfo", Check.USER, "error", "users: [{name: error, user: {}}]\n"));
        rows.addAll(pair("TestValidateCertFilesNotFoundAuthInfo", Check.USER, "error",
                "users: [{name: error, user: {client-certificate: missing, client-key: missing}}]\n",
                "unable to read client-cert", "unable to read client-key"));
        rows.addAll(pair("TestValidateCertDataOverridesFiles", Check.USER, "clean", """
                users:
                - name: clean
                  user: {client-certificate: TEMP, client-certificate-data: %s, client-key: TEMP, client-key-data: %s}
                """.formatted(CERT_DATA, KEY_DATA), "client-certificate-data and client-certificate are both specified",
                "client-key-data and client-key are both specified"));
        rows.addAll(pair("TestValidateCleanCertFilesAuthInfo", Check.USER, "clean",
                "users: [{name: clean, user: {client-certificate: TEMP, client-key: TEMP}}]\n"));
        rows.addAll(pair("TestValidateCleanTokenAuthInfo", Check.USER, "clean",
                "users: [{name: clean, user: {token: any-value}}]\n"));
        rows.addAll(pair("TestValidateMultipleMethodsAuthInfo", Check.USER, "error",
                "users: [{name: error, user: {token: token, username: username}}]\n",
                "more than one authentication method", "token", "basicAuth"));
        rows.addAll(pair("TestValidateAuthInfoExec", Check.USER, "user", exec("""
                command: /bin/example
                apiVersion: clientauthentication.k8s.io/v1alpha1
                args: [hello, world]
                env: [{name: foo, value: bar}]
                interactiveMode: IfAvailable""")));
        rows.addAll(pair("TestValidateAuthInfoExecNoVersion", Check.USER, "user", exec("""
                command: /bin/example
                interactiveMode: IfAvailable"""), "apiVersion must be specified for user \"user\""));
        rows.addAll(pair("TestValidateAuthInfoExecNoCommand", Check.USER, "user", exec("""
                apiVersion: clientauthentication.k8s.io/v1alpha1
                interactiveMode: IfAvailable"""), "command must be specified for user \"user\""));
        rows.addAll(pair("TestValidateAuthInfoExecWithAuthProvider", Check.USER, "user", """
                users:
                - name: user
                  user:
                    auth-provider: {name: oidc}
                    exec: {command: /bin/example, apiVersion: clientauthentication.k8s.io/v1alpha1, interactiveMode: IfAvailable}
                """, "auth-provider cannot be provided in combination with an exec plugin for user \"user\""));
        rows.addAll(pair("TestValidateAuthInfoExecNoEnv", Check.USER, "user", exec("""
                command: /bin/example
                apiVersion: clientauthentication.k8s.io/v1alpha1
                env: [{name: foo, value: ""}]
                interactiveMode: IfAvailable""")));
        rows.addAll(pair("TestValidateAuthInfoExecInteractiveModeMissing", Check.USER, "user", exec("""
                command: /bin/example
                apiVersion: clientauthentication.k8s.io/v1alpha1"""),
                "interactiveMode must be specified for user \"user\""));
        rows.addAll(pair("TestValidateAuthInfoExecInteractiveModeInvalid", Check.USER, "user", exec("""
                command: /bin/example
                apiVersion: clientauthentication.k8s.io/v1alpha1
                interactiveMode: invalid"""), "invalid interactiveMode for user \"user\": \"invalid\""));
        rows.addAll(pair("TestValidateAuthInfoImpersonateUser", Check.USER, "user",
                "users: [{name: user, user: {as: user}}]\n"));
        rows.addAll(pair("TestValidateAuthInfoImpersonateEverything", Check.USER, "user", """
                users:
                - name: user
                  user: {as: user, as-uid: abc123, as-groups: [group-1, group-2], as-user-extra: {key: [val1, val2]}}
                """));
        String withoutUser = "requesting uid, groups or user-extra for user \"user\" without impersonating a user";
        rows.addAll(pair("TestValidateAuthInfoImpersonateGroupsWithoutUserInvalid", Check.USER, "user",
                "users: [{name: user, user: {as-groups: [group-1, group-2]}}]\n", withoutUser));
        rows.addAll(pair("TestValidateAuthInfoImpersonateExtraWithoutUserInvalid", Check.USER, "user",
                "users: [{name: user, user: {as-user-extra: {key: [val1, val2]}}}]\n", withoutUser));
        rows.addAll(pair("TestValidateAuthInfoImpersonateUIDWithoutUserInvalid", Check.USER, "user",
                "users: [{name: user, user: {as-uid: abc123}}]\n", withoutUser));
        return rows.stream();
    }

    static String exec(String body) {
        return "users:\n- name: user\n  user:\n    exec:\n" + body.indent(6);
    }

    static Kubeconfig load(String yaml) throws Exception {
        Path temp = dir.resolve("temp-file");
        if (!Files.exists(temp)) {
            Files.createFile(temp);
        }
        Path file = Files.createTempFile(dir, "kubeconfig", ".yaml");
        Files.writeString(file, yaml.replace("TEMP", temp.toString()));
        Kubeconfig k = Kubeconfig.load(Kubeconfig.Sources.list(List.of(file)));
        assertEquals(List.of(), k.loadProblems(), "the fixture reads");
        return k;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void clientGoValidationTable(Row r) throws Exception {
        Kubeconfig k = load(r.yaml());
        List<Problem> problems = switch (r.check()) {
            case CONFIG -> KubeconfigValidation.validate(k);
            case CONFIRM_USABLE -> KubeconfigValidation.confirmUsable(k, r.name());
            case CONTEXT -> KubeconfigValidation.validateContext(k, k.contexts().get(r.name()));
            case CLUSTER -> KubeconfigValidation.validateClusterInfo(r.name(), k.clusters().get(r.name()));
            case USER -> KubeconfigValidation.validateAuthInfo(r.name(), k.users().get(r.name()));
        };
        String said = String.join("\n", problems.stream().map(Problem::toString).toList());
        if (r.expected().isEmpty()) {
            assertEquals("", said, r.toString());
            return;
        }
        for (String words : r.expected()) {
            assertTrue(said.contains(words), r + ": expected '" + words + "' in:\n" + said);
        }
        if (r.exact()) {
            assertEquals(r.expected().size(), problems.size(), said);
        }
        for (Problem p : problems) {
            assertTrue(p.file().startsWith(dir.toString()), "every problem names its file: " + p);
        }
    }

    /** A problem points at the entry it is about, in the file that defines that entry. */
    @Test
    void aProblemNamesTheFileAndLineOfTheEntryItIsAbout() throws Exception {
        Path users = dir.resolve("users.yaml");
        Files.writeString(users, """
                users:
                - name: u
                  user:
                    token: t
                    username: ana
                """);
        Path contexts = dir.resolve("contexts.yaml");
        Files.writeString(contexts, """
                clusters: [{name: c, cluster: {server: "https://c.example"}}]
                contexts:
                - name: ctx
                  context:
                    cluster: c
                    user: u
                    namespace: Not_A_Label
                """);
        Kubeconfig k = Kubeconfig.load(Kubeconfig.Sources.list(List.of(contexts, users)));
        List<String> said = KubeconfigValidation.confirmUsable(k, "ctx").stream().map(Problem::toString).toList();
        assertEquals(List.of(contexts + ":7: namespace \"Not_A_Label\" for context \"ctx\" does not conform to the"
                        + " kubernetes DNS_LABEL rules (lowercase letters, digits and '-', a letter or digit at each end,"
                        + " at most 63 characters)",
                users + ":2: more than one authentication method found for user \"u\"; found token and basicAuth,"
                        + " only one is allowed"), said);
    }

    /** {@code k8s.io/apimachinery/pkg/util/validation} {@code TestIsDNS1123Label}: a context's namespace. */
    @Test
    void aContextsNamespaceIsADns1123Label() throws Exception {
        List<String> good = List.of("a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a", "1-a",
                "1--a--b--2", "a".repeat(63));
        // "" is not among them: validation.go checks a namespace only when one is set.
        List<String> bad = List.of("A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1", "_", "a_",
                "_a", "a_b", "1_", "_1", "1_2", ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ", " a", "a b", "1 ",
                " 1", "1 2", "a".repeat(64));
        for (String ns : good) {
            assertEquals(List.of(), namespaceProblems(ns), ns);
        }
        for (String ns : bad) {
            List<Problem> p = namespaceProblems(ns);
            assertEquals(1, p.size(), "'" + ns + "'");
            assertTrue(p.get(0).message().contains("does not conform to the kubernetes DNS_LABEL rules"), p.toString());
        }
        assertEquals(List.of(), namespaceProblems(""), "no namespace: the default");
    }

    private static List<Problem> namespaceProblems(String ns) throws Exception {
        Kubeconfig k = load("""
                clusters: [{name: c, cluster: {server: "https://c.example"}}]
                users: [{name: u, user: {}}]
                contexts: [{name: x, context: {cluster: c, user: u, namespace: "%s"}}]
                """.formatted(ns));
        return KubeconfigValidation.validateContext(k, k.contexts().get("x"));
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> whenOpened() {
        String exec = "exec: {command: /bin/example, apiVersion: %s, interactiveMode: %s}";
        return Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("plugin/pkg/client/auth/azure/azure_stub.go",
                        "{auth-provider: {name: azure, config: {access-token: x}}}", "",
                        "uses the azure auth-provider, which was removed from client-go (Kubernetes 1.26) and is never"
                        + " used by Headroom: use kubelogin (https://github.com/Azure/kubelogin)"),
                org.junit.jupiter.params.provider.Arguments.of("rest/plugin.go GetAuthProvider",
                        "{auth-provider: {name: my-sso}}", "", "no auth-provider named \"my-sso\""),
                org.junit.jupiter.params.provider.Arguments.of("rest/plugin.go GetAuthProvider (oidc is built in)",
                        "{auth-provider: {name: oidc, config: {id-token: x}}}", "", null),
                org.junit.jupiter.params.provider.Arguments.of("plugin/pkg/client/auth/exec/exec.go newAuthenticator",
                        "{" + exec.formatted("client.authentication.k8s.io/v1alpha1", "Never") + "}", "",
                        "invalid apiVersion \"client.authentication.k8s.io/v1alpha1\""),
                org.junit.jupiter.params.provider.Arguments.of("plugin/pkg/client/auth/exec/exec.go isInteractive",
                        "{" + exec.formatted("client.authentication.k8s.io/v1", "Always") + "}", "",
                        "has interactiveMode Always, which needs a terminal"),
                org.junit.jupiter.params.provider.Arguments.of("exec.go UpdateTransportConfig (a token: no plugin run)",
                        "{token: t, " + exec.formatted("client.authentication.k8s.io/v1alpha1", "Always") + "}", "",
                        null),
                org.junit.jupiter.params.provider.Arguments.of("client_config.go getUserIdentificationPartialConfig",
                        "{tokenFile: missing-token}", "", "unable to read tokenFile"),
                org.junit.jupiter.params.provider.Arguments.of("Headroom's client: a proxy host Java cannot use",
                        "{}", ", proxy-url: \"http://my_proxy:3128\"", "names a host Headroom's Kubernetes client"
                        + " cannot connect to"));
    }

    /**
     * What client-go accepts while validating but refuses while building the client (and what Headroom's
     * client cannot do): ported from the upstream code named in each row, said before connecting.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("whenOpened")
    void clientGoRefusesWhileBuildingTheClient(String upstream, String user, String cluster, String expected)
            throws Exception {
        Kubeconfig k = load("""
                clusters: [{name: c, cluster: {server: "https://c.example"%s}}]
                users: [{name: u, user: %s}]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                """.formatted(cluster, user));
        assertEquals(List.of(), KubeconfigValidation.confirmUsable(k, "x"), "client-go's validation takes it");
        List<Problem> problems = KubeconfigValidation.whenOpened(k, "x");
        if (expected == null) {
            assertEquals(List.of(), problems);
        } else {
            assertEquals(1, problems.size(), problems.toString());
            assertTrue(problems.get(0).message().contains(expected), problems.get(0).toString());
            assertEquals(problems, KubeconfigValidation.problems(k, "x").stream().toList(), "the context's problems");
        }
    }
}
