package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.headroom.decision.Signals;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Grouped signals in a workloads file: one query for many classes, each picking its series by a label value. */
class GroupedSignalsTest {

    static final String ARRIVALS = "sum by (queue) (rate(jobs_enqueued_total[1m]))";

    static WorkloadsFile read(String yaml) throws ConfigException {
        return WorkloadsFile.read("w.yaml", yaml, ConfigTree.Format.YAML, null);
    }

    @Test
    void classesShareOneGroupedQueryAndKeepTheirOwnWhereTheyHaveOne() throws Exception {
        WorkloadsFile f = read("""
                prometheus: {url: http://h}
                classes:
                  - name: orders
                    context: dev
                    target: {name: orders-worker}
                    signals:
                      queueLength: {grouped: &len "sum by (queue) (jobs_waiting)", by: queue, value: orders}
                      oldestAge: max(oldest{queue="orders"})
                      arrivalRate: {grouped: &in "sum by (queue) (rate(jobs_enqueued_total[1m]))", by: queue, value: orders}
                      meanService: vector(2)
                  - name: seven
                    context: dev
                    target: {name: seven-worker}
                    signals:
                      queueLength: {grouped: *len, by: queue, value: 7}
                      oldestAge: max(oldest{queue="7"})
                      arrivalRate: {grouped: *in, by: queue, value: "7"}
                      meanService: vector(2)
                """);
        ClassConfig orders = f.classConfig("orders").orElseThrow();
        ClassConfig seven = f.classConfig("seven").orElseThrow();
        assertEquals(new GroupedQuery(ARRIVALS, "queue", "orders"), orders.groupedQuery(Signals.ARRIVAL_RATE));
        assertEquals(new GroupedQuery(ARRIVALS, "queue", "7"), seven.groupedQuery(Signals.ARRIVAL_RATE),
                "a number is a label value like any other");
        assertEquals(orders.groupedQuery(Signals.ARRIVAL_RATE).key(), seven.groupedQuery(Signals.ARRIVAL_RATE).key(),
                "one request for both classes");
        assertNull(orders.groupedQuery(Signals.OLDEST_AGE), "its own query stays its own");
        assertEquals("max(oldest{queue=\"orders\"})", orders.query(Signals.OLDEST_AGE));
        assertEquals(List.of(Signals.QUEUE_LENGTH, Signals.OLDEST_AGE, Signals.ARRIVAL_RATE, Signals.MEAN_SERVICE),
                List.copyOf(orders.queries().keySet()), "every signal has a one-class query, in file order");
        assertEquals("(" + ARRIVALS + ") and on (queue) label_replace(vector(1), \"queue\", \"orders\", \"\", \"\")",
                orders.query(Signals.ARRIVAL_RATE));
    }

    @Test
    void theOneClassFormEscapesTheValue() {
        GroupedQuery q = new GroupedQuery("x", "queue", "a\"b\\c$1");
        assertTrue(q.perClass().endsWith("label_replace(vector(1), \"queue\", \"a\\\"b\\\\c$$1\", \"\", \"\")"),
                q.perClass());
        assertThrows(IllegalArgumentException.class, () -> new GroupedQuery("x", "__name__", "a"));
        assertThrows(IllegalArgumentException.class, () -> new GroupedQuery("x", "queue", ""));
        assertThrows(IllegalArgumentException.class, () -> new GroupedQuery(" ", "queue", "a"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no by           | '{grouped: "sum by (q) (x)", value: a}'             | w.yaml:6: classes[0].signals.queueLength.by: is required
            no value        | '{grouped: "sum by (q) (x)", by: q}'                | w.yaml:6: classes[0].signals.queueLength.value: is required
            no query        | '{by: q, value: a}'                                  | w.yaml:6: classes[0].signals.queueLength.grouped: is required
            blank query     | '{grouped: " ", by: q, value: a}'                   | w.yaml:6: classes[0].signals.queueLength.grouped: must not be blank
            bad label       | '{grouped: x, by: "que ue", value: a}'              | w.yaml:6: classes[0].signals.queueLength.by: must be a Prometheus label name
            reserved label  | '{grouped: x, by: __name__, value: a}'              | w.yaml:6: classes[0].signals.queueLength.by: labels starting with __ are Prometheus's own
            empty value     | '{grouped: x, by: q, value: ""}'                    | w.yaml:6: classes[0].signals.queueLength.value: must not be empty
            list value      | '{grouped: x, by: q, value: [a]}'                   | w.yaml:6: classes[0].signals.queueLength.value: expected the label's value (a string), got a list
            control value   | '{grouped: x, by: q, value: "a\\u0007"}'            | w.yaml:6: classes[0].signals.queueLength.value: contains a control character
            unknown field   | '{grouped: x, by: q, value: a, label: q}'           | w.yaml:6: classes[0].signals.queueLength.label: unknown field
            """)
    void groupedProblemsAreLocated(String name, String signal, String expected) {
        String yaml = """
                prometheus: {url: http://h}
                classes:
                  - name: q
                    context: dev
                    target: {name: w}
                    signals: {queueLength: %s, oldestAge: a, arrivalRate: b, meanService: c}
                """.formatted(signal);
        ConfigException e = assertThrows(ConfigException.class, () -> read(yaml));
        assertTrue(e.getMessage().startsWith(expected), name + ": got\n" + e.getMessage() + "\nin\n" + yaml);
    }

    @Test
    void podInFlightCannotBeGrouped() {
        ConfigException e = assertThrows(ConfigException.class, () -> read("""
                prometheus: {url: http://h}
                classes:
                  - name: q
                    context: dev
                    target: {name: w}
                    signals:
                      queueLength: a
                      oldestAge: a
                      arrivalRate: b
                      meanService: c
                      podInFlight: {grouped: "sum by (pod, queue) (x)", by: queue, value: q}
                """));
        assertTrue(e.getMessage().startsWith("w.yaml:11: classes[0].signals.podInFlight: is one series per pod"),
                e.getMessage());
    }
}
