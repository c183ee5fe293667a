package io.headroom.whatif;

import io.headroom.config.FloorText;
import io.headroom.config.PolicyReader;
import io.headroom.decision.CeilingSpec;
import io.headroom.decision.Policy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The edits of a what-if as the operator types them (text per field), checked field by field with a
 * plain message for each, and the edited policy they make. The What-if window and
 * {@code headroom whatif --set} both go through here, so a value one refuses the other refuses too,
 * with the same words, and nothing is clamped: 1.5 for a utilization is refused, not made 1.
 *
 * <p>A ceiling's edit is in the ceiling's own units: a replica ceiling takes replicas, a budget
 * ceiling ({@code budget / perReplica}) takes the budget (connections, say) and keeps its per-replica
 * amount, so an exported edit is still a budget. A ceiling read from a signal can only be capped at
 * a number of replicas.
 */
public final class PolicyEdit {

    private PolicyEdit() {
    }

    /** An editable field: its key (as in the workloads file and {@code --set}), its label and its unit. */
    public enum Field {
        TARGET_UTILIZATION("targetUtilization", "Target utilization", "of slots, 0–1"),
        SLOTS_PER_REPLICA("slotsPerReplica", "Slots per replica", "jobs / replica"),
        DRAIN_TARGET_SECONDS("drainTargetSeconds", "Drain target", "s"),
        MAX_AGE_SECONDS("maxAgeSeconds", "Age objective", "s"),
        MIN_REPLICAS("minReplicas", "Min replicas", "replicas"),
        MAX_REPLICAS("maxReplicas", "Max replicas", "replicas"),
        SCHEDULED_FLOORS("scheduledFloors", "Scheduled floors", "days HH:MM–HH:MM → replicas; …");

        private final String key;
        private final String label;
        private final String unit;

        Field(String key, String label, String unit) {
            this.key = key;
            this.label = label;
            this.unit = unit;
        }

        public String key() {
            return key;
        }

        public String label() {
            return label;
        }

        public String unit() {
            return unit;
        }

        /** The field of a {@code --set} key, or null. */
        public static Field ofKey(String key) {
            for (Field f : values()) {
                if (f.key.equals(key)) {
                    return f;
                }
            }
            return null;
        }

        /** The live policy's value as the field shows it (blank for no age objective). */
        public String text(Policy p) {
            return switch (this) {
                case TARGET_UTILIZATION -> exact(p.targetUtilization());
                case SLOTS_PER_REPLICA -> Integer.toString(p.slotsPerReplica());
                case DRAIN_TARGET_SECONDS -> exact(p.drainTargetSeconds());
                case MAX_AGE_SECONDS -> p.maxAgeSeconds() == null ? "" : exact(p.maxAgeSeconds());
                case MIN_REPLICAS -> Integer.toString(p.minReplicas());
                case MAX_REPLICAS -> Integer.toString(p.maxReplicas());
                case SCHEDULED_FLOORS -> FloorText.format(p.scheduledFloors());
            };
        }

        /**
         * What is wrong with {@code text} for this field on its own, in plain words; null when it is
         * a valid value.
         */
        public String problem(String text) {
            String v = text == null ? "" : text.trim();
            switch (this) {
                case TARGET_UTILIZATION -> {
                    Double d = number(v);
                    if (d == null) {
                        return notNumber(v, "a share of the slots, such as 0.7");
                    }
                    if (d > 1) {
                        return "is more than 1: the target is a share of the slots (1 = every slot busy)";
                    }
                    if (d < PolicyReader.MIN_TARGET_UTILIZATION) {
                        return "is less than " + ComparisonTable.num(PolicyReader.MIN_TARGET_UTILIZATION)
                                + ": the target is a share of the slots, more than 0";
                    }
                    return null;
                }
                case SLOTS_PER_REPLICA -> {
                    return whole(v, 1, PolicyReader.MAX_SLOTS_PER_REPLICA);
                }
                case DRAIN_TARGET_SECONDS -> {
                    return positive(v, PolicyReader.DAY_SECONDS, "seconds");
                }
                case MAX_AGE_SECONDS -> {
                    return v.isEmpty() ? null : positive(v, PolicyReader.MAX_AGE_SECONDS, "seconds (blank for none)");
                }
                case MIN_REPLICAS -> {
                    return whole(v, 0, PolicyReader.MAX_REPLICAS);
                }
                case MAX_REPLICAS -> {
                    return whole(v, 1, PolicyReader.MAX_REPLICAS);
                }
                case SCHEDULED_FLOORS -> {
                    try {
                        FloorText.parse(v);
                        return null;
                    } catch (IllegalArgumentException e) {
                        return e.getMessage();
                    }
                }
                default -> throw new IllegalStateException(name());
            }
        }

