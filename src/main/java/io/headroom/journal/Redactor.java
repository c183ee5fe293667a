package io.headroom.journal;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Defence in depth for free text going into the journal: an operator's reason or an error
 * message could carry a credential. The secrets the console has loaded go first, as they are, whatever
 * words surround them (an API server may quote the token it was sent); then each rule is one shape a secret takes in text (a header, a
 * key/value pair in JSON, YAML, a query string or a command line, a URL's password, a PEM key, a
 * token with a known prefix); the secret is replaced by {@link #MASK}, the words around it stay.
 * Quantifiers are bounded, so a long hostile string cannot make a rule backtrack for ever.
 */
public final class Redactor {
    public static final String MASK = io.headroom.LoadedSecrets.MASK;

    /** Parts of a key name that say its value is a secret ("access_token", "clientSecret", "client-key-data"). */
    private static final String SECRET_WORD = "(?:token|secret|passw(?:or)?d|pwd|passphrase|api[-_]?key|apikey"
            + "|access[-_]?key|private[-_]?key|key[-_]?data|credentials?|session[-_]?id)";
    private static final String KEY = "\\b[\\w.-]{0,40}?" + SECRET_WORD + "[\\w.-]{0,40}";

    private record Rule(Pattern pattern, String replacement) {
        Rule(String regex, String replacement) {
            this(Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.DOTALL), replacement);
        }
    }

    private static final List<Rule> RULES = List.of(
            // A PEM private key, to its END line (or to the end of the text when it was cut).
            new Rule("-----BEGIN ([A-Z0-9 ]{0,30})PRIVATE KEY-----.*?(?:-----END \\1PRIVATE KEY-----|\\z)", MASK),
            // scheme://user:password@host
            new Rule("\\b([a-z][a-z0-9+.-]{0,20}://[^\\s/:@]{1,256}:)[^\\s@/]{1,256}@", "$1" + MASK + "@"),
            // Authorization: <scheme> <credentials> (the scheme goes too: "Basic" alone would say little)
            new Rule("\\b((?:proxy-)?authorization\\s*[:=]\\s*)(?:[a-z0-9-]{1,30}[ \\t]+)?[^\\s\"',;]{1,4096}",
                    "$1" + MASK),
            // Cookie: a=b; c=d (every pair)
            new Rule("\\b((?:set-)?cookie\\s*:\\s*)[^\\r\\n\"]{1,4096}", "$1" + MASK),
            // "key": "value" and key: 'value' (JSON, YAML): the quoted value, spaces and all
            new Rule("(" + KEY + "[\"']?\\s*[:=]\\s*)\"[^\"\\r\\n]{0,4096}\"", "$1\"" + MASK + "\""),
            new Rule("(" + KEY + "[\"']?\\s*[:=]\\s*)'[^'\\r\\n]{0,4096}'", "$1'" + MASK + "'"),
            // key=value, key: value (env, YAML, query strings): up to a space, quote, comma, semicolon or &
            new Rule("(" + KEY + "\\s*[:=]\\s*)[^\\s\"',;&]{1,4096}", "$1" + MASK),
            // --password value, -token value
            new Rule("(--?[\\w-]{0,30}?(?:passw(?:or)?d|token|secret|api-?key)[ \\t]+)(?!-)[^\\s\"']{1,4096}",
                    "$1" + MASK),
            new Rule("(bearer\\s+)[a-z0-9._~+/=-]{8,4096}", "$1" + MASK),
            // A JWT anywhere (service-account tokens, OIDC id-tokens)
            new Rule("eyJ[A-Za-z0-9_-]{5,4096}\\.[A-Za-z0-9_-]{5,4096}\\.[A-Za-z0-9_-]{0,4096}", MASK),
            // Tokens with a known prefix: GitHub, GitLab, Slack, OpenShift, AWS key ids, Google API keys, OpenAI
            new Rule("\\b(?:gh[pousr]_[A-Za-z0-9]{20,255}|github_pat_[A-Za-z0-9_]{20,255}|glpat-[A-Za-z0-9_-]{20,255}"
                    + "|xox[abposr]-[A-Za-z0-9-]{10,255}|sha256~[A-Za-z0-9_-]{20,255}|(?:AKIA|ASIA)[0-9A-Z]{16}"
                    + "|AIza[0-9A-Za-z_-]{35}|sk-[A-Za-z0-9]{20,255})\\b", MASK));

    private Redactor() {
    }

    /**
     * {@code s} with every secret the console has loaded ({@link io.headroom.LoadedSecrets}) and every
     * secret shape replaced by {@link #MASK}; null stays null.
     */
    public static String redact(String s) {
        if (s == null || s.isEmpty()) {
            return s;
        }
        String out = io.headroom.LoadedSecrets.redact(s);
        for (Rule r : RULES) {
            Matcher m = r.pattern().matcher(out);
            if (m.find()) {
                out = m.replaceAll(r.replacement());
            }
        }
        return out;
    }
}
