package io.headroom.config;

import io.headroom.config.ConfigException.Problem;
import io.headroom.decision.CeilingSpec;
import io.headroom.decision.Policy;
import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;

/**
 * Writes a policy edit into a workloads file in place: only the values that changed are rewritten,
 * at their own place in the text, so comments, order, quoting and layout of everything else stay as
 * the operator wrote them. A key the class's {@code policy:} lacks is added after its last key. What
 * cannot be written this way (behaviours, floors, the guard, a ceiling fed by PromQL) is refused, by
 * name. {@link #save} keeps a {@code .bak}, writes as {@link FileSave} does (through links, mode and owner
 * kept, forced to disk, renamed), re-reads the file and puts the old text back when the result does not
 * validate.
 */
public final class WorkloadsFileEdit {

    /** The policy's top-level fields that are plain values, in the reader's names. */
    private static final List<String> SCALARS = List.of("slotsPerReplica", "targetUtilization", "drainTargetSeconds",
            "maxAgeSeconds", "minReplicas", "maxReplicas", "cooldownSeconds", "pollIntervalSeconds",
            "expectedServiceSeconds", "startupSeconds", "minDrainSeconds", "stuckAfterSeconds", "absorbStep", "timeZone",
            "forecast");

    private WorkloadsFileEdit() {
    }

    /** One replacement of the text between two offsets. */
    private record Splice(int start, int end, String text) {
    }

    /**
     * What a save wrote.
     *
     * @param text   the file's new text
     * @param file   the file written: the one the path named, through its symbolic links
     * @param backup the old text's copy, beside {@code file}
     * @param before the old text, as it was read just before the save (what a revert writes back)
     */
    public record Saved(String text, Path file, Path backup, String before) {
    }

    /**
     * Puts {@code file} (the real file a save wrote) back to {@code before}, as {@link FileSave} saves (the text
     * being taken back kept as its {@code .bak}): only while the file still holds {@code saved}, what that save
     * wrote; a file changed since (by hand, by another console) is left alone and the refusal says so.
     */
    /** True while the file still holds exactly what a save wrote (nobody edited it since). */
    public static boolean unchangedSince(Path file, String saved) throws ConfigException {
        return ConfigTree.readText(file).equals(saved);
    }

    public static void revert(Path file, String saved, String before) throws ConfigException {
        String name = ConfigTree.displayName(file);
        String now = ConfigTree.readText(file);
        if (!now.equals(saved)) {
            throw new ConfigException(new Problem(name, 0, 0, "",
                    "not reverted: the file changed since the save (edited elsewhere); it is left as it is"));
        }
        try {
            FileSave.save(file, now, before, FileSave.Steps.NONE);
        } catch (IOException e) {
            throw new ConfigException(new Problem(name, 0, 0, "", "not reverted: " + io.headroom.ErrorWords.of(e)));
        }
    }

    /** {@link #save(Path, String, Policy, Policy, FileSave.Steps)} without watching its steps. */
    public static Saved save(Path path, String className, Policy original, Policy edited) throws ConfigException {
        return save(path, className, original, edited, FileSave.Steps.NONE);
    }

    /**
     * Writes {@code edited} over {@code original} for {@code className} into the file at {@code path}
     * (through its symbolic links, as {@link FileSave} saves): the old text into {@code .bak} beside it
     * first, then the new text, then the file is read again; if it does not validate, the old text is put
     * back and the problem thrown.
     */
    public static Saved save(Path path, String className, Policy original, Policy edited, FileSave.Steps steps)
            throws ConfigException {
        ConfigTree.Format format = ConfigTree.formatOf(path);
        String file = ConfigTree.displayName(path);
        String before = ConfigTree.readText(path);
        String after = edit(file, before, format, className, original, edited);
        Path target;
        try {
            target = FileSave.target(path);
            FileSave.save(target, before, after, steps);
        } catch (IOException e) {
            throw new ConfigException(new Problem(file, 0, 0, "", "not saved: " + io.headroom.ErrorWords.of(e)));
        }
        try {
            WorkloadsFile.read(path);
        } catch (ConfigException e) {
            try {
                FileSave.replace(target, before);
            } catch (IOException again) {
                e.addSuppressed(again);
            }
            throw e;
        }
        return new Saved(after, target, FileSave.backupOf(target), before);
    }