        void apply(Policy.Builder b, String text) {
            String v = text == null ? "" : text.trim();
            switch (this) {
                case TARGET_UTILIZATION -> b.targetUtilization(Double.parseDouble(v));
                case SLOTS_PER_REPLICA -> b.slotsPerReplica(Integer.parseInt(v));
                case DRAIN_TARGET_SECONDS -> b.drainTargetSeconds(Double.parseDouble(v));
                case MAX_AGE_SECONDS -> b.maxAgeSeconds(v.isEmpty() || v.equalsIgnoreCase("none") ? null
                        : Double.valueOf(v));
                case MIN_REPLICAS -> b.minReplicas(Integer.parseInt(v));
                case MAX_REPLICAS -> b.maxReplicas(Integer.parseInt(v));
                case SCHEDULED_FLOORS -> b.scheduledFloors(FloorText.parse(v));
                default -> throw new IllegalStateException(name());
            }
        }
    }

    /** How a ceiling is edited: in replicas, or as its budget with the per-replica amount kept. */
    public enum CeilingKind { REPLICAS, BUDGET, SIGNAL }

    public static CeilingKind kind(CeilingSpec c) {
        return c.dynamic() ? CeilingKind.SIGNAL : c.perReplica().constant() == 1 ? CeilingKind.REPLICAS
                : CeilingKind.BUDGET;
    }

    /**
     * The unit of a ceiling's edit: "replicas", or the budget's unit read from the ceiling's name
     * (db-connections → "connections") with the per-replica amount, e.g. "connections (6 per replica)".
     */
    public static String unit(CeilingSpec c) {
        if (kind(c) != CeilingKind.BUDGET) {
            return "replicas";
        }
        String[] words = c.name().split("[-_. ]");
        String last = words[words.length - 1].toLowerCase(Locale.ROOT);
        String unit = last.length() > 2 && last.endsWith("s") && !last.equals("replicas") ? last : "budget";
        return unit + " (" + ComparisonTable.num(c.perReplica().constant()) + " per replica)";
    }

    /** The live value of a ceiling's edit: its replicas, its budget, or its conservative replicas. */
    public static String text(CeilingSpec c) {
        return switch (kind(c)) {
            case REPLICAS, BUDGET -> exact(c.budget().constant());
            case SIGNAL -> "";
        };
    }

    /** What is wrong with a ceiling's edit, or null (blank keeps the live ceiling). */
    public static String problem(CeilingSpec c, String text) {
        String v = text == null ? "" : text.trim();
        if (v.isEmpty()) {
            return null;
        }
        return kind(c) == CeilingKind.BUDGET ? positive(v, PolicyReader.MAX_AMOUNT, "a budget")
                : whole(v, 1, PolicyReader.MAX_REPLICAS);
    }

    /** The ceiling with the edit (blank: the live one). Call after {@link #problem(CeilingSpec, String)} is null. */
    public static CeilingSpec apply(CeilingSpec c, String text) {
        String v = text == null ? "" : text.trim();
        if (v.isEmpty()) {
            return c;
        }
        if (kind(c) == CeilingKind.BUDGET) {
            double budget = Double.parseDouble(v);
            return budget == c.budget().constant() ? c
                    : new CeilingSpec(c.name(), CeilingSpec.Source.constant(budget), c.perReplica(),
                    c.conservativeReplicas());
        }
        int replicas = Integer.parseInt(v);
        return kind(c) == CeilingKind.REPLICAS && replicas == c.budget().constant() ? c
                : CeilingSpec.replicas(c.name(), replicas);
    }

    /**
     * A ceiling as an expression an operator reads: "6 replicas", "floor(40 connections / 6 per
     * replica) = 6 replicas", or "from SIGNAL (conservatively 4 replicas)".
     */
    public static String expression(CeilingSpec c) {
        return switch (kind(c)) {
            case REPLICAS -> ComparisonTable.num(c.budget().constant()) + " replicas";
            case BUDGET -> {
                String unit = unit(c);
                String what = unit.substring(0, unit.indexOf(" ("));
                yield "floor(" + ComparisonTable.num(c.budget().constant()) + " " + what + " / "
                        + ComparisonTable.num(c.perReplica().constant()) + " per replica) = "
                        + (long) Math.floor(c.budget().constant() / c.perReplica().constant()) + " replicas";
            }
            case SIGNAL -> "from " + (c.budget().signal() != null ? c.budget().signal() : c.perReplica().signal())
                    + (c.conservativeReplicas() == null ? "" : " (conservatively " + c.conservativeReplicas()
                    + " replicas)");
        };
    }

