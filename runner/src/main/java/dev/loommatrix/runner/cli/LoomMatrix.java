package dev.loommatrix.runner.cli;

import dev.loommatrix.core.matrix.MatrixException;
import java.io.PrintStream;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
        name = "loom-matrix",
        mixinStandardHelpOptions = true,
        scope = CommandLine.ScopeType.INHERIT, // --help, --version and the exit codes on every subcommand too
        versionProvider = LoomMatrix.Version.class,
        description = "Benchmarks Java virtual threads against platform threads across a matrix of JDKs, VMs, "
                + "OSes, CPU limits and scheduler settings.",
        exitCodeListHeading = "%nExit codes:%n")
public final class LoomMatrix {

    /** The stream the CLI was given for output: commands that print progress as it happens write here. */
    private final PrintStream out;

    /** The stream for diagnostics and, where standard output is a document a script parses, progress. */
    private final PrintStream err;

    private LoomMatrix(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    PrintStream out() {
        return out;
    }

    PrintStream err() {
        return err;
    }

    @Option(
            names = "--verbose",
            scope = CommandLine.ScopeType.INHERIT,
            description = "Show stack traces for internal errors.")
    boolean verbose;

    public static void main(String[] args) {
        System.exit(mainWithoutExit(args, System.out, System.err));
    }

    /** The subcommands, in the order {@code --help} lists them. */
    static final java.util.List<Class<?>> SUBCOMMANDS = java.util.List.of(
            InitCommand.class,
            ValidateCommand.class,
            PlanCommand.class,
            RunCommand.class,
            MergeCommand.class,
            CompareCommand.class,
            ReportCommand.class,
            AbCommand.class,
            BisectCommand.class,
            ExportCommand.class,
            PublishCommand.class,
            ServeCommand.class,
            PruneCommand.class,
            CommandLine.HelpCommand.class);

    /**
     * The CLI for these arguments: with a subcommand named first, only that one is modelled. picocli reflects over
     * every option of every subcommand it is given (and loads the types they name), which was half of what
     * {@code validate} cost; {@code --help}, {@code help} and anything unknown still get all of them.
     */
    static CommandLine commandLine(String[] args, PrintStream out) {
        return commandLine(args, out, System.err);
    }

    private static CommandLine commandLine(String[] args, PrintStream out, PrintStream err) {
        CommandLine cli = new CommandLine(new LoomMatrix(out, err));
        cli.getCommandSpec().usageMessage().exitCodeList(ExitCode.helpList());
        String first = args.length == 0 ? "" : args[0];
        boolean named = SUBCOMMANDS.stream()
                .anyMatch(c -> c != CommandLine.HelpCommand.class && nameOf(c).equals(first));
        for (Class<?> command : SUBCOMMANDS) {
            if (!named || nameOf(command).equals(first)) {
                cli.addSubcommand(command);
            }
        }
        return cli;
    }

    private static String nameOf(Class<?> command) {
        return command.getAnnotation(Command.class).name();
    }

    /** The whole CLI without System.exit, for tests. */
    public static int mainWithoutExit(String[] args, PrintStream out, PrintStream err) {
        CommandLine cli = commandLine(args, out, err);
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(err, true));
        cli.setExitCodeExceptionMapper(
                e -> e instanceof MatrixException ? ExitCode.USAGE_OR_MATRIX_ERROR.code : ExitCode.INTERNAL_ERROR.code);
        cli.setParameterExceptionHandler((ex, arguments) -> {
            ex.getCommandLine().getErr().println("error: " + ex.getMessage());
            ex.getCommandLine()
                    .getErr()
                    .println("see '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'");
            return ExitCode.USAGE_OR_MATRIX_ERROR.code;
        });
        cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            PrintWriter e = commandLine.getErr();
            if (ex instanceof MatrixException matrix) {
                matrix.problems().forEach(p -> e.println(p.format()));
                e.println(matrix.problems().size() + (matrix.problems().size() == 1 ? " problem" : " problems")
                        + " found.");
                return ExitCode.USAGE_OR_MATRIX_ERROR.code;
            }
            if (ex instanceof dev.loommatrix.core.result.ResultsFormat.Invalid invalid) {
                e.println("error: " + invalid.getMessage()); // a results file that is not what the format says
                return ExitCode.USAGE_OR_MATRIX_ERROR.code;
            }
            if (ex instanceof UsageException usage) {
                e.println("error: " + usage.getMessage());
                return ExitCode.USAGE_OR_MATRIX_ERROR.code;
            }
            if (ex instanceof ExitException exit) {
                e.println("error: " + exit.getMessage());
                return exit.code.code;
            }
            e.println("error: " + ex);
            boolean verbose = commandLine.getParseResult() != null && parseResult.hasMatchedOption("--verbose")
                    || java.util.Arrays.asList(args).contains("--verbose");
            if (verbose) {
                ex.printStackTrace(e);
            } else {
                e.println("(run with --verbose for the stack trace)");
            }
            return ExitCode.INTERNAL_ERROR.code;
        });
        return cli.execute(args);
    }

    /** A user mistake found after parsing (a missing file, a bad shard): exit 2 with the message. */
    static final class UsageException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UsageException(String message) {
            super(message);
        }
    }

    /** A situation with an exit code of its own (--no-wait while another run measures: 6), said in one line. */
    static final class ExitException extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final transient ExitCode code;

        ExitException(ExitCode code, String message) {
            super(message);
            this.code = code;
        }
    }

    /** The version and the commit it was built from ({@code git.properties}, written by the build). */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {line(LoomMatrix.class.getPackage().getImplementationVersion(), commit())};
        }

        static String line(String version, java.util.Properties git) {
            String commit = git.getProperty("git.commit.id.abbrev", "");
            return "loom-matrix " + (version == null ? "dev" : version)
                    + (commit.isEmpty()
                            ? " (built outside a git checkout: commit unknown)"
                            : " (commit " + commit + ")");
        }

        static java.util.Properties commit() {
            java.util.Properties git = new java.util.Properties();
            try (var in = LoomMatrix.class.getResourceAsStream("git.properties")) {
                if (in != null) {
                    git.load(in);
                }
            } catch (java.io.IOException e) {
                // no commit to tell
            }
            return git;
        }
    }
}
