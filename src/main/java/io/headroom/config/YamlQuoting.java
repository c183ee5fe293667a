package io.headroom.config;

import java.util.regex.Pattern;
import tools.jackson.dataformat.yaml.YAMLFactory;
import tools.jackson.dataformat.yaml.util.StringQuotingChecker;

/**
 * Which strings the YAML we write quotes: Jackson 3's rules plus the YAML 1.1 numbers Jackson 2 also quoted
 * ({@code 0x1F}, {@code 1_000}, {@code 0b101}), so that kubectl and KEDA, which read YAML 1.1, still read
 * such a string as a string.
 */
public final class YamlQuoting extends StringQuotingChecker.Default {
    private static final long serialVersionUID = 1L;
    private static final Pattern YAML11_NUMBER = Pattern.compile(
            "[-+]?(0x[0-9a-fA-F_]+|0b[01_]+|[0-9][0-9_]*_[0-9_]*(\\.[0-9_]*)?([eE][-+]?[0-9]+)?)");

    /** The one checker for every YAML writer. */
    public static final YamlQuoting INSTANCE = new YamlQuoting();

    private YamlQuoting() {
    }

    /** A YAML factory that quotes by these rules. */
    public static YAMLFactory factory() {
        return YAMLFactory.builder().stringQuotingChecker(INSTANCE).build();
    }

    @Override
    public boolean needToQuoteValue(String value) {
        return super.needToQuoteValue(value) || YAML11_NUMBER.matcher(value).matches();
    }
}