    /**
     * Problems across fields (min above max), by field; empty when the fields agree. Only fields
     * that are valid alone are compared.
     */
    public static Map<Field, String> crossProblems(Map<Field, String> texts, Policy current) {
        Map<Field, String> out = new LinkedHashMap<>();
        String minText = texts.getOrDefault(Field.MIN_REPLICAS, Field.MIN_REPLICAS.text(current));
        String maxText = texts.getOrDefault(Field.MAX_REPLICAS, Field.MAX_REPLICAS.text(current));
        if (Field.MIN_REPLICAS.problem(minText) == null && Field.MAX_REPLICAS.problem(maxText) == null) {
            int min = Integer.parseInt(minText.trim());
            int max = Integer.parseInt(maxText.trim());
            if (min > max) {
                out.put(Field.MIN_REPLICAS, "is above max replicas (" + max + ")");
                out.put(Field.MAX_REPLICAS, "is below min replicas (" + min + ")");
            }
        }
        return out;
    }

    /**
     * The live policy with the edits. {@code fields} holds text per field (absent: live);
     * {@code ceilings} text per ceiling name (absent or blank: live).
     *
     * @throws IllegalArgumentException "FIELD: problem" for the first field that is wrong
     */
    public static Policy apply(Policy current, Map<Field, String> fields, Map<String, String> ceilings) {
        Policy.Builder b = current.toBuilder();
        for (Map.Entry<Field, String> e : fields.entrySet()) {
            String problem = e.getKey().problem(e.getValue());
            if (problem != null) {
                throw new IllegalArgumentException(e.getKey().key() + ": '" + e.getValue().trim() + "' " + problem);
            }
            e.getKey().apply(b, e.getValue());
        }
        Map<Field, String> cross = crossProblems(fields, current);
        if (!cross.isEmpty()) {
            Map.Entry<Field, String> first = cross.entrySet().iterator().next();
            String text = fields.getOrDefault(first.getKey(), first.getKey().text(current)).trim();
            throw new IllegalArgumentException(first.getKey().key() + ": '" + text + "' " + first.getValue());
        }
        List<CeilingSpec> out = new ArrayList<>();
        for (CeilingSpec c : current.ceilings()) {
            String v = ceilings.get(c.name());
            String problem = problem(c, v);
            if (problem != null) {
                throw new IllegalArgumentException("ceiling " + c.name() + ": '" + v.trim() + "' " + problem);
            }
            out.add(apply(c, v));
        }
        for (String name : ceilings.keySet()) {
            if (current.ceilings().stream().noneMatch(c -> c.name().equals(name))) {
                throw new IllegalArgumentException("the class has no ceiling '" + name + "'"
                        + (current.ceilings().isEmpty() ? "" : "; its ceilings: " + String.join(", ",
                        current.ceilings().stream().map(CeilingSpec::name).toList())));
            }
        }
        return b.ceilings(out).build();
    }

    /** A value as text that reads back to the same double: "0.725", "30", never rounded for show. */
    static String exact(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
    }

    private static Double number(String v) {
        try {
            double d = Double.parseDouble(v);
            return Double.isFinite(d) && !v.endsWith("d") && !v.endsWith("f") && !v.endsWith("D")
                    && !v.endsWith("F") ? d : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String notNumber(String v, String wanted) {
        return v.isEmpty() ? "is needed: " + wanted : "is not a number: " + wanted;
    }

    private static String positive(String v, double max, String what) {
        Double d = number(v);
        if (d == null) {
            return notNumber(v, "a number of " + what);
        }
        if (d <= 0) {
            return "must be more than 0";
        }
        if (d > max) {
            return "is more than " + ComparisonTable.num(max);
        }
        return null;
    }

    private static String whole(String v, int min, int max) {
        if (v.isEmpty()) {
            return "is needed: a whole number from " + min;
        }
        try {
            long n = Long.parseLong(v);
            if (n < min) {
                return min == 0 ? "cannot be negative" : "must be at least " + min;
            }
            return n > max ? "is more than " + max : null;
        } catch (NumberFormatException e) {
            return "is not a whole number (" + min + " to " + max + ")";
        }
    }
}
