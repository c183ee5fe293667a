package io.headroom.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** One-class queries rewritten as grouped ones only where that is exact. */
class PromqlGroupingTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            plain sum        | sum(rate(jobs_total{queue="a"}[2m]))                            | queue | sum by (queue) (rate(jobs_total[2m]))
            other matchers   | sum(x{ns="p", queue="a"}) / sum(y{queue="a", ns="p"})           | queue | sum by (queue) (x{ns="p"}) / sum by (queue) (y{ns="p"})
            trailing by      | histogram_quantile(0.95, sum(rate(b_bucket{queue="a"}[5m])) by (le)) | queue | histogram_quantile(0.95, sum(rate(b_bucket[5m])) by (le, queue))
            leading by       | histogram_quantile(0.9, sum by (le) (rate(b_bucket{queue="a"}[5m]))) | queue | histogram_quantile(0.9, sum by (le, queue) (rate(b_bucket[5m])))
            no aggregation   | redis_key_size{key="orders"}                                    | key   | redis_key_size
            nested           | max(sum(x{queue="a"}) * 2)                                       | queue | max by (queue) (sum by (queue) (x) * 2)
            """)
    void exactRewrites(String name, String promql, String label, String grouped) {
        GroupedQuery g = PromqlGrouping.group(promql, label).orElseThrow(() -> new AssertionError(name));
        assertEquals(grouped, g.promql(), name);
        assertEquals(label, g.by());
        assertTrue(g.value().equals("a") || g.value().equals("orders"), g.value());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            a selector without the label | sum(x{queue="a"}) / sum(y)
            a bare metric name           | sum(x{queue="a"}) / sum(y{ns="p"}) + z
            vector matching              | sum(x{queue="a"}) / on() sum(y{queue="a"})
            without                      | sum without (pod) (x{queue="a"})
            topk                         | topk(1, x{queue="a"})
            a regex                      | sum(x{queue=~"a"})
            two values                   | sum(x{queue="a"}) / sum(y{queue="b"})
            label_replace                | sum(label_replace(x{queue="a"}, "q", "$1", "queue", "(.*)"))
            absent                       | absent(x{queue="a"})
            scalar                       | scalar(sum(x{queue="a"}))
            or vector(0)                 | sum(x{queue="a"}) or vector(0)
            """)
    void nothingThatCouldMoveTheLabel(String name, String promql) {
        assertEquals(Optional.empty(), PromqlGrouping.group(promql, "queue"), name);
    }

    @Test
    void queriesThatDifferOnlyInOneLabelValueShareOneGroupedQuery() {
        Map<String, GroupedQuery> shared = PromqlGrouping.shared(List.of(
                "sum(rate(jobs_total{namespace=\"shop\", queue=\"orders\"}[2m]))",
                "sum(rate(jobs_total{namespace=\"shop\", queue=\"billing\"}[2m]))",
                "sum(other{queue=\"orders\"})"));
        String orders = "sum(rate(jobs_total{namespace=\"shop\", queue=\"orders\"}[2m]))";
        assertEquals(new GroupedQuery("sum by (queue) (rate(jobs_total{namespace=\"shop\"}[2m]))", "queue", "orders"),
                shared.get(orders), "by the label whose value differs, not by namespace: " + shared);
        assertEquals("billing", shared.get("sum(rate(jobs_total{namespace=\"shop\", queue=\"billing\"}[2m]))").value());
        assertEquals(2, shared.size(), "a query no other shares stays its own");
    }
}
