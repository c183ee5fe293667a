package io.headroom.kube;

import java.util.List;
import java.util.Map;

/** Reading nested fields of generic (untyped) resources such as KEDA's ScaledObject. */
final class Maps {
    private Maps() {
    }

    static Object at(Object root, String... path) {
        Object cur = root;
        for (String p : path) {
            if (!(cur instanceof Map<?, ?> m)) {
                return null;
            }
            cur = m.get(p);
        }
        return cur;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object root, String... path) {
        Object o = at(root, path);
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    static List<?> list(Object root, String... path) {
        Object o = at(root, path);
        return o instanceof List<?> l ? l : List.of();
    }

    static String string(Object root, String... path) {
        Object o = at(root, path);
        return o == null ? null : String.valueOf(o);
    }

    /** An integer field; KEDA users write numbers as strings too. */
    static Integer integer(Object root, String... path) {
        Object o = at(root, path);
        if (o instanceof Number n) {
            return n.intValue();
        }
        if (o instanceof String s && !s.isBlank()) {
            try {
                return Integer.parseInt(s.trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }
}
