package io.headroom.cli;

import io.headroom.BuildInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The manual page {@code headroom(1)}, generated from the model that parses the command line (as the
 * completion scripts are), so a new command or option is documented without editing a page. The build
 * runs {@link #main} in {@code package}: {@code target/man/headroom.1}; {@code packaging/build} ships it
 * gzipped under {@code /usr/share/man/man1}.
 */
public final class ManPage {
    private ManPage() {
    }

    /** @param args the directory to write into */
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ManPage DIRECTORY");
            System.exit(ExitCode.USAGE);
        }
        Path dir = Files.createDirectories(Path.of(args[0]));
        Files.writeString(dir.resolve(Completion.COMMAND + ".1"), page(), StandardCharsets.UTF_8);
    }

    /** The page in roff (man macros). */
    static String page() {
        PrintStream none = new PrintStream(PrintStream.nullOutputStream(), false, StandardCharsets.UTF_8);
        CommandLine root = Cli.commandLine(InputStream.nullInputStream(), none, none);
        BuildInfo build = BuildInfo.current();
        String date = build.time().length() >= 10 ? build.time().substring(0, 10) : "";
        StringBuilder sb = new StringBuilder();
        sb.append(".TH HEADROOM 1 \"").append(date).append("\" \"headroom ").append(text(build.version()))
                .append("\" \"User Commands\"\n");
        sb.append(".SH NAME\nheadroom \\- ").append(text(String.join(" ", root.getCommandSpec().usageMessage().header())))
                .append('\n');
        sb.append(".SH SYNOPSIS\n.nf\n").append(text(Cli.usage().stripTrailing())).append("\n.fi\n");
        sb.append(".SH DESCRIPTION\n")
                .append("Without a command, or with \\fBconsole\\fR, \\fBheadroom\\fR opens the console: the workloads ")
                .append("file given or chosen in Settings, else the built-in sandbox. The commands below run without ")
                .append("a display. Example scenarios and workloads files are in \\fI")
                .append(text(BuildInfo.examples())).append("\\fR.\n");
        sb.append(".SH COMMANDS\n");
        for (CommandLine sub : root.getSubcommands().values()) {
            String name = sub.getCommandName();
            if (List.of("help", "version", "console").contains(name)) {
                continue;
            }
            sb.append(".SS ").append(text(name)).append('\n');
            sb.append(".nf\n").append(text(sub.getHelp().synopsis(0).stripTrailing())).append("\n.fi\n");
            for (String line : sub.getCommandSpec().usageMessage().description()) {
                sb.append(".PP\n").append(text(interpolated(line)))
                        .append('\n');
            }
            for (OptionSpec o : sub.getCommandSpec().options()) {
                if (o.hidden()) {
                    continue;
                }
                sb.append(".TP\n\\fB").append(text(String.join(", ", o.names()))).append("\\fR");
                if (o.arity().max() > 0) {
                    sb.append(' ').append(text(o.paramLabel()));
                }
                sb.append('\n').append(text(String.join(" ", o.description()))).append('\n');
            }
        }
        sb.append(".SH EXIT STATUS\n0 done; 1 failed (said on standard error); 2 a usage error.\n");
        sb.append(".SH SEE ALSO\n\\fBheadroom help\\fR \\fICOMMAND\\fR, https://headroom.dev\n");
        return sb.toString();
    }

    /** A description line with picocli's system-property variables ({@code ${sys:NAME:-DEFAULT}}) resolved. */
    static String interpolated(String line) {
        return java.util.regex.Pattern.compile("\\$\\{sys:([^:}]+):-([^}]*)}").matcher(line)
                .replaceAll(m -> java.util.regex.Matcher.quoteReplacement(System.getProperty(m.group(1), m.group(2))));
    }

    /**
     * Text as roff reads it: backslashes escaped, a leading dot or quote made literal, hyphens as minus signs,
     * characters beyond ASCII named.
     */
    static String text(String s) {
        StringBuilder sb = new StringBuilder();
        for (String line : s.replace("\\", "\\e").replace("-", "\\-").split("\n", -1)) {
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append(line.startsWith(".") || line.startsWith("'") ? "\\&" + line : line);
        }
        // Beyond ASCII (→, …, —) as groff's named Unicode characters: a page is read without preconv too.
        StringBuilder out = new StringBuilder(sb.length());
        sb.toString().codePoints().forEach(c -> out.append(c < 128 ? Character.toString(c)
                : String.format(java.util.Locale.ROOT, "\\[u%04X]", c)));
        return out.toString();
    }
}
