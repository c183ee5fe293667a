package io.headroom.config;

import java.util.List;
import java.util.stream.Collectors;

/**
 * A config file that cannot be used, with every problem found in it, each located as
 * {@code FILE:LINE: path.to.field: message}. Checked, because a bad file is an expected outcome
 * the caller must show to the operator.
 */
public final class ConfigException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient List<Problem> problems;

    public ConfigException(List<Problem> problems) {
        super(format(problems));
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a ConfigException needs at least one problem");
        }
        this.problems = List.copyOf(problems);
    }

    public ConfigException(Problem problem) {
        this(List.of(problem));
    }

    /** Every problem, in file order of discovery. */
    public List<Problem> problems() {
        return problems;
    }

    /** The first problem (there is always one). */
    public Problem first() {
        return problems.get(0);
    }

    private static String format(List<Problem> problems) {
        return problems.stream().map(Problem::toString).collect(Collectors.joining("\n"));
    }

    /**
     * One located problem.
     *
     * @param line   1-based, or 0 when unknown
     * @param column 1-based, or 0 when unknown
     * @param path   dotted path with list indices (e.g. {@code classes[0].policy.targetUtilization}); empty for the whole file
     */
    public record Problem(String file, int line, int column, String path, String message) {
        /** The longest message kept; a problem is one line of plain text whatever it quotes. */
        static final int MAX_MESSAGE = 1000;

        public Problem {
            // A file name, a path or a quoted value may come from anywhere: nothing here may drive a terminal.
            file = UntrustedText.line(file, 300);
            path = path == null ? "" : UntrustedText.line(path, 300);
            message = UntrustedText.line(message, MAX_MESSAGE);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(file);
            if (line > 0) {
                sb.append(':').append(line);
            }
            sb.append(": ");
            if (path != null && !path.isEmpty()) {
                sb.append(path).append(": ");
            }
            return sb.append(message).toString();
        }
    }
}
