package io.headroom.arch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.headroom.cluster.ClusterPorts;
import io.headroom.cluster.RoutingClusterGateway;
import io.headroom.cluster.WorkloadRef;
import io.headroom.supervise.Freeze;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * A wrapper of a cluster port must pass on every method, and the freeze gate must stop every write. A
 * default method a wrapper forgot once answered "this cluster cannot…" instead of reaching the real
 * cluster (the supervisor's gate swallowed the clean-up of expired drain marks). Now the ports have no
 * defaults, so the compiler makes every wrapper total; these tests keep it so, and check behaviour: every
 * call through the routing ports reaches the context's port, and through the fenced ports every write
 * but the named clean-up is refused under a freeze, without reaching the cluster.
 */
class GatewayWrappersTest {

    /**
     * What a freeze lets through, by port and method: reads, a dry run, and what gives back (unmarking,
     * clearing expired marks, an uncordon: checked apart below). Anything not named here that reaches the
     * cluster under a freeze is a write that bypassed the fence.
     */
    static final Set<String> PASSES_A_FREEZE = Set.of(
            "Scaling.replicaBump", "Scaling.dryRunScale", "Scaling.canScale",
            "DrainMarks.unmarkDrain", "DrainMarks.drainMarks", "DrainMarks.clearExpiredMarks",
            "Nodes.nodes", "Nodes.node", "Nodes.budgets", "Admissions.expire", "Admissions.published");

    /** The ports a session uses: the interfaces {@link ClusterPorts} hands out. */
    static List<Class<?>> ports() {
        List<Class<?>> out = new ArrayList<>();
        for (Method m : ClusterPorts.class.getMethods()) {
            if (m.getParameterCount() == 0 && m.getReturnType().isInterface()
                    && m.getReturnType().getPackageName().equals("io.headroom.cluster")) {
                out.add(m.getReturnType());
            }
        }
        return out;
    }

    @Test
    void noPortHasADefaultAWrapperCouldForgetToForward() {
        List<String> defaults = new ArrayList<>();
        for (Class<?> port : ports()) {
            for (Method m : port.getMethods()) {
                if (m.isDefault()) {
                    defaults.add(port.getSimpleName() + "." + m.getName());
                }
            }
        }
        assertEquals(7, ports().size(), "the ports found: " + ports());
        assertEquals(List.of(), defaults, "a port's method must be abstract: a wrapper then has to forward it");
    }

    /** Records every call that reaches a port, answering with a neutral value. */
    static final class Recorder {
        final List<String> calls = new ArrayList<>();

        <T> T port(Class<T> type) {
            InvocationHandler h = (proxy, m, args) -> {
                if (m.getDeclaringClass() == Object.class) {
                    return m.getName().equals("toString") ? "recorder" : m.getName().equals("hashCode") ? 0 : false;
                }
                calls.add(type.getSimpleName() + "." + m.getName() + "/" + m.getParameterCount());
                return neutral(m.getReturnType());
            };
            return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, h));
        }

        ClusterPorts ports(String context) {
            return ClusterPorts.builder(context).workloads(port(io.headroom.cluster.Workloads.class))
                    .scaling(port(io.headroom.cluster.Scaling.class)).pauses(port(io.headroom.cluster.Pauses.class))
                    .drainMarks(port(io.headroom.cluster.DrainMarks.class)).nodes(port(io.headroom.cluster.Nodes.class))
                    .events(port(io.headroom.cluster.TeamEvents.class))
                    .admissions(port(io.headroom.cluster.Admissions.class)).build();
        }
    }

    static Object neutral(Class<?> t) {
        if (t == boolean.class) {
            return false;
        }
        if (t == int.class) {
            return 0;
        }
        if (t == Optional.class) {
            return Optional.empty();
        }
        if (t == List.class) {
            return List.of();
        }
        return null;
    }

    /** Arguments for {@code m}: a workload and node of context "dev", a cordon (true), no freeze owner. */
    static Object[] args(Method m) {
        Object[] a = new Object[m.getParameterCount()];
        Class<?>[] types = m.getParameterTypes();
        for (int i = 0; i < a.length; i++) {
            Class<?> t = types[i];
            a[i] = t == WorkloadRef.class ? new WorkloadRef("dev", "Deployment", "payments", "worker")
                    : t == io.headroom.cluster.NodeRef.class ? new io.headroom.cluster.NodeRef("dev", "node-1")
                    : t == String.class ? "dev" : t == int.class ? 3 : t == boolean.class ? true
                    : t == List.class ? List.of() : t == Instant.class ? Instant.EPOCH
                    : t == io.headroom.cluster.AdmissionEntry.class ? io.headroom.cluster.AdmissionEntry.open("payments",
                    "test", Instant.EPOCH, Instant.EPOCH.plusSeconds(60), "ana")
                    : t == io.headroom.cluster.Redecision.Redecider.class
                    ? (io.headroom.cluster.Redecision.Redecider) w -> io.headroom.cluster.Redecision.giveUp("test")
                    : null;
        }
        return a;
    }

    /** Calls every method of every port of {@code set}; returns what reached {@code real}, per method. */
    static Map<String, List<String>> callEveryMethod(ClusterPorts set, Recorder real) throws Exception {
        Map<String, List<String>> reached = new HashMap<>();
        for (Method accessor : ClusterPorts.class.getMethods()) {
            if (!ports().contains(accessor.getReturnType())) {
                continue;
            }
            Object port = accessor.invoke(set);
            for (Method m : accessor.getReturnType().getMethods()) {
                if (Modifier.isStatic(m.getModifiers())) {
                    continue;
                }
                real.calls.clear();
                try {
                    m.invoke(port, args(m));
                } catch (java.lang.reflect.InvocationTargetException e) {
                    // a neutral answer the wrapper could not use: what reached the cluster is what counts
                }
                reached.put(m.getDeclaringClass().getSimpleName() + "." + m.getName() + "/" + m.getParameterCount(),
                        List.copyOf(real.calls));
            }
        }
        return reached;
    }

    @Test
    void theRoutingPortsPassEveryCallToTheContextsPort() throws Exception {
        Recorder real = new Recorder();
        ClusterPorts routed = RoutingClusterGateway.of(Map.of("dev", real.ports("dev")));
        List<String> swallowed = new ArrayList<>();
        callEveryMethod(routed, real).forEach((method, reached) -> {
            if (!reached.equals(List.of(method))) {
                swallowed.add(method + " reached " + reached);
            }
        });
        assertEquals(List.of(), swallowed, "the routing ports must pass these on, once, to the context's port");
    }

    @Test
    void underAFreezeNoWriteReachesTheCluster() throws Exception {
        Recorder real = new Recorder();
        ClusterPorts fenced = fence(real.ports("dev"), new Freeze("incident", null, "ana", Instant.EPOCH));
        Set<String> bypassed = new TreeSet<>();
        Set<String> swallowed = new TreeSet<>();
        callEveryMethod(fenced, real).forEach((method, reached) -> {
            String name = method.substring(0, method.indexOf('/'));
            boolean isWrite = !PASSES_A_FREEZE.contains(name) && !name.startsWith("Workloads.")
                    && !name.startsWith("Pauses.") && !name.startsWith("TeamEvents.");
            if (isWrite && !reached.isEmpty()) {
                bypassed.add(method);
            }
            if (!isWrite && !reached.equals(List.of(method))) {
                swallowed.add(method + " reached " + reached);
            }
        });
        assertEquals(Set.of(), bypassed, "these writes bypassed the freeze gate");
        assertEquals(Set.of(), swallowed, "the gate must pass these on, once, to the real port");
    }

    @Test
    void anUncordonGivesBackUnderAFreeze() throws Exception {
        Recorder real = new Recorder();
        ClusterPorts fenced = fence(real.ports("dev"), new Freeze("incident", null, "ana", Instant.EPOCH));
        fenced.nodes().cordon(new io.headroom.cluster.NodeRef("dev", "node-1"), false, null);
        assertEquals(List.of("Nodes.cordon/3"), real.calls);
        real.calls.clear();
        fenced.nodes().cordon(new io.headroom.cluster.NodeRef("dev", "node-1"), true, null);
        assertFalse(real.calls.contains("Nodes.cordon/3"), "a cordon is a write: " + real.calls);
    }

    /** The supervisor's gate over {@code ports}, with {@code global} set: package-private, reached by reflection. */
    static ClusterPorts fence(ClusterPorts ports, Freeze global) throws Exception {
        Class<?> freezesType = Class.forName("io.headroom.supervise.Freezes");
        Constructor<?> c = freezesType.getDeclaredConstructor();
        c.setAccessible(true);
        Object freezes = c.newInstance();
        Method set = freezesType.getDeclaredMethod("set", String.class, Freeze.class);
        set.setAccessible(true);
        set.invoke(freezes, null, global);
        Method fence = Class.forName("io.headroom.supervise.GatedCluster")
                .getDeclaredMethod("fence", ClusterPorts.class, freezesType, Function.class);
        fence.setAccessible(true);
        Function<WorkloadRef, String> classOf = r -> "payments";
        return (ClusterPorts) fence.invoke(null, ports, freezes, classOf);
    }
}
