package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every number of a workloads file has a sane range, and a credential is not sent in clear text
 * unless the file says so out loud.
 */
class WorkloadsFileBoundsTest {

    static final String SIGNALS = """
                signals:
                  queueLength: sum(q_len)
                  oldestAge: max(q_age)
                  arrivalRate: sum(rate(q_in[1m]))
                  meanService: "8"
            """;

    static WorkloadsFile read(String prometheus, String classTail) throws ConfigException {
        String yaml = prometheus + "\nclasses:\n  - name: q\n    context: dev\n    target: {name: w}\n" + SIGNALS
                + classTail;
        return WorkloadsFile.read("w.yaml", yaml, ConfigTree.Format.YAML, null);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            poll every nanosecond  | '    policy: {pollIntervalSeconds: 1e-9}'           | w.yaml:11: classes[0].policy.pollIntervalSeconds: must be at least 1, got 1e-9
            poll once a day        | '    policy: {pollIntervalSeconds: 86400}'          | w.yaml:11: classes[0].policy.pollIntervalSeconds: must be at most 3600, got 86400
            slots per replica      | '    policy: {slotsPerReplica: 2000000000}'          | w.yaml:11: classes[0].policy.slotsPerReplica: must be at most 10000, got 2000000000
            utilization tiny       | '    policy: {targetUtilization: 1e-300}'           | w.yaml:11: classes[0].policy.targetUtilization: must be at least 0.01, got 1e-300
            drain target tiny      | '    policy: {drainTargetSeconds: 1e-12}'           | w.yaml:11: classes[0].policy.drainTargetSeconds: must be at least 1, got 1e-12
            age objective huge     | '    policy: {maxAgeSeconds: 1e300}'                | w.yaml:11: classes[0].policy.maxAgeSeconds: must be at most 2592000, got 1e300
            max replicas huge      | '    policy: {maxReplicas: 2000000000}'             | w.yaml:11: classes[0].policy.maxReplicas: must be at most 100000, got 2000000000
            cooldown huge          | '    policy: {cooldownSeconds: 1e12}'               | w.yaml:11: classes[0].policy.cooldownSeconds: must be at most 86400, got 1e12
            ceiling replicas huge  | '    policy: {ceilings: [{name: c, replicas: 2000000000}]}' | w.yaml:11: classes[0].policy.ceilings[0].replicas: must be at most 100000, got 2000000000
            ceiling per replica    | '    policy: {ceilings: [{name: c, budget: 10, perReplica: 1e-300}]}' | w.yaml:11: classes[0].policy.ceilings[0].perReplica: must be at least 0.000001, got 1e-300
            fallback threshold     | '    policy: {fallback: {failureThreshold: 2000000000}}' | w.yaml:11: classes[0].policy.fallback.failureThreshold: must be at most 1000, got 2000000000
            rule value             | '    policy: {scaleUp: {policies: [{type: Pods, value: 2000000000, periodSeconds: 15}]}}' | w.yaml:11: classes[0].policy.scaleUp.policies[0].value: must be at most 100000, got 2000000000
            guard threshold        | '    policy: {dependencyGuard: {threshold: 1e300}}' | w.yaml:11: classes[0].policy.dependencyGuard.threshold: must be at most 1000000000000000, got 1e300
            """)
    void absurdNumbersAreRefusedAtTheirField(String name, String tail, String expected) {
        String classTail = tail + "\n";
        ConfigException e = assertThrows(ConfigException.class,
                () -> read("prometheus: {url: 'http://127.0.0.1:9090'}", classTail));
        assertTrue(e.getMessage().startsWith(expected), name + ": got\n" + e.getMessage());
    }

    @Test
    void aDrainDeadlineBelowASecondIsRefused() {
        ConfigException e = assertThrows(ConfigException.class, () -> read("prometheus: {url: 'http://127.0.0.1:9090'}",
                "      podInFlight: sum by (pod) (x)\n    drain: {deadlineSeconds: 1e-9}\n"));
        assertEquals("w.yaml:12: classes[0].drain.deadlineSeconds: must be at least 1, got 1e-9", e.getMessage());
    }

    @Test
    void aTimeoutBelowATenthOfASecondIsRefused() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> read("prometheus: {url: 'http://127.0.0.1:9090', timeoutSeconds: 1e-9}", ""));
        assertEquals("w.yaml:1: prometheus.timeoutSeconds: must be at least 0.1, got 1e-9", e.getMessage());
    }

    @Test
    void sensibleValuesAtTheEdgesStillRead() throws ConfigException {
        WorkloadsFile f = read("prometheus: {url: 'http://127.0.0.1:9090', timeoutSeconds: 0.1}",
                "    policy: {pollIntervalSeconds: 1, maxReplicas: 100000, slotsPerReplica: 10000}\n");
        assertEquals(1, f.classes().get(0).policy().pollIntervalSeconds());
        assertEquals(100_000, f.classes().get(0).policy().maxReplicas());
    }

    // ------------------------------------------------------------ credentials over plain http

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            bearer env         | 'prometheus: {url: "http://prometheus.example.internal:9090", bearerTokenEnv: T}'                      | w.yaml:1: prometheus.bearerTokenEnv: a credential would go in clear text over http:// to prometheus.example.internal; use https, or set allowInsecureCredentials: true
            basic auth         | 'prometheus: {url: "http://10.0.0.7:9090", basicAuth: {username: u, passwordEnv: P}}'                | w.yaml:1: prometheus.basicAuth: a credential would go in clear text over http:// to 10.0.0.7; use https, or set allowInsecureCredentials: true
            allow on https     | 'prometheus: {url: "https://p.example", bearerTokenEnv: T, allowInsecureCredentials: true}'          | w.yaml:1: prometheus.allowInsecureCredentials: applies only to an http url
            allow not a bool   | 'prometheus: {url: "http://p.example", bearerTokenEnv: T, allowInsecureCredentials: "yes"}'          | w.yaml:1: prometheus.allowInsecureCredentials: expected true or false, got a string ("yes")
            """)
    void credentialsInClearTextAreRefusedUnlessAllowed(String name, String prometheus, String expected) {
        ConfigException e = assertThrows(ConfigException.class, () -> read(prometheus, ""));
        assertTrue(e.getMessage().startsWith(expected), name + ": got\n" + e.getMessage());
    }

