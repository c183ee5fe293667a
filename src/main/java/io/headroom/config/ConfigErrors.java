package io.headroom.config;

import io.headroom.config.ConfigException.Problem;
import java.util.ArrayList;
import java.util.List;

/** Collects located problems so one read reports all of them, not just the first. */
public final class ConfigErrors {

    private final List<Problem> problems = new ArrayList<>();

    /** A problem with the node itself. */
    public void add(ConfigNode at, String message) {
        problems.add(new Problem(at.file(), at.line(), at.column(), at.path(), message));
    }

    /** A problem with a field of a mapping, located at the key (or at the mapping when the field is absent). */
    public void addField(ConfigNode.MapNode map, String key, String message) {
        problems.add(new Problem(map.file(), map.keyLine(key), map.keyColumn(key), map.childPath(key), message));
    }

    public void add(String file, int line, int column, String path, String message) {
        problems.add(new Problem(file, line, column, path, message));
    }

    public int count() {
        return problems.size();
    }

    public boolean isEmpty() {
        return problems.isEmpty();
    }

    public List<Problem> problems() {
        return List.copyOf(problems);
    }

    public void throwIfAny() throws ConfigException {
        if (!problems.isEmpty()) {
            throw new ConfigException(problems);
        }
    }
}
