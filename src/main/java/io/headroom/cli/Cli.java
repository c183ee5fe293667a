package io.headroom.cli;

import io.headroom.BuildInfo;
import io.headroom.config.UntrustedText;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The command line's subcommands, parsed by picocli: one {@code @Command} per subcommand, its usage errors
 * said as {@code headroom CMD: …} with exit code 2, its help and the completion scripts generated from the
 * same model. Whether the arguments open the console instead is {@link #opensConsole};
 * {@code io.headroom.Main} decides, so nothing here links JavaFX.
 */
public final class Cli {

    private Cli() {
    }

    /** True for the console: no arguments, {@code console [options]}, or console options alone ({@code --speed=10}). */
    public static boolean opensConsole(String[] argv) {
        return argv.length == 0 || argv[0].equals("console")
                || argv[0].startsWith("--") && !argv[0].equals("--help") && !argv[0].equals("--version");
    }

    /** The console's options that take a value: each may be given {@code --config=F} or {@code --config F}. */
    static final List<String> CONSOLE_VALUE_OPTIONS = List.of("--speed", "--seed", "--operator", "--journal",
            "--settings", "--config", "--sandbox");

    /**
     * The console's options, without the {@code console} word, each as {@code --name=value}: a value given
     * as the next argument ({@code --config bad.yaml}, as {@code plan} and the other commands accept) is
     * joined to its option. An option without its value stays as given (and is refused, named).
     */
    public static String[] consoleOptions(String[] argv) {
        String[] given = argv.length > 0 && argv[0].equals("console") ? Arrays.copyOfRange(argv, 1, argv.length) : argv;
        List<String> out = new ArrayList<>();
        for (int i = 0; i < given.length; i++) {
            String a = given[i];
            if (CONSOLE_VALUE_OPTIONS.contains(a) && i + 1 < given.length && !given[i + 1].startsWith("--")) {
                out.add(a + "=" + given[++i]);
            } else {
                out.add(a);
            }
        }
        return out.toArray(String[]::new);
    }

    /** Checks the console's options before any window opens: null when fine, else the message to print. */
    public static String consoleUsageError(String[] argv) {
        String problem = consoleArgumentProblem(Arrays.asList(consoleOptions(argv)));
        return problem == null ? null : "headroom: " + UntrustedText.line(problem, 1000) + "\n" + usage();
    }

    /** Runs a subcommand and returns its exit code (the console is not one: see {@link #opensConsole}). */
    public static int run(String[] argv, PrintStream out, PrintStream err) {
        return run(argv, System.in, out, err);
    }

    /** @param in answers a command's questions (export-keda --apply asks before writing) */
    public static int run(String[] argv, InputStream in, PrintStream out, PrintStream err) {
        if (opensConsole(argv)) {
            String problem = consoleUsageError(argv);
            err.println(problem != null ? problem : "headroom: the console opens from the launcher (io.headroom.Main)\n"
                    + usage());
            return ExitCode.USAGE;
        }
        return execute(commandLine(in, out, err), argv);
    }

    private static int execute(CommandLine root, String[] argv) {
        try {
            return root.execute(argv);
        } finally {
            root.getOut().flush();
            root.getErr().flush();
        }
    }

    /**
     * Runs one subcommand given as an object (tests inject its clock, environment, history source):
     * parsed, checked and reported exactly as {@code headroom NAME args…}.
     */
    static int execute(CliCommand command, List<String> args, InputStream in, PrintStream out, PrintStream err) {
        String[] argv = new String[args.size() + 1];
        argv[0] = new CommandLine(command).getCommandName();
        for (int i = 0; i < args.size(); i++) {
            argv[i + 1] = args.get(i);
        }
        return execute(commandLine(in, out, err, command), argv);
    }

    /** The whole command line: what runs it, what prints its help and what the completion scripts describe. */
    static CommandLine commandLine(InputStream in, PrintStream out, PrintStream err, CliCommand... replacing) {
        List<CliCommand> commands = new ArrayList<>(List.of(new SimulateCommand(), new PlanCommand(),
                new WhatIfCommand(), new ImportCommand(), new ExportCommand(), new ContextsCommand(), new ExporterCommand(),
                new VersionCommand()));
        for (CliCommand r : replacing) {
            commands.replaceAll(c -> c.getClass() == r.getClass() ? r : c);
        }
        CommandLine root = new CommandLine(new Root());
        for (CliCommand c : commands) {
            c.streams(in, out, err);
            root.addSubcommand(c);
        }
        root.getSubcommands().values().forEach(c -> c.getCommandSpec().usageMessage().synopsisHeading("usage: "));
        // "console" is the launcher's (Main opens it before this model parses anything); here it is a word that
        // help, the completion scripts and the manual page know, its usage the summary's first line.
        CommandLine console = new CommandLine(new ConsoleWord());
        console.getCommandSpec().usageMessage().sectionKeys(List.of(SUMMARY));
        console.getCommandSpec().usageMessage().sectionMap().put(SUMMARY, help -> CONSOLE_SYNOPSIS);
        root.addSubcommand(console);
        root.addSubcommand(new CommandLine.HelpCommand());
        root.setHelpFactory(InputFirstHelp::new);
        // As today: an option's value is the next argument (--scenario FILE), and help has no colours.
        root.setSeparator(" ");
        root.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        root.setUsageHelpWidth(USAGE_WIDTH);
        root.setOut(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
        root.setErr(new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true));
        root.setParameterExceptionHandler((e, args) -> usageError(e, err));
        // The top level's help is the summary of every command, the console's line first.
        // (on the root's own spec: CommandLine's setters would pass it on to the subcommands)
        root.getCommandSpec().usageMessage().sectionKeys(List.of(SUMMARY));
        root.getCommandSpec().usageMessage().sectionMap().put(SUMMARY, help -> summary(root));
        return root;
    }

    /** {@code headroom}: the subcommands, and --help/--version. */
    @Command(name = "headroom", mixinStandardHelpOptions = true, versionProvider = Root.Version.class,
            header = "Operations console for event-driven autoscaling of queue workers on Kubernetes")
    static final class Root implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            throw new ParameterException(spec.commandLine(), "a command is missing");
        }

        static final class Version implements CommandLine.IVersionProvider {
            @Override
            public String[] getVersion() {
                return new String[] {BuildInfo.current().line()};
            }
        }
    }

    /** {@code headroom console}: what {@code help console} describes (the launcher opens it). */
    @Command(name = "console", header = "open the console (the default when no command is given)")
    static final class ConsoleWord implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            throw new ParameterException(spec.commandLine(), "the console opens from the launcher (io.headroom.Main)");
        }
    }

    /** {@code headroom version}: as {@code --version}. */
    @Command(name = "version", header = "print version, commit and build time")
    static final class VersionCommand extends CliCommand {
        @Override
        int execute() {
            out.println(BuildInfo.current().line());
            out.flush();
            return ExitCode.OK;
        }
    }

    static final int USAGE_WIDTH = 100;
    private static final String SUMMARY = "headroomSummary";
    private static final String INDENT = "       ";

    /**
     * A usage error, said as {@code headroom CMD: what is wrong} with the command's synopsis, exit code 2.
     * A file the config reader refuses is said as the reader says it: {@code FILE:LINE: …}.
     */
    static int usageError(ParameterException e, PrintStream err) {
        CommandLine cmd = e.getCommandLine();
        boolean top = cmd.getParent() == null;
        if (e.getCause() instanceof InputFiles.Located located) {
            err.println(located.getMessage());
            err.flush();
            return ExitCode.USAGE;
        }
        String prefix = top ? "headroom: " : "headroom " + cmd.getCommandName() + ": ";
        String message;
        boolean withSynopsis = true;
        if (e.getCause() instanceof CommandLine.TypeConversionException t) {
            message = t.getMessage();
            withSynopsis = false;
        } else if (e instanceof CommandLine.UnmatchedArgumentException u) {
            String first = u.getUnmatched().isEmpty() ? "" : u.getUnmatched().get(0);
            message = (top ? "unknown command '" : "unknown argument '") + UntrustedText.line(first, 100) + "'";
            List<String> suggestions = u.getSuggestions();
            if (!suggestions.isEmpty()) {
                message += "; did you mean " + String.join(" or ", suggestions.subList(0, Math.min(3,
                        suggestions.size()))) + "?";
            }
        } else if (e instanceof CommandLine.MissingParameterException m) {
            message = missing(m.getMissing());
        } else if (e instanceof CommandLine.MutuallyExclusiveArgsException) {
            message = exclusive(cmd.getCommandSpec());
        } else {
            message = e.getMessage();
        }
        err.println(prefix + UntrustedText.line(message, 1000));
        if (withSynopsis) {
            err.print(top ? usage() + "\n" : "usage: " + cmd.getHelp().synopsis("usage: ".length()));
            if (!top) {
                err.println("(headroom help " + cmd.getCommandName() + " says more)");
            }
        }
        err.flush();
        return ExitCode.USAGE;
    }

    /** "--scenario FILE is required", "--config FILE (or --scenario FILE) is required". */
    private static String missing(List<ArgSpec> missing) {
        List<String> names = new ArrayList<>();
        for (ArgSpec a : missing) {
            names.add(a instanceof OptionSpec o ? o.longestName() + (o.arity().max > 0 ? " " + o.paramLabel() : "")
                    : a.paramLabel());
        }
        if (names.isEmpty()) {
            return "an argument is missing";
        }
        boolean oneOf = missing.get(0).group() != null && missing.get(0).group().exclusive() && names.size() > 1;
        if (oneOf) {
            return names.get(0) + " (or " + String.join(" or ", names.subList(1, names.size())) + ") is required";
        }
        return names.size() == 1 ? names.get(0) + " is required"
                : String.join(" and ", names) + " are required";
    }

    /** "--config and --scenario exclude each other: give one". */
    private static String exclusive(CommandSpec spec) {
        for (CommandLine.Model.ArgGroupSpec g : spec.argGroups()) {
            if (g.exclusive()) {
                List<String> names = g.allOptionsNested().stream().map(OptionSpec::longestName).toList();
                return String.join(" and ", names) + " exclude each other: give one";
            }
        }
        return "options that exclude each other were given together";
    }

    /**
     * What {@code headroom help} prints: the console's line, then each command's synopsis (generated from its
     * options) and what it does.
     */
    private static String summary(CommandLine root) {
        StringBuilder sb = new StringBuilder(CONSOLE_SYNOPSIS);
        for (CommandLine sub : root.getSubcommands().values()) {
            if (List.of("help", "version", "console").contains(sub.getCommandName())) {
                continue;
            }
            String synopsis = sub.getHelp().synopsis(0).stripTrailing();
            sb.append(INDENT).append(synopsis.replace("\n", "\n" + INDENT)).append('\n');
            for (String h : sub.getCommandSpec().usageMessage().header()) {
                for (String line : wrap(h, USAGE_WIDTH - 20)) {
                    sb.append(INDENT).append("             ").append(line).append('\n');
                }
            }
        }
        sb.append(INDENT).append("headroom --version          print version, commit and build time\n");
        sb.append(INDENT).append("headroom help [COMMAND]     this summary, or a command's options\n");
        return sb.toString();
    }

    private static List<String> wrap(String text, int width) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : text.split(" ")) {
            if (line.length() > 0 && line.length() + 1 + word.length() > width) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.length() > 0 ? " " : "").append(word);
        }
        lines.add(line.toString());
        return lines;
    }

    private static final String CONSOLE_SYNOPSIS = """
            usage: headroom [console] [--config=WORKLOADS.yaml] [--speed=N] [--seed=N] [--journal=FILE] [--settings=FILE]
                            [--operator=NAME] [--sandbox=plain|admission|placement]
                                open the console: the workloads file (or the one chosen in Settings), else the
                                built-in sandbox; it acts as the kubeconfig user unless --operator names you.
                                --sandbox opens a sandbox whatever Settings name: plain, admission (intake-api,
                                whose producers obey admission) or placement (render, across spot and on-demand
                                pools whose spot nodes vanish for four minutes every ten)
            """;

    /** Help that names where the input comes from first: {@code headroom whatif (--config FILE | --scenario FILE) …}. */
    private static final class InputFirstHelp extends CommandLine.Help {
        InputFirstHelp(CommandSpec spec, ColorScheme colors) {
            super(spec, colors);
        }

        /** The group that says where the input comes from ({@code (--config FILE | --scenario FILE)}) first. */
        @Override
        protected String makeSynopsisFromParts(int synopsisHeadingLength, Ansi.Text optionText,
                                                  Ansi.Text groupsText, Ansi.Text endOfOptionsText,
                                                  Ansi.Text positionalParamText, Ansi.Text commandText) {
            return super.makeSynopsisFromParts(synopsisHeadingLength, groupsText, optionText, endOfOptionsText,
                    positionalParamText, commandText);
        }
    }

    /** Checks the console's options before any window opens; null when they are fine. */
    static String consoleArgumentProblem(List<String> args) {
        for (String a : args) {
            String[] kv = a.split("=", 2);
            if (kv.length != 2) {
                return "'" + a + "' needs a value, e.g. --speed=10";
            }
            switch (kv[0]) {
                case "--speed" -> {
                    try {
                        double v = Double.parseDouble(kv[1]);
                        if (!io.headroom.session.Launcher.SPEEDS.contains(v)) {
                            return "--speed must be 1, 10 or 60 (times real time, as the speed buttons offer), got "
                                    + kv[1];
                        }
                    } catch (NumberFormatException e) {
                        return "--speed must be a number, got '" + kv[1] + "'";
                    }
                }
                case "--seed" -> {
                    try {
                        Long.parseLong(kv[1]);
                    } catch (NumberFormatException e) {
                        return "--seed must be a whole number, got '" + kv[1] + "'";
                    }
                }
                case "--operator" -> {
                    try {
                        io.headroom.session.Session.operatorName(kv[1]);
                    } catch (IllegalArgumentException e) {
                        return e.getMessage();
                    }
                }
                case "--sandbox" -> {
                    try {
                        io.headroom.session.Launcher.SandboxKind.of(kv[1]);
                    } catch (IllegalArgumentException e) {
                        return e.getMessage();
                    }
                    if (args.stream().anyMatch(o -> o.startsWith("--config="))) {
                        return "--sandbox and --config exclude each other: give one";
                    }
                }
                case "--journal", "--settings" -> {
                    if (kv[1].isBlank()) {
                        return kv[0] + " needs a file path";
                    }
                }
                case "--config" -> {
                    try {
                        // The file itself (a directory, a loop, too large, not UTF-8) is refused here, located;
                        // its content is checked by the console, which opens the sandbox when it is wrong.
                        io.headroom.config.ConfigTree.formatOf(java.nio.file.Path.of(kv[1]));
                        io.headroom.config.ConfigTree.readText(java.nio.file.Path.of(kv[1]));
                    } catch (io.headroom.config.ConfigException e) {
                        return "--config: " + e.getMessage();
                    } catch (java.nio.file.InvalidPathException e) {
                        return "--config: not a file path";
                    }
                }
                default -> {
                    return "unknown option '" + kv[0] + "'";
                }
            }
        }
        return null;
    }

    /** The summary {@code headroom help} prints: every command's synopsis, generated from its options. */
    public static String usage() {
        return summary(commandLine(InputStream.nullInputStream(), System.out, System.err)).stripTrailing();
    }
}
