package io.headroom.sandbox;

import io.headroom.decision.AdmissionPolicy;
import io.headroom.decision.CeilingSpec;
import io.headroom.decision.DependencyGuard;
import io.headroom.decision.Policy;
import io.headroom.sandbox.SandboxClassSpec.Dependency;
import io.headroom.sandbox.SandboxClassSpec.Poison;
import io.headroom.sandbox.SandboxClassSpec.ServiceTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The console's default sandbox (design.md §8): five classes that between them show every behaviour of
 * design.md §3 within ten simulated minutes, repeating forever (period 600 s); hourly-reports beside them in the
 * console's built-in sandbox ({@link #builtIn}), whose hourly run the forecast proposes capacity for (issue 29); and
 * intake-api, that shows admission acting on producers that obey it (design.md §2b), in {@link #withAdmissionClass}.
 */
public final class SandboxCatalog {

    /** Seed of the default sandbox, so every operator sees the same demo. */
    public static final long DEFAULT_SEED = 20260101L;
    /** Period of every default class's programme. */
    public static final double PERIOD_SECONDS = 600;
    /** Poll interval of the default policies. */
    public static final double POLL_SECONDS = 5;

    private SandboxCatalog() {
    }

    /**
     * A simulated class with the policy the console starts it with.
     *
     * @param drainOnScaleDown the drain deadline when the class drains on scale-down, else null
     */
    public record Entry(SandboxClassSpec spec, Policy policy, java.time.Duration drainOnScaleDown,
                        io.headroom.loop.ClassPools pools, SandboxPools nodePools) {
        public Entry(SandboxClassSpec spec, Policy policy, java.time.Duration drainOnScaleDown) {
            this(spec, policy, drainOnScaleDown, null, null);
        }

        public Entry(SandboxClassSpec spec, Policy policy) {
            this(spec, policy, null);
        }

        public String name() {
            return spec.name();
        }

        /** The class as the control loop knows it. */
        public io.headroom.loop.WorkloadClass workloadClass() {
            return new io.headroom.loop.WorkloadClass(spec.name(), spec.target(), policy, drainOnScaleDown, pools);
        }
    }

    /** The classes of {@code entries} that run on two node pools, for {@link SandboxCluster}. */
    public static List<SandboxPools> nodePools(List<Entry> entries) {
        return entries.stream().map(Entry::nodePools).filter(java.util.Objects::nonNull).toList();
    }

    /** The class placed across pools ({@link #withPlacementClass}). */
    public static final String PLACEMENT_CLASS = "render";

    /**
     * The default classes and render, placed across two pools (decision 0029): spot first, then on-demand
     * ({@code Session.sandboxWithPlacement}). Not in the default sandbox: a sixth class there changes what the
     * console's tests of the five assert.
     */
    public static List<Entry> withPlacementClass() {
        return List.of(paymentsSteady(), searchInteractive(), ledgerReplay(), enrichment(), nightlyBatch(),
                render());
    }

    /**
     * Rendering on spot nodes, on-demand when spot has none (decision 0029): about 6 jobs/s of 3-s jobs, two
     * slots a pod, some 13 replicas. Spot's nodes are reclaimed from 150 s to 390 s of every period: half its pods
     * go and their replacements pend, Unschedulable; 30 s later their share moves to on-demand (costing 3 times
     * as much), and once spot places pods again and has stayed clear for 60 s it takes its share back.
     */
    static Entry render() {
        SandboxClassSpec spec = SandboxClassSpec.builder(PLACEMENT_CLASS)
                .baseRate(6).repeatSeconds(PERIOD_SECONDS)
                .service(ServiceTime.lognormal(3, 0.4)).concurrency(2).startupSeconds(30)
                .initialReplicas(12)
                .build();
        Policy policy = base().slotsPerReplica(2).maxAgeSeconds(90.0).minReplicas(2).maxReplicas(24).build();
        io.headroom.cluster.WorkloadRef onDemand = new io.headroom.cluster.WorkloadRef(SandboxClassSpec.CONTEXT,
                SandboxClassSpec.CONTEXT, "Deployment", PLACEMENT_CLASS + "-on-demand");
        io.headroom.loop.ClassPools pools = new io.headroom.loop.ClassPools(List.of(
                new io.headroom.loop.ClassPools.Pool(new io.headroom.decision.Placement.PoolSpec("spot", 24, null, 1,
                        null), spec.target()),
                new io.headroom.loop.ClassPools.Pool(new io.headroom.decision.Placement.PoolSpec("on-demand", 24, null,
                        3, null), onDemand)),
                new io.headroom.decision.Placement.Timing(java.time.Duration.ofSeconds(30),
                        java.time.Duration.ofSeconds(60)));
        return new Entry(spec, policy, null, pools,
                new SandboxPools(PLACEMENT_CLASS, spec.target(), onDemand, PERIOD_SECONDS, 150, 390));
    }

    /** The default classes, in display order. */
    public static List<Entry> defaultClasses() {
        return List.of(paymentsSteady(), searchInteractive(), ledgerReplay(), enrichment(), nightlyBatch());
    }

    /** The class whose load comes at the top of every hour, forecast and proposed for ({@link #hourlyReports}). */
    public static final String HOURLY_CLASS = "hourly-reports";

    /**
     * The console's built-in sandbox ({@code ./headroom}): the default classes and hourly-reports, whose hourly run
     * the forecast learns from the week before the start and proposes capacity for (issue 29). The default classes
     * alone ({@link #defaultClasses}) are what the console's tests of the five pin.
     *
     * @param start    the sandbox's start (its clock's first instant)
     * @param firstRun when hourly-reports' first run after the start begins (its runs are hourly from there)
     */
    public static List<Entry> builtIn(Instant start, Instant firstRun) {
        return List.of(paymentsSteady(), searchInteractive(), ledgerReplay(), enrichment(), nightlyBatch(),
                hourlyReports(start, firstRun));
    }

    /** How long each hour's reports keep arriving, from the run's start. */
    public static final double HOURLY_BURST_SECONDS = 900;

    /**
     * Reports a cron job enqueues every hour at the same minute: 1 job/s between runs, 12 jobs/s for the first quarter
     * hour of each run; 4-s jobs, four slots a pod, 45 s to start, so some 15 replicas for the run and 2 between.
     * Reacting alone, the run waits for pods that start only after it began; its week before the start has the same
     * programme, so the forecast sees the next run coming and, with {@code forecast: propose}, the inbox gets a
     * proposal to hold the run's slots from start-up + poll + a minute before it (decision 0030). The console puts the minute a
     * few minutes after it opens ({@code Session.builtIn}), so the first proposal shows soon, not up to an hour later.
     */
    static Entry hourlyReports(Instant start, Instant firstRun) {
        double phase = Math.floorMod(firstRun.getEpochSecond() - start.getEpochSecond(), 3600L); // in the period
        SandboxClassSpec.Builder b = SandboxClassSpec.builder(HOURLY_CLASS).baseRate(1).repeatSeconds(3600.0);
        if (phase + HOURLY_BURST_SECONDS <= 3600) {
            b.segment(phase, phase + HOURLY_BURST_SECONDS, 12);
        } else { // the period turns inside the run: its end wraps to the period's start
            b.segment(0, phase + HOURLY_BURST_SECONDS - 3600, 12).segment(phase, 3600, 12);
        }
        SandboxClassSpec spec = b.service(ServiceTime.lognormal(4, 0.3)).concurrency(4).startupSeconds(45)
                .initialReplicas(2)
                .build();
        Policy policy = base().slotsPerReplica(4).maxAgeSeconds(60.0).minReplicas(1).maxReplicas(20)
                .forecastMode(io.headroom.decision.ForecastMode.PROPOSE)
                .build();
        return new Entry(spec, policy);
    }

    /**
     * The default classes and intake-api, whose producers obey the admission the console publishes
     * ({@code Session.sandboxWithAdmission}). Not in the default sandbox yet: a sixth class there changes what
     * the console's tests of the five assert (counts, order, an exit with nothing published).
     */
    public static List<Entry> withAdmissionClass() {
        return List.of(paymentsSteady(), searchInteractive(), ledgerReplay(), enrichment(), nightlyBatch(),
                intakeApi());
    }

    /** A world running the default classes (with their disruption budget and obedient producers). */
    public static SandboxWorld defaultWorld(long seed, Instant start) {
        return withBudgets(new SandboxWorld(defaultClasses().stream().map(Entry::spec).toList(), seed, start));
    }

    /** The class whose producers obey its admission, published for them ({@link #admissionPolicies}). */
    public static final String ADMISSION_CLASS = "intake-api";
    /** How long intake-api's producers wait before they retry a refused job. */
    public static final double RETRY_SECONDS = 20;

    /** The sandbox classes with an {@code admission:} block: intake-api publishes, conservative on missing data. */
    public static Map<String, AdmissionPolicy> admissionPolicies() {
        return Map.of(ADMISSION_CLASS, new AdmissionPolicy(true, AdmissionPolicy.OnMissing.CONSERVATIVE, null));
    }

    /** The budget a node drain meets in the sandbox: payments-steady lets one pod be unavailable at a time. */
    public static final String PAYMENTS_BUDGET = "payments-steady-pdb";

    /**
     * Puts the sandbox's PodDisruptionBudget on a default world: payments-steady, maxUnavailable 1. Its pods
     * are placed two to a node, so draining a node evicts one and the budget refuses the second (HTTP 429)
     * until the first one's replacement is ready.
     */
    public static SandboxWorld withBudgets(SandboxWorld world) {
        world.setDisruptionBudget("payments-steady", PAYMENTS_BUDGET, 1);
        world.producers(ADMISSION_CLASS).ifPresent(g -> g.obey(RETRY_SECONDS)); // and intake-api's producers obey
        return world;
    }

    private static Policy.Builder base() {
        return Policy.builder().pollIntervalSeconds(POLL_SECONDS);
    }

    /**
     * Steady traffic around 4 jobs/s with a gentle swell; about 3 replicas of 4 slots. A 40-s metrics
     * outage at 400 s shows the fallback holding replicas instead of reading "no data" as zero. At 700 s
     * one worker hangs: ready and alive, it fills its four slots and finishes nothing (STUCK) until drained.
     */
    static Entry paymentsSteady() {
        SandboxClassSpec spec = SandboxClassSpec.builder("payments-steady")
                .baseRate(4).ramp(300, 450, 4, 5.5).ramp(450, 600, 5.5, 4)
                .repeatSeconds(PERIOD_SECONDS)
                .service(ServiceTime.lognormal(2, 0.5)).concurrency(4).startupSeconds(20)
                .initialReplicas(3).outage(400, 440).podMemoryMb(350.0).podHang(700)
                .build();
        Policy policy = base().slotsPerReplica(4).maxAgeSeconds(60.0).minReplicas(2).maxReplicas(20).build();
        return new Entry(spec, policy);
    }

    /**
     * Interactive search: short jobs, a 10-s age objective, and bursts (60 → 90 jobs/s) that need
     * fast scale-up; the tenant ceiling of 6 replicas binds in the biggest burst.
     */
    static Entry searchInteractive() {
        SandboxClassSpec spec = SandboxClassSpec.builder("search-interactive")
                .baseRate(10).segment(60, 120, 60).segment(300, 330, 90).ramp(450, 480, 20, 70)
                .repeatSeconds(PERIOD_SECONDS)
                .service(ServiceTime.exponential(0.3)).concurrency(8).startupSeconds(15)
                .initialReplicas(2)
                .build();
        Policy policy = base().slotsPerReplica(8).drainTargetSeconds(20).maxAgeSeconds(10.0)
                .minReplicas(1).maxReplicas(12)
                .ceilings(List.of(CeilingSpec.replicas("search-tenant", 6)))
                .build();
        return new Entry(spec, policy);
    }

    /**
     * An ordered replay queue (one partition): a poison message at 180 s stalls it for four minutes
     * until dead-lettered; completions drop to 0 while the oldest age climbs, and more replicas
     * cannot help (the partition ceiling caps them anyway).
     */
    static Entry ledgerReplay() {
        SandboxClassSpec spec = SandboxClassSpec.builder("ledger-replay")
                .baseRate(2).repeatSeconds(PERIOD_SECONDS)
                .service(ServiceTime.lognormal(1, 0.3)).concurrency(1).startupSeconds(20)
                .initialReplicas(4).poison(new Poison(180, 420.0))
                .build();
        Policy policy = base().slotsPerReplica(1).maxAgeSeconds(60.0).minReplicas(1).maxReplicas(10)
                .ceilings(List.of(CeilingSpec.replicas("kafka-partitions", 8)))
                .build();
        return new Entry(spec, policy);
    }

    /**
     * Enrichment against a database that slows past 16 concurrent calls: load ramps from 3 to 9
     * jobs/s; scaling up raises latency past the guard (the amplification loop) and the
     * DB-connection ceiling (40 connections / 6 per pod = 6 replicas) binds.
     */
    static Entry enrichment() {
        SandboxClassSpec spec = SandboxClassSpec.builder("enrichment")
                .baseRate(3).ramp(120, 300, 3, 9).segment(300, 420, 9).ramp(420, 480, 9, 3)
                .repeatSeconds(PERIOD_SECONDS)
                .service(ServiceTime.lognormal(2, 0.6)).concurrency(4).startupSeconds(25)
                .initialReplicas(2).dependency(new Dependency(16, 1.5, 80))
                .build();
        Policy policy = base().slotsPerReplica(4).maxAgeSeconds(120.0).minReplicas(1).maxReplicas(20)
                .ceilings(List.of(CeilingSpec.budget("db-connections", 40, 6)))
                .dependencyGuard(new DependencyGuard(120, "enrichment-db latency ms"))
                .build();
        return new Entry(spec, policy);
    }

    /**
     * An intake API's queue whose producers obey admission: steady 4 jobs/s of 1-s jobs, then 50 jobs/s for
     * two minutes from 200 s, against pods that take 60 s to start and a 30-s age objective. The two ready
     * replicas cannot drain the burst within the objective before new ones are ready, so admission throttles
     * to what they serve (or closes) and the producers hold the rest, retrying 20 s later; as replicas become
     * ready it opens again. Its producers read what the console publishes ({@link SandboxAdmissions}): in
     * supervised mode a tightening waits for the operator, and until it is approved they submit everything.
     */
    static Entry intakeApi() {
        SandboxClassSpec spec = SandboxClassSpec.builder(ADMISSION_CLASS)
                .baseRate(4).segment(200, 320, 50)
                .repeatSeconds(PERIOD_SECONDS)
                .service(ServiceTime.lognormal(1, 0.5)).concurrency(4).startupSeconds(60)
                .initialReplicas(2)
                .build();
        Policy policy = base().slotsPerReplica(4).maxAgeSeconds(30.0).expectedServiceSeconds(1.0)
                .minReplicas(2).maxReplicas(16).build();
        return new Entry(spec, policy);
    }

    /**
     * A scale-to-zero batch: two bursts of work (480 and 360 jobs of 3–9 s) and idle otherwise;
     * scales from zero as soon as work waits, back to zero after a 120-s cooldown; the warehouse
     * quota (100 req/s at 8 per pod = 12 replicas) binds in the first burst. Batch workers own their
     * jobs: scale-downs drain (5-minute deadline), so no job is cut off on the way back to zero.
     */
    static Entry nightlyBatch() {
        SandboxClassSpec spec = SandboxClassSpec.builder("nightly-batch")
                .baseRate(0).segment(30, 90, 8).segment(330, 360, 12)
                .repeatSeconds(PERIOD_SECONDS)
                .service(ServiceTime.uniform(3, 9)).concurrency(2).startupSeconds(30)
                .initialReplicas(0)
                .build();
        Policy policy = base().slotsPerReplica(2).targetUtilization(0.8).drainTargetSeconds(120)
                .maxAgeSeconds(900.0).minReplicas(0).maxReplicas(15).cooldownSeconds(120)
                .ceilings(List.of(CeilingSpec.budget("warehouse-quota", 100, 8)))
                .build();
        return new Entry(spec, policy, java.time.Duration.ofMinutes(5));
    }
}