    /** The file's text with the edit written in; the text is unchanged where nothing changed. */
    public static String edit(String file, String text, ConfigTree.Format format, String className, Policy original,
                              Policy edited) throws ConfigException {
        Map<String, String> values = changes(file, original, edited);
        Map<String, CeilingSpec> caps = ceilingCaps(file, original, edited);
        if (values.isEmpty() && caps.isEmpty()) {
            return text;
        }
        if (format == ConfigTree.Format.JSON) {
            return editJson(file, text, className, values, caps);
        }
        return editYaml(file, text, className, values, caps);
    }

    /** Top-level scalar fields that differ, as the text to write; anything else that differs is refused. */
    static Map<String, String> changes(String file, Policy original, Policy edited) throws ConfigException {
        Map<String, Object> a = PolicyWriter.toMap(original);
        Map<String, Object> b = PolicyWriter.toMap(edited);
        Map<String, String> out = new LinkedHashMap<>();
        List<String> refused = new ArrayList<>();
        java.util.Set<String> keys = new java.util.LinkedHashSet<>(a.keySet());
        keys.addAll(b.keySet());
        for (String k : keys) {
            if (Objects.equals(a.get(k), b.get(k)) || k.equals("ceilings")) {
                continue;
            }
            if (SCALARS.contains(k) && b.get(k) != null) {
                out.put(k, scalar(b.get(k)));
            } else {
                refused.add(k);
            }
        }
        if (!refused.isEmpty()) {
            throw new ConfigException(new Problem(file, 0, 0, "", "cannot write " + String.join(", ", refused)
                    + " into the file from here; use Copy as YAML and edit the file"));
        }
        return out;
    }

    /**
     * Ceilings the edit changes, by name: capped at a number of replicas, or a budget ceiling's budget
     * changed with its per-replica amount kept (written back as a budget, not flattened to replicas);
     * any other ceiling change is refused.
     */
    static Map<String, CeilingSpec> ceilingCaps(String file, Policy original, Policy edited) throws ConfigException {
        Map<String, CeilingSpec> live = new LinkedHashMap<>();
        original.ceilings().forEach(c -> live.put(c.name(), c));
        Map<String, CeilingSpec> caps = new LinkedHashMap<>();
        if (original.ceilings().size() != edited.ceilings().size()) {
            throw new ConfigException(new Problem(file, 0, 0, "", "ceilings were added or removed: edit the file"));
        }
        for (CeilingSpec c : edited.ceilings()) {
            CeilingSpec was = live.get(c.name());
            if (was == null) {
                throw new ConfigException(new Problem(file, 0, 0, "", "ceiling " + c.name() + " is new: edit the file"));
            }
            if (Objects.equals(was, c)) {
                continue;
            }
            boolean budget = !c.dynamic() && !was.dynamic() && c.perReplica().equals(was.perReplica())
                    && Objects.equals(c.conservativeReplicas(), was.conservativeReplicas());
            boolean replicas = !c.dynamic() && c.perReplica().constant() == 1
                    && c.budget().constant() == Math.rint(c.budget().constant());
            if (!budget && !replicas) {
                throw new ConfigException(new Problem(file, 0, 0, "", "ceiling " + c.name()
                        + " changed in a way only the file can say: edit the file"));
            }
            caps.put(c.name(), c);
        }
        return caps;
    }

    /** A ceiling as a flow mapping: {@code {name: tenant, replicas: 6}} or {@code {name: db, budget: 60, perReplica: 6}}. */
    static String flow(CeilingSpec c) {
        if (c.perReplica().constant() == 1) {
            return "{name: " + c.name() + ", replicas: " + scalar(c.budget().constant()) + "}";
        }
        return "{name: " + c.name() + ", budget: " + scalar(c.budget().constant()) + ", perReplica: "
                + scalar(c.perReplica().constant()) + (c.conservativeReplicas() == null ? ""
                : ", conservativeReplicas: " + c.conservativeReplicas()) + "}";
    }

    private static String scalar(Object v) {
        if (v instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) {
            return Long.toString(d.longValue());
        }
        return String.valueOf(v);
    }

    // --- YAML: rewrite values at their place -------------------------------------------------------

