package io.headroom.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.mockwebserver.http.RecordedRequest;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * How import-keda reads a namespace's ScaledObjects (issue 27 item 7): in pages ({@code limit} and
 * {@code continue}), never more objects than a workloads file may hold nor an object larger than any
 * real ScaledObject, and an item of another kind in the answer skipped by name instead of ending
 * the whole import.
 */
class ScaledObjectListingTest {
    @RegisterExtension
    final MockApiServerExtension api = new MockApiServerExtension();
    @TempDir
    Path dir;

    static final String PATH = "/apis/keda.sh/v1alpha1/namespaces/shop/scaledobjects";

    static String so(String name) {
        return "{\"apiVersion\":\"keda.sh/v1alpha1\",\"kind\":\"ScaledObject\",\"metadata\":{\"name\":\"" + name
                + "\",\"namespace\":\"shop\"},\"spec\":{\"scaleTargetRef\":{\"name\":\"" + name + "-worker\"},"
                + "\"triggers\":[{\"type\":\"prometheus\",\"metadata\":{\"query\":\"sum(q_" + name.replace('-', '_')
                + ")\",\"threshold\":\"5\"}}]}}";
    }

    static String list(String cont, String... items) {
        return "{\"apiVersion\":\"keda.sh/v1alpha1\",\"kind\":\"ScaledObjectList\",\"metadata\":{"
                + (cont == null ? "" : "\"continue\":\"" + cont + "\"") + "},\"items\":[" + String.join(",", items) + "]}";
    }

    List<RecordedRequest> lists() throws InterruptedException {
        return api.cluster().takeRequests().stream().filter(r -> r.getPath().startsWith(PATH)).toList();
    }

    @Test
    void anItemOfAnotherKindIsSkippedByNameAndTheOthersAreImported() throws Exception {
        MockCluster cluster = api.cluster();
        cluster.server.expect().get().withPath(PATH + "?limit=" + ScaledObjectImport.Limits.DEFAULT.pageSize())
                .andReturn(200, list(null, so("orders"), "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":"
                        + "{\"name\":\"stray\",\"namespace\":\"shop\"},\"data\":{\"a\":\"b\"}}",
                        // Fields of the wrong kind: each once failed the whole listing ("Cannot deserialize value …").
                        so("tagged").replace("\"namespace\":\"shop\"}", "\"namespace\":\"shop\",\"annotations\":[\"a\"]}"),
                        so("odd").replace("\"kind\":\"ScaledObject\"", "\"kind\":[\"ScaledObject\"]"),
                        "\"just a string\"", "null", so("mail")))
                .always();
        try (KubeConnection conn = cluster.connect(dir, "prod")) {
            ScaledObjectImport.Listing l = ScaledObjectImport.listIn(conn, "shop");
            assertEquals(List.of("orders", "mail"), l.imported().stream().map(ImportedClass::name).toList());
            assertEquals(List.of("shop/stray: a ConfigMap (v1), not a ScaledObject",
                    "shop/tagged: its metadata could not be read",
                    "shop/odd: its kind or apiVersion is not a name",
                    "shop/(item 5 of its page): not an object", "shop/(item 6 of its page): not an object"),
                    l.skipped().stream().map(ScaledObjectImport.Skipped::line).toList());
        }
    }

    @Test
    void theNamespaceIsReadInPagesFollowingContinue() throws Exception {
        MockCluster cluster = api.cluster();
        cluster.server.expect().get().withPath(PATH + "?limit=2")
                .andReturn(200, list("page-2", so("a"), so("b"))).once();
        cluster.server.expect().get().withPath(PATH + "?continue=page-2&limit=2")
                .andReturn(200, list("page-3", so("c"), so("d"))).once();
        cluster.server.expect().get().withPath(PATH + "?continue=page-3&limit=2")
                .andReturn(200, list(null, so("e"))).once();
        try (KubeConnection conn = cluster.connect(dir, "prod")) {
            lists();
            ScaledObjectImport.Listing l = ScaledObjectImport.listIn(conn, "shop",
                    new ScaledObjectImport.Limits(2, 100, 64 * 1024));
            assertEquals(List.of("a", "b", "c", "d", "e"), l.imported().stream().map(ImportedClass::name).toList());
            assertEquals(3, lists().size(), "three pages of at most two");
        }
    }

    @Test
    void moreObjectsThanAWorkloadsFileMayHoldAreRefusedWithoutReadingThemAll() throws Exception {
        MockCluster cluster = api.cluster();
        for (int page = 0; page < 10; page++) {
            String[] items = IntStream.range(0, 2).mapToObj(i -> so("c")).toArray(String[]::new);
            cluster.server.expect().get().withPath(PATH + (page == 0 ? "?limit=2" : "?continue=p" + page + "&limit=2"))
                    .andReturn(200, list("p" + (page + 1), items)).once();
        }
        try (KubeConnection conn = cluster.connect(dir, "prod")) {
            lists();
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> ScaledObjectImport.listIn(conn,
                    "shop", new ScaledObjectImport.Limits(2, 5, 64 * 1024)));
            assertEquals("shop holds more than 5 ScaledObjects, more than a workloads file may hold as classes;"
                    + " nothing imported (import a namespace with fewer)", e.getMessage());
            assertEquals(3, lists().size(), "it stopped at the page that went over: " + e.getMessage());
        }
    }

    @Test
    void anObjectLargerThanAnyRealScaledObjectIsSkippedByName() throws Exception {
        MockCluster cluster = api.cluster();
        String huge = so("huge").replace("\"namespace\":\"shop\"}", "\"namespace\":\"shop\",\"annotations\":{\"x\":\""
                + "y".repeat(5000) + "\"}}");
        cluster.server.expect().get().withPath(PATH + "?limit=2").andReturn(200, list(null, so("ok"), huge)).once();
        try (KubeConnection conn = cluster.connect(dir, "prod")) {
            ScaledObjectImport.Listing l = ScaledObjectImport.listIn(conn, "shop",
                    new ScaledObjectImport.Limits(2, 100, 4096));
            assertEquals(List.of("ok"), l.imported().stream().map(ImportedClass::name).toList());
            String skipped = l.skipped().stream().map(ScaledObjectImport.Skipped::line).collect(Collectors.joining());
            assertTrue(skipped.startsWith("shop/huge: it is ") && skipped.endsWith(" bytes, more than a ScaledObject"
                    + " could need (at most 4096)"), skipped);
        }
    }
}
