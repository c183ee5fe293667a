package io.headroom.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code headroom contexts}: kubectl's get-contexts table plus PROBLEMS, and {@code --json}, on the
 * kubeconfig as the console finds it ({@code KUBECONFIG}: here the {@code kubeconfig} system property,
 * which stands for it) or {@code --kubeconfig FILE} alone. Lists whatever it can with exit 0; never a
 * stack trace, never a secret.
 */
class ContextsCommandTest {
    static final String TOKEN = "t0k3n-n0t-t0-b3-pr1nt3d";
    static final String PASSWORD = "p4ssw0rd-n0t-t0-b3-pr1nt3d";
    static final String KEY = java.util.Base64.getEncoder().encodeToString("k3y-n0t-t0-b3-pr1nt3d".getBytes());
    static final String REFRESH = "r3fr3sh-n0t-t0-b3-pr1nt3d";
    static final String ENV_SECRET = "3nv-n0t-t0-b3-pr1nt3d";
    static final List<String> SECRETS = List.of(TOKEN, PASSWORD, KEY, REFRESH, ENV_SECRET);

    @TempDir
    Path dir;

    static final String GOOD = """
            apiVersion: v1
            kind: Config
            current-context: prod
            clusters:
            - name: prod-cluster
              cluster:
                server: https://prod.example:6443
            - name: stage-cluster
              cluster: {server: "https://stage.example:6443"}
            users:
            - name: prod-admin
              user:
                token: %s
            - name: stage-dev
              user: {username: dev, password: %s}
            contexts:
            - name: prod
              context: {cluster: prod-cluster, user: prod-admin, namespace: payments}
            - name: stage
              context: {cluster: stage-cluster, user: stage-dev}
            """.formatted(TOKEN, PASSWORD);

    Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    /** {@code headroom contexts ARGS} with {@code KUBECONFIG} set to {@code files} (null: unset). */
    static SimulateCommandTest.Run withKubeconfig(List<Path> files, String... args) {
        String before = System.getProperty("kubeconfig");
        if (files != null) {
            System.setProperty("kubeconfig", String.join(java.io.File.pathSeparator,
                    files.stream().map(Path::toString).toList()));
        }
        try {
            List<String> argv = new ArrayList<>(List.of("contexts"));
            argv.addAll(List.of(args));
            return SimulateCommandTest.run(argv.toArray(String[]::new));
        } finally {
            if (before == null) {
                System.clearProperty("kubeconfig");
            } else {
                System.setProperty("kubeconfig", before);
            }
        }
    }

    static void noStackTraceNorSecret(SimulateCommandTest.Run r) {
        String all = r.out() + r.err();
        for (String s : List.of("Exception", "\tat ", "NullPointer", "An error has occurred")) {
            assertFalse(all.contains(s), "no " + s + ":\n" + all);
        }
        for (String s : SECRETS) {
            assertFalse(all.contains(s), "a secret was printed:\n" + all);
        }
    }

    /** Must show (issue 26): KUBECONFIG holding an empty file and a good one lists the good contexts, exit 0. */
    @Test
    void anEmptyFileInTheKubeconfigListIsAnEmptyConfigAndTheGoodContextsAreListed() throws Exception {
        Path empty = write("empty", "");
        Path good = write("good", GOOD);
        for (List<Path> list : List.of(List.of(empty, good), List.of(good, empty))) {
            SimulateCommandTest.Run r = withKubeconfig(list);
            assertEquals(ExitCode.OK, r.code(), r.err());
            noStackTraceNorSecret(r);
            List<String> lines = r.out().lines().toList();
            assertEquals(3, lines.size(), r.out());
            assertTrue(lines.get(0).startsWith("CURRENT   NAME    CLUSTER         AUTHINFO     NAMESPACE   PROBLEMS"),
                    lines.get(0));
            assertEquals("*         prod    prod-cluster    prod-admin   payments", lines.get(1));
            assertEquals("          stage   stage-cluster   stage-dev", lines.get(2));
            assertEquals("", r.err(), "an empty file is nothing to complain about");
        }
    }

    @Test
    void eachProblemIsSaidWithItsFileAndLineAndTheContextIsStillListed() throws Exception {
        Path cfg = write("config", """
                apiVersion: v1
                kind: Config
                clusters:
                - name: c
                  cluster: {server: "https://c.example:6443"}
                users:
                - name: ok
                  user: {token: %s}
                - name: no-command
                  user:
                    exec:
                      apiVersion: client.authentication.k8s.io/v1
                      interactiveMode: Never
                      env: [{name: SECRET, value: %s}]
                - name: gke
                  user:
                    auth-provider:
                      name: gcp
                      config: {access-token: %s}
                contexts:
                - name: lost
                  context: {cluster: gone, user: ok}
                - name: bad-namespace
                  context: {cluster: c, user: ok, namespace: Payments_1}
                - name: exec-without-command
                  context: {cluster: c, user: no-command}
                - name: old-gke
                  context: {cluster: c, user: gke}
                - name: fine
                  context: {cluster: c, user: ok}
                """.formatted(TOKEN, ENV_SECRET, REFRESH));
        SimulateCommandTest.Run r = withKubeconfig(List.of(cfg));
        assertEquals(ExitCode.OK, r.code(), r.err());
        noStackTraceNorSecret(r);
        String out = r.out();
        String name = cfg.toString();
        assertTrue(line(out, "lost").contains(name + ":22: cluster \"gone\" was not found for context \"lost\""), out);
        assertTrue(line(out, "bad-namespace").contains(name + ":24: namespace \"Payments_1\" for context"
                + " \"bad-namespace\" does not conform to the kubernetes DNS_LABEL rules"), out);
        assertTrue(line(out, "exec-without-command").contains(name + ":11: command must be specified for user"
                + " \"no-command\""), out);
        assertTrue(line(out, "old-gke").contains(name + ":17: user \"gke\" uses the gcp auth-provider, which was"
                + " removed from client-go") && line(out, "old-gke").contains("gke-gcloud-auth-plugin"), out);
        assertTrue(line(out, "fine").endsWith("   ok"), "no namespace, no problem for a good context:\n" + out);
    }