    private static String editYaml(String file, String text, String className, Map<String, String> values,
                                   Map<String, CeilingSpec> caps) throws ConfigException {
        Node root;
        try {
            LoaderOptions options = new LoaderOptions();
            options.setCodePointLimit(ConfigTree.MAX_BYTES + 1);
            root = new Yaml(options).compose(new StringReader(text));
        } catch (RuntimeException e) {
            throw new ConfigException(new Problem(file, 1, 0, "", "cannot be read to edit: " + e.getMessage()));
        }
        MappingNode cls = classNode(file, root, className);
        Node policyNode = value(cls, "policy");
        List<Splice> splices = new ArrayList<>();
        if (policyNode == null) {
            // No policy block: one is added after the class's last key, at its keys' indentation.
            int indent = cls.getValue().get(0).getKeyNode().getStartMark().getColumn();
            StringBuilder b = new StringBuilder();
            b.append('\n').append(" ".repeat(indent)).append("policy:");
            values.forEach((k, v) -> b.append('\n').append(" ".repeat(indent + 2)).append(k).append(": ").append(v));
            if (!caps.isEmpty()) {
                throw new ConfigException(new Problem(file, line(cls), 0, "", "class " + className
                        + " has no policy block to hold its ceilings: edit the file"));
            }
            int end = endOfLastValue(cls);
            splices.add(new Splice(end, end, b.toString()));
        } else if (policyNode instanceof MappingNode policy) {
            List<String> missing = new ArrayList<>();
            for (var e : values.entrySet()) {
                Node v = value(policy, e.getKey());
                if (v instanceof ScalarNode s) {
                    splices.add(new Splice(s.getStartMark().getIndex(), s.getEndMark().getIndex(), e.getValue()));
                } else if (v == null) {
                    missing.add(e.getKey());
                } else {
                    throw new ConfigException(new Problem(file, line(v), 0, "", "policy." + e.getKey()
                            + " is not a plain value here: edit the file"));
                }
            }
            if (!missing.isEmpty()) {
                splices.add(insertion(policy, missing, values));
            }
            if (!caps.isEmpty()) {
                Node ceilings = value(policy, "ceilings");
                if (!(ceilings instanceof SequenceNode seq)) {
                    throw new ConfigException(new Problem(file, line(policy), 0, "", "no ceilings list in the policy of "
                            + className + ": edit the file"));
                }
                for (var cap : caps.entrySet()) {
                    Node item = seq.getValue().stream().filter(n -> n instanceof MappingNode m
                            && value(m, "name") instanceof ScalarNode s && s.getValue().equals(cap.getKey()))
                            .findFirst().orElseThrow(() -> new IllegalStateException("ceiling " + cap.getKey()));
                    MappingNode m = (MappingNode) item;
                    int end = m.getFlowStyle() == org.yaml.snakeyaml.DumperOptions.FlowStyle.FLOW
                            ? m.getEndMark().getIndex() : endOfLastValue(m);
                    splices.add(new Splice(item.getStartMark().getIndex(), end, flow(cap.getValue())));
                }
            }
        } else {
            throw new ConfigException(new Problem(file, line(policyNode), 0, "", "the policy of " + className
                    + " is not a mapping"));
        }
        StringBuilder out = new StringBuilder(text);
        splices.sort(Comparator.comparingInt(Splice::start).reversed());
        for (Splice s : splices) {
            out.replace(s.start(), s.end(), s.text());
        }
        return out.toString();
    }

    /** New keys after the policy's last one: a new line at the keys' indentation, or inside its braces. */
    private static Splice insertion(MappingNode policy, List<String> keys, Map<String, String> values) {
        int end = endOfLastValue(policy);
        StringBuilder b = new StringBuilder();
        if (policy.getFlowStyle() == org.yaml.snakeyaml.DumperOptions.FlowStyle.FLOW) {
            for (String k : keys) {
                b.append(", ").append(k).append(": ").append(values.get(k));
            }
        } else {
            int indent = policy.getValue().get(0).getKeyNode().getStartMark().getColumn();
            for (String k : keys) {
                b.append('\n').append(" ".repeat(indent)).append(k).append(": ").append(values.get(k));
            }
        }
        return new Splice(end, end, b.toString());
    }

