package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.CeilingSpec;
import io.headroom.decision.Policy;
import io.headroom.decision.ScalingBehavior;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A policy edit written into the workloads file in place: only changed values move, comments stay. */
class WorkloadsFileEditTest {
    @TempDir
    Path dir;

    static final String FILE = """
            # Our workloads. Reviewed by the platform team.
            prometheus: {url: "http://127.0.0.1:9090"}
            classes:
              # Payments: steady.
              - name: payments
                context: dev
                namespace: payments
                target: {kind: Deployment, name: worker}
                signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s}
                policy:
                  slotsPerReplica: 4
                  targetUtilization: 0.7     # agreed with finance
                  maxReplicas: 40
                  ceilings:
                    # each pod holds 10 connections
                    - name: db
                      budget: 200
                      perReplica: 10
                    - {name: tenant, replicas: 30}
              - name: reports
                context: dev
                namespace: reports
                target: {kind: Deployment, name: reporter}
                signals: {queueLength: q, oldestAge: a, arrivalRate: r, meanService: s}
            """;

    Path file(String text) throws Exception {
        Path p = dir.resolve("workloads.yaml");
        Files.writeString(p, text);
        return p;
    }

    static Policy policyOf(Path p, String cls) throws ConfigException {
        return WorkloadsFile.read(p).classes().stream().filter(c -> c.name().equals(cls)).findFirst().orElseThrow()
                .policy();
    }

    @Test
    void changedValuesAreRewrittenInPlaceAndEverythingElseIsKeptByteForByte() throws Exception {
        Path p = file(FILE);
        Policy original = policyOf(p, "payments");
        Policy edited = original.toBuilder().maxReplicas(12).targetUtilization(0.8).build();
        String after = WorkloadsFileEdit.save(p, "payments", original, edited).text();

        assertEquals(FILE.replace("maxReplicas: 40", "maxReplicas: 12").replace("targetUtilization: 0.7 ",
                "targetUtilization: 0.8 "), after, "two values changed, nothing else");
        assertTrue(after.contains("# agreed with finance") && after.contains("# each pod holds 10 connections"));
        assertEquals(edited, policyOf(p, "payments"), "the file now reads as the edited policy");
        assertEquals(FILE, Files.readString(dir.resolve("workloads.yaml.bak")), "the old text is kept beside it");
    }

    @Test
    void aKeyThePolicyLacksIsAddedAtItsIndentationAndAClassWithoutPolicyGetsOne() throws Exception {
        Path p = file(FILE);
        Policy original = policyOf(p, "payments");
        Policy edited = original.toBuilder().expectedServiceSeconds(3.0).build();
        WorkloadsFileEdit.save(p, "payments", original, edited);
        assertEquals(edited, policyOf(p, "payments"));
        assertTrue(Files.readString(p).contains("\n      expectedServiceSeconds: 3\n"), Files.readString(p));

        Policy reports = policyOf(p, "reports");
        Policy more = reports.toBuilder().maxReplicas(7).build();
        WorkloadsFileEdit.save(p, "reports", reports, more);
        assertEquals(more, policyOf(p, "reports"));
        assertTrue(Files.readString(p).endsWith("    policy:\n      maxReplicas: 7\n"), Files.readString(p));
    }

    @Test
    void aCeilingCappedInWhatIfBecomesAReplicaLimitOfTheSameName() throws Exception {
        Path p = file(FILE);
        Policy original = policyOf(p, "payments");
        List<CeilingSpec> caps = new ArrayList<>();
        for (CeilingSpec c : original.ceilings()) {
            caps.add(CeilingSpec.replicas(c.name(), c.name().equals("db") ? 6 : 12));
        }
        Policy edited = original.toBuilder().ceilings(caps).build();
        String after = WorkloadsFileEdit.save(p, "payments", original, edited).text();
        assertEquals(edited, policyOf(p, "payments"));
        assertTrue(after.contains("- {name: db, replicas: 6}") && after.contains("- {name: tenant, replicas: 12}"),
                after);
        assertTrue(after.contains("# each pod holds 10 connections"), "the comment above the item stays");
    }

    @Test
    void aBudgetCeilingEditedInWhatIfStaysABudget() throws Exception {
        Path p = file(FILE);
        Policy original = policyOf(p, "payments");
        Policy edited = original.toBuilder().ceilings(original.ceilings().stream()
                .map(c -> c.name().equals("db") ? CeilingSpec.budget("db", 120, 10) : c).toList()).build();
        String after = WorkloadsFileEdit.save(p, "payments", original, edited).text();
        assertEquals(edited, policyOf(p, "payments"));
        assertTrue(after.contains("- {name: db, budget: 120, perReplica: 10}"), "not flattened to replicas: " + after);
        assertTrue(after.contains("- {name: tenant, replicas: 30}"), "the other ceiling is untouched");
        assertTrue(after.contains("# each pod holds 10 connections"), "the comment above the item stays");
    }

    @Test
    void whatTheFileCannotBeToldFromHereIsRefusedByNameAndTheFileIsUntouched() throws Exception {
        Path p = file(FILE);
        Policy original = policyOf(p, "payments");
        Policy edited = original.toBuilder().scaleDown(ScalingBehavior.defaultDown().withWindow(60)).build();
        ConfigException e = assertThrows(ConfigException.class,
                () -> WorkloadsFileEdit.save(p, "payments", original, edited));
        assertTrue(e.getMessage().contains("scaleDown"), e.getMessage());
        assertEquals(FILE, Files.readString(p));
        assertThrows(ConfigException.class, () -> WorkloadsFileEdit.save(p, "nobody", original,
                original.toBuilder().maxReplicas(3).build()));
    }

    @Test
    void aResultThatDoesNotValidateIsRolledBack() throws Exception {
        // The file was already wrong elsewhere (a class without a target): the edit is not left half-saved.
        String broken = FILE.replace("    target: {kind: Deployment, name: reporter}\n", "");
        Path p = file(broken);
        Policy original = Policy.builder().slotsPerReplica(4).targetUtilization(0.7).maxReplicas(40).build();
        assertThrows(ConfigException.class, () -> WorkloadsFileEdit.save(p, "payments", original,
                original.toBuilder().maxReplicas(12).build()));
        assertEquals(broken, Files.readString(p), "the old text is back");
    }

    @Test
    void aJsonFileIsEditedToo() throws Exception {
        Path p = dir.resolve("workloads.json");
        Files.writeString(p, """
                {"prometheus": {"url": "http://127.0.0.1:9090"},
                 "classes": [{"name": "payments", "context": "dev", "namespace": "payments",
                   "target": {"kind": "Deployment", "name": "worker"},
                   "signals": {"queueLength": "q", "oldestAge": "a", "arrivalRate": "r", "meanService": "s"},
                   "policy": {"maxReplicas": 40}}]}
                """);
        Policy original = policyOf(p, "payments");
        Policy edited = original.toBuilder().maxReplicas(9).minReplicas(2).build();
        WorkloadsFileEdit.save(p, "payments", original, edited);
        assertEquals(edited, policyOf(p, "payments"));
    }
}
