package io.headroom.kube;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.dialect.Dialects;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * KEDA's ScaledObject CRD schema (vendored under {@code src/test/resources/keda/}, see its README) as
 * the API server applies it to a ScaledObject: the {@code openAPIV3Schema} checked by a JSON-schema
 * validator (networknt, OpenAPI 3.0 dialect), with Kubernetes' strict field validation (what
 * {@code kubectl apply} asks for by default: a field the schema does not know is an error, not
 * silently pruned), and the CRD's one CEL rule.
 */
public final class KedaCrdSchema {
    private static final ObjectMapper YAML = new YAMLMapper();
    private static final KedaCrdSchema INSTANCE = new KedaCrdSchema();

    private final Schema schema;
    private final JsonNode specSchema;

    private KedaCrdSchema() {
        try (InputStream in = KedaCrdSchema.class.getResourceAsStream("/keda/keda.sh_scaledobjects.yaml")) {
            JsonNode crd = YAML.readTree(in);
            JsonNode v = crd.path("spec").path("versions").get(0);
            ObjectNode open = (ObjectNode) v.path("schema").path("openAPIV3Schema").deepCopy();
            strict(open);
            specSchema = open.path("properties").path("spec");
            schema = SchemaRegistry.withDefaultDialect(Dialects.getOpenApi30()).getSchema(open);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static KedaCrdSchema get() {
        return INSTANCE;
    }

    /** Every object with known properties refuses others (unless the schema says to keep unknown fields). */
    private static void strict(JsonNode node) {
        if (node instanceof ObjectNode o) {
            if (o.has("properties") && !o.has("additionalProperties")
                    && !o.path("x-kubernetes-preserve-unknown-fields").asBoolean(false)) {
                o.put("additionalProperties", false);
            }
            for (Iterator<JsonNode> it = o.values().iterator(); it.hasNext(); ) {
                strict(it.next());
            }
        } else if (node instanceof ArrayNode a) {
            a.forEach(KedaCrdSchema::strict);
        }
    }

    /** The problems the API server would find with this ScaledObject (empty: it would be stored). */
    public List<String> problems(Map<String, Object> scaledObject) {
        JsonNode node = YAML.valueToTree(scaledObject);
        List<String> out = new ArrayList<>();
        for (Error e : schema.validate(node)) {
            out.add(e.getInstanceLocation() + ": " + e.getMessage());
        }
        out.addAll(celRules(node.path("spec")));
        return out;
    }

    /**
     * The CRD's {@code x-kubernetes-validations} (CEL, which no JSON-schema validator runs). It has one
     * rule; {@link #celRuleIsTheOneChecked} fails the day KEDA adds or changes one, so this check cannot
     * go stale unnoticed.
     */
    private static List<String> celRules(JsonNode spec) {
        // '!has(self.minReplicaCount) || self.minReplicaCount <= (has(self.maxReplicaCount) ? self.maxReplicaCount : 100)'
        if (spec.has("minReplicaCount")) {
            int max = spec.has("maxReplicaCount") ? spec.get("maxReplicaCount").asInt(0) : 100;
            if (spec.get("minReplicaCount").asInt(0) > max) {
                return List.of("spec: minReplicaCount must be less than or equal to maxReplicaCount");
            }
        }
        return List.of();
    }

    /** The CEL rules the CRD carries, as text. */
    List<String> celRuleTexts() {
        List<String> out = new ArrayList<>();
        specSchema.path("x-kubernetes-validations").forEach(r -> out.add(r.path("rule").asString("")));
        return out;
    }

    static final String CEL_RULE = "!has(self.minReplicaCount) || self.minReplicaCount <= (has(self.maxReplicaCount)"
            + " ? self.maxReplicaCount : 100)";

    boolean celRuleIsTheOneChecked() {
        return celRuleTexts().equals(List.of(CEL_RULE));
    }
}