    /** Where the mapping's last value ends in the text (before any trailing comment or line break). */
    private static int endOfLastValue(MappingNode m) {
        Node last = m.getValue().get(m.getValue().size() - 1).getValueNode();
        if (last instanceof MappingNode inner && !inner.getValue().isEmpty()
                && inner.getFlowStyle() != org.yaml.snakeyaml.DumperOptions.FlowStyle.FLOW) {
            return endOfLastValue(inner);
        }
        if (last instanceof SequenceNode seq && !seq.getValue().isEmpty()
                && seq.getFlowStyle() != org.yaml.snakeyaml.DumperOptions.FlowStyle.FLOW) {
            Node item = seq.getValue().get(seq.getValue().size() - 1);
            return item instanceof MappingNode im && !im.getValue().isEmpty()
                    && im.getFlowStyle() != org.yaml.snakeyaml.DumperOptions.FlowStyle.FLOW
                    ? endOfLastValue(im) : item.getEndMark().getIndex();
        }
        return last.getEndMark().getIndex();
    }

    private static MappingNode classNode(String file, Node root, String className) throws ConfigException {
        if (root instanceof MappingNode m && value(m, "classes") instanceof SequenceNode classes) {
            for (Node n : classes.getValue()) {
                if (n instanceof MappingNode c && value(c, "name") instanceof ScalarNode s
                        && s.getValue().equals(className)) {
                    return c;
                }
            }
        }
        throw new ConfigException(new Problem(file, 1, 0, "", "no class named " + className + " in the file"));
    }

    private static Node value(MappingNode m, String key) {
        for (NodeTuple t : m.getValue()) {
            if (t.getKeyNode() instanceof ScalarNode k && k.getValue().equals(key)) {
                return t.getValueNode();
            }
        }
        return null;
    }

    private static int line(Node n) {
        return n.getStartMark().getLine() + 1;
    }

    // --- JSON: no comments to keep; the tree is edited and written back ------------------------------

    private static String editJson(String file, String text, String className, Map<String, String> values,
                                   Map<String, CeilingSpec> caps) throws ConfigException {
        tools.jackson.databind.ObjectMapper json = tools.jackson.databind.json.JsonMapper.builder().configureForJackson2().build();
        tools.jackson.databind.JsonNode root;
        try {
            root = json.readTree(text);
        } catch (tools.jackson.core.JacksonException e) {
            throw new ConfigException(new Problem(file, 1, 0, "", "cannot be read to edit: " + e.getMessage()));
        }
        tools.jackson.databind.node.ObjectNode cls = null;
        for (tools.jackson.databind.JsonNode c : root.path("classes")) {
            if (c.isObject() && className.equals(c.path("name").asString(null))) {
                cls = (tools.jackson.databind.node.ObjectNode) c;
            }
        }
        if (cls == null) {
            throw new ConfigException(new Problem(file, 1, 0, "", "no class named " + className + " in the file"));
        }
        tools.jackson.databind.node.ObjectNode policy = cls.has("policy") && cls.get("policy").isObject()
                ? (tools.jackson.databind.node.ObjectNode) cls.get("policy") : cls.putObject("policy");
        for (var e : values.entrySet()) {
            try {
                policy.set(e.getKey(), json.readTree(e.getValue()));
            } catch (tools.jackson.core.JacksonException notJson) {
                policy.put(e.getKey(), e.getValue()); // a time zone: a string
            }
        }
        for (var cap : caps.entrySet()) {
            for (tools.jackson.databind.JsonNode c : policy.path("ceilings")) {
                if (c.isObject() && cap.getKey().equals(c.path("name").asString(null))) {
                    tools.jackson.databind.node.ObjectNode o = (tools.jackson.databind.node.ObjectNode) c;
                    o.removeAll();
                    o.put("name", cap.getKey());
                    CeilingSpec spec = cap.getValue();
                    if (spec.perReplica().constant() == 1) {
                        o.put("replicas", (long) spec.budget().constant());
                    } else {
                        o.put("budget", spec.budget().constant());
                        o.put("perReplica", spec.perReplica().constant());
                        if (spec.conservativeReplicas() != null) {
                            o.put("conservativeReplicas", spec.conservativeReplicas());
                        }
                    }
                }
            }
        }
        try {
            return json.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n";
        } catch (tools.jackson.core.JacksonException e) {
            throw new ConfigException(new Problem(file, 1, 0, "", "cannot be written: " + e.getMessage()));
        }
    }
}
