package io.headroom.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class PromqlSelectorsTest {

    @Test
    void bareNamesAndNamesWithMatchers() {
        assertEquals(List.of("queue_length"), PromqlSelectors.of("queue_length"));
        assertEquals(List.of("queue_length{queue=\"a\",env!~\"dev|test\"}"),
                PromqlSelectors.of("queue_length{queue=\"a\",env!~\"dev|test\"}"));
        assertEquals(List.of("{__name__=~\"job_.+\",queue=\"a\"}"),
                PromqlSelectors.of("sum({__name__=~\"job_.+\",queue=\"a\"})"));
        assertEquals(List.of("ns:queue_age:max5m{queue='a'}"), PromqlSelectors.of("ns:queue_age:max5m{queue='a'}"));
    }

    @Test
    void rangesOffsetsAndAtModifiersAreDropped() {
        assertEquals(List.of("jobs_total{q=\"a\"}"),
                PromqlSelectors.of("sum(rate(jobs_total{q=\"a\"}[5m] offset -1h30m @ 1609746000.5))"));
        assertEquals(List.of("x"), PromqlSelectors.of("max_over_time(x[10m:1m] @ end())"));
        assertEquals(List.of("x"), PromqlSelectors.of("x offset 5m"));
    }

    @Test
    void functionsAggregationsAndGroupingLabelsAreNotSelectors() {
        assertEquals(List.of("svc_seconds_sum{q=\"a\"}", "svc_seconds_count{q=\"a\"}"),
                PromqlSelectors.of("sum by (q) (rate(svc_seconds_sum{q=\"a\"}[1m]))\n"
                        + "  / on (q) group_left (team) sum(rate(svc_seconds_count{q=\"a\"}[1m])) by (q)"));
        assertEquals(List.of("h_bucket{q=\"a\"}"),
                PromqlSelectors.of("histogram_quantile(0.99, SUM BY (le) (rate(h_bucket{q=\"a\"}[5m])))"));
        assertEquals(List.of("up"), PromqlSelectors.of("count without (instance, pod) (up == bool 1)"));
        assertEquals(List.of("a", "b", "c"), PromqlSelectors.of("a and b or c unless on() a"));
    }

    @Test
    void literalsStringsAndCommentsAreSkipped() {
        assertEquals(List.of(), PromqlSelectors.of("vector(1) + scalar(time()) - 1e+3 * 0x1F / NaN + Inf"));
        assertEquals(List.of("x"), PromqlSelectors.of(
                "label_replace(x, \"dst\", \"$1 not_a_metric\", \"src\", \"(.*) {y}\") # comment mentions z"));
        assertEquals(List.of("q"), PromqlSelectors.of("topk(5, q) or count_values(\"v\", q)"));
        assertEquals(List.of("m{l=\"a}b\\\"c\"}"), PromqlSelectors.of("m{l=\"a}b\\\"c\"}"));
        assertEquals(List.of("x"), PromqlSelectors.of("sum(rate(x[1m])) or vector(0)"));
    }

    @Test
    void commentsInsideMatchersAreDropped() {
        assertEquals(List.of("x{a=\"1\", \n  b=\"#2\"}"),
                PromqlSelectors.of("sum(x{a=\"1\", # the queue }\n  b=\"#2\"})"));
    }

    @Test
    void duplicatesAreListedOnce() {
        assertEquals(List.of("x{a=\"1\"}", "x"), PromqlSelectors.of("x{a=\"1\"} / x{a=\"1\"} + x"));
    }
}