    @Test
    void loopbackAndAnExplicitAllowanceMaySendCredentialsOverHttp() throws ConfigException {
        for (String host : new String[] {"127.0.0.1", "localhost", "[::1]", "127.10.0.1"}) {
            PrometheusEndpoint p = read("prometheus: {url: 'http://" + host + ":9090', bearerTokenEnv: T}", "")
                    .prometheus();
            assertEquals(SecretRef.env("T"), p.bearerToken(), host);
            assertTrue(!p.allowInsecureCredentials(), host);
            assertTrue(!p.credentialsInClearText(), host + " is this machine: nothing crosses a network");
        }
        PrometheusEndpoint allowed = read("prometheus: {url: 'http://p.example:9090', bearerTokenEnv: T,"
                + " allowInsecureCredentials: true}", "").prometheus();
        assertEquals(URI.create("http://p.example:9090"), allowed.url());
        assertTrue(allowed.allowInsecureCredentials());
        assertTrue(allowed.credentialsInClearText());
        PrometheusEndpoint none = read("prometheus: {url: 'http://p.example:9090'}", "").prometheus();
        assertTrue(!none.credentialsInClearText(), "no credential, nothing to leak");
    }

    @Test
    void aBasicAuthUserNameCannotHoldTheSeparator() {
        ConfigException e = assertThrows(ConfigException.class, () -> read("prometheus: {url: 'https://p.example',"
                + " basicAuth: {username: 'ops:admin', passwordEnv: P}}", ""));
        assertTrue(e.getMessage().startsWith("w.yaml:1: prometheus.basicAuth.username: must not contain ':'"),
                e.getMessage());
    }

    @Test
    void theEndpointItselfRefusesClearTextCredentialsToAnotherHost() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PrometheusEndpoint(
                URI.create("http://p.example:9090"), SecretRef.env("T"), null, null, false,
                PrometheusEndpoint.DEFAULT_TIMEOUT));
        assertTrue(e.getMessage().contains("allowInsecureCredentials"), e.getMessage());
    }
}