    private static String line(String table, String context) {
        return table.lines().filter(l -> l.substring(10).startsWith(context + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no row for " + context + ":\n" + table));
    }

    @Test
    void jsonHasTheFilesEveryContextWithItsProblemsAndNoSecret() throws Exception {
        Path empty = write("empty", "");
        Path good = write("good", GOOD);
        Path missing = dir.resolve("not-there");
        SimulateCommandTest.Run r = withKubeconfig(List.of(empty, good, missing), "--json");
        assertEquals(ExitCode.OK, r.code(), r.err());
        noStackTraceNorSecret(r);
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertEquals("KUBECONFIG", j.get("source").asString(""));
        assertEquals(List.of("empty", "read", "missing"), states(j));
        assertEquals("prod", j.get("current").asString(""));
        JsonNode prod = j.get("contexts").get(0);
        assertEquals("prod", prod.get("name").asString(""));
        assertTrue(prod.get("current").asBoolean(false));
        assertEquals("prod-cluster", prod.get("cluster").asString(""));
        assertEquals("prod-admin", prod.get("authinfo").asString(""));
        assertEquals("payments", prod.get("namespace").asString(""));
        assertEquals("https://prod.example:6443", prod.get("server").asString(""));
        assertEquals("token", prod.get("auth").asString(""));
        assertEquals(good.toString(), prod.get("file").asString(""));
        assertEquals(17, prod.get("line").asInt(0));
        assertTrue(prod.get("usable").asBoolean(false));
        assertEquals(0, prod.get("problems").size());
        assertEquals("basic (dev)", j.get("contexts").get(1).get("auth").asString(""));
        assertEquals("", j.get("contexts").get(1).get("namespace").asString(""), "kubectl shows no namespace when none is set");
        assertTrue(j.get("problems").get(0).asString("").contains("not found (skipped, as kubectl does): " + missing),
                j.toString());
    }

    private static List<String> states(JsonNode j) {
        List<String> out = new ArrayList<>();
        j.get("files").forEach(f -> out.add(f.get("state").asString("")));
        return out;
    }

    /**
     * A file of the list that cannot be read: client-go refuses every context then; Headroom lists them,
     * each with that problem (so none can be opened by mistake), and says the file's problem on stderr.
     */
    @Test
    void anUnreadableFileInTheListIsEveryContextsProblemAndTheListingGoesOn() throws Exception {
        Path good = write("good", GOOD);
        Path broken = write("broken", "apiVersion: v1\nclusters:\n- name: x\n  cluster: {server: [1, 2]}\n");
        SimulateCommandTest.Run r = withKubeconfig(List.of(good, broken));
        assertEquals(ExitCode.OK, r.code(), r.err());
        noStackTraceNorSecret(r);
        String problem = broken + ":4: clusters[0].cluster.server: must be a string, not a list";
        assertTrue(line(r.out(), "prod").contains(problem), r.out());
        assertTrue(line(r.out(), "stage").contains(problem), r.out());
        assertTrue(r.err().contains("headroom contexts: " + problem), r.err());
    }

    @Test
    void anExplicitKubeconfigIsReadAloneAndAMissingOneIsAUsageError() throws Exception {
        Path good = write("good", GOOD);
        Path other = write("other", GOOD.replace("name: prod\n", "name: elsewhere\n"));
        SimulateCommandTest.Run r = withKubeconfig(List.of(other), "--kubeconfig", good.toString());
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertTrue(r.out().contains(" prod ") && !r.out().contains("elsewhere"), "the explicit file alone:\n" + r.out());

        SimulateCommandTest.Run missing = withKubeconfig(null, "--kubeconfig", dir.resolve("nope").toString());
        assertEquals(ExitCode.USAGE, missing.code());
        assertEquals("headroom contexts: " + dir.resolve("nope") + ": no such file\n", missing.err());
        SimulateCommandTest.Run directory = withKubeconfig(null, "--kubeconfig", dir.toString());
        assertEquals(ExitCode.USAGE, directory.code());
        assertTrue(directory.err().contains("is a directory, not a file"), directory.err());
        SimulateCommandTest.Run typo = withKubeconfig(null, "--jsn");
        assertEquals(ExitCode.USAGE, typo.code());
        assertTrue(typo.err().startsWith("headroom contexts: unknown argument '--jsn'; did you mean --json?"), typo.err());
        assertEquals("", typo.out());
    }

    @Test
    void anEmptyKubeconfigListsNothingAndSaysWhereItLooked() throws Exception {
        Path empty = write("empty", "# nothing yet\n");
        SimulateCommandTest.Run r = withKubeconfig(List.of(empty));
        assertEquals(ExitCode.OK, r.code(), r.err());
        assertEquals("CURRENT   NAME   CLUSTER   AUTHINFO   NAMESPACE   PROBLEMS\n", r.out());
        assertEquals("headroom contexts: no context in KUBECONFIG (" + empty + ")\n", r.err());
    }
}
