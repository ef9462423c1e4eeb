/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Spec;

/**
 * The {@code spindle} command. Subcommands: {@code bench} (the quick Spindle vs ForkJoinPool
 * harness) and {@code demo} (fork/join fib on a WorkStealingPool, with the pool's counters).
 * The help's footer also lists {@code test}, which the {@code ./spindle} script runs itself
 * (Maven, not this jar).
 *
 * <p>Exit status: 0 on success, 1 when a run fails (a workload computed a wrong answer, a pool
 * hung) or its output could not be written, 2 for bad arguments.
 */
@Command(name = "spindle",
        mixinStandardHelpOptions = true,
        versionProvider = SpindleCli.Version.class,
        description = "Spindle, a work-stealing task runtime for the JVM: benchmarks and a demo.",
        subcommands = {BenchCommand.class, DemoCommand.class, ClusterCommand.class, ConsoleCommand.class,
            HelpCommand.class},
        footer = {
            "",
            "From a checkout, the ./spindle script also runs:",
            "  test     Builds and runs the whole test suite, as CI does:",
            "             ./spindle test [MAVEN_ARGS]. Its model checks need spin",
            "             (sudo apt-get install spin) unless given -Dspin.skip.",
            "  certs    Makes a development CA and member key stores for the Pekko",
            "             cluster transport: ./spindle certs DIR [MEMBER...].",
            "",
            "Run 'spindle COMMAND --help' for a command's options."})
public final class SpindleCli implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /**
     * Without a subcommand: prints the usage.
     *
     * @return the exit status, 0
     */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }

    /**
     * Runs the command line and exits the JVM with its status (0 done, 1 a run failed, 2 bad
     * arguments).
     *
     * @param args a subcommand and its options, as {@code spindle --help} lists them
     */
    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** {@return the configured command line, not yet run; tests redirect its output streams} */
    public static CommandLine commandLine() {
        CommandLine cl = new ArgumentFilesRead(new SpindleCli());
        cl.setExecutionExceptionHandler(SpindleCli::onFailure);
        cl.setParameterExceptionHandler(SpindleCli::onBadArguments);
        cl.setExecutionStrategy(parsed -> {
            refuseEmptyEntries(parsed);
            return outputWritten(cl, parsed, new CommandLine.RunLast().execute(parsed));
        });
        return cl;
    }

    /**
     * The command line, whose argument files ({@code @FILE}) that cannot be read are a usage
     * error: picocli throws an {@code InitializationException} while it parses, which
     * {@code execute} took for a failure of the program, a stack trace and status 1, for a
     * directory or an unreadable file named after an {@code @}. (A file that does not exist is no
     * argument file to picocli, but an argument, refused as unmatched.)
     */
    private static final class ArgumentFilesRead extends CommandLine {

        /** picocli's message, which names the file after it. */
        private static final String COULD_NOT_READ = "Could not read argument file @";

        ArgumentFilesRead(Object command) {
            super(command);
        }

        @Override
        public ParseResult parseArgs(String... args) {
            try {
                return super.parseArgs(args);
            } catch (InitializationException e) {
                Throwable unread = e;         // an argument file named in one: picocli wraps each level
                while (unread.getCause() instanceof InitializationException inner) {
                    unread = inner;
                }
                String message = unread.getMessage();
                if (!(unread.getCause() instanceof IOException) || message == null
                        || !message.startsWith(COULD_NOT_READ)) {
                    throw e;                  // a command's definition at fault: a bug, to show as one
                }
                String file = message.substring(COULD_NOT_READ.length());
                String why = unread.getCause().getMessage();
                // FileNotFoundException says "FILE (reason)": the reason alone
                if (why != null && why.startsWith(file + " (") && why.endsWith(")")) {
                    why = why.substring(file.length() + 2, why.length() - 1);
                }
                throw new ParameterException(this, "cannot read the argument file " + file + " ("
                        + (why != null ? why : unread.getCause().toString()) + ")", e);
            }
        }
    }

    /**
     * Refuses a comma-separated option ({@code --workloads}, {@code --runtimes}, {@code --servers},
     * ...) with an empty entry, as a usage error naming the option and the value as typed, for
     * every command before it runs. picocli's split drops a trailing empty entry, so
     * {@code bench --workloads fib,} ran fib alone without a word, where the user may have meant
     * {@code --workloads "fib,$MORE"} with {@code MORE} unset; an inner one reached the harness,
     * refused as {@code unknown workload ''}, without the option.
     */
    private static void refuseEmptyEntries(CommandLine.ParseResult parsed) {
        for (CommandLine command : parsed.asCommandLineList()) {
            for (OptionSpec option : command.getParseResult().matchedOptions()) {
                if (option.splitRegex().isEmpty()) {
                    continue;
                }
                for (String value : option.originalStringValues()) {
                    for (String entry : value.split(option.splitRegex(), -1)) {   // -1: the trailing ones too
                        if (entry.isBlank()) {
                            throw new CommandLine.ParameterException(command, option.longestName() + " '" + value
                                    + "': an empty entry (a comma too many, or a variable that was not set?)");
                        }
                    }
                }
            }
        }
    }

    /**
     * {@code status}, or 1 if the command's standard output could not be written (a full disk,
     * {@code > /dev/full}, a pipe whose reader has gone), which it then says on stderr. Print
     * writers and streams keep their write errors to themselves: {@code bench --json > file} on a
     * full disk lost a long run's report and exited 0. The command line's writer is checked, and
     * {@link System#out} beneath the writer picocli makes by default, which takes the error.
     */
    private static int outputWritten(CommandLine cl, CommandLine.ParseResult parsed, int status) {
        boolean lost = cl.getOut().checkError();
        lost |= System.out.checkError();
        if (!lost) {
            return status;
        }
        List<CommandLine> ran = parsed.asCommandLineList();
        PrintWriter err = cl.getErr();
        err.println(ran.get(ran.size() - 1).getCommandSpec().qualifiedName()
                + ": error: could not write its output to standard output (a full disk? a closed pipe?)");
        err.flush();
        return status == 0 ? 1 : status;
    }

    /** Bad arguments: the error, any suggestion, and where to find help; exit 2. */
    private static int onBadArguments(CommandLine.ParameterException ex, String[] args) {
        CommandLine cl = ex.getCommandLine();
        PrintWriter err = cl.getErr();
        String name = cl.getCommandSpec().qualifiedName();
        err.println(name + ": " + ex.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("Try '" + name + " --help' for more information.");
        err.flush();
        return cl.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** The most causes {@link #onFailure} prints: a chain is rarely deeper, and a longer one is cut. */
    static final int MAX_CAUSES = 16;

    /**
     * A run failed: one clear line on stderr (the message, or the exception's type if it has
     * none; then the cause chain and the suppressed exceptions, each once: a chain may
     * loop back, as {@code a.initCause(b); b.initCause(a)} makes it, and at most
     * {@link #MAX_CAUSES} of them), no stack trace, exit 1. The line starts with the command as
     * typed, {@code spindle bench cluster}, as for bad arguments: the leaf's name alone
     * ({@code spindle cluster}) named another command.
     */
    static int onFailure(Exception ex, CommandLine cl, CommandLine.ParseResult parsed) {
        PrintWriter err = cl.getErr();
        // without a message, the exception's type: getMessage() alone printed "error: null"
        String message = ex.getMessage();
        err.println(cl.getCommandSpec().qualifiedName() + ": error: " + (message != null ? message : ex.toString()));
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        seen.add(ex);
        int printed = printSuppressed(err, ex, seen, 0);
        for (Throwable c = ex.getCause(); c != null && printed <= MAX_CAUSES && seen.add(c); c = c.getCause()) {
            if (printed++ == MAX_CAUSES) {
                break;
            }
            err.println("  caused by: " + c);
            printed = printSuppressed(err, c, seen, printed);
        }
        if (printed > MAX_CAUSES) {
            err.println("  (more causes left out)");
        }
        if (System.getenv("SPINDLE_DEBUG") != null) {
            ex.printStackTrace(err);
        } else {
            err.println("(set SPINDLE_DEBUG=1 for the stack trace)");
        }
        err.flush();
        return 1;
    }

    /**
     * Prints the exceptions {@code t} suppressed (a close that failed after the run had failed,
     * as try-with-resources records it), each once, within {@link #MAX_CAUSES} lines in all with
     * the causes: left out, the second failure was lost unless SPINDLE_DEBUG was set.
     *
     * @return {@code printed} plus the lines printed, {@code MAX_CAUSES + 1} once the limit is hit
     */
    private static int printSuppressed(PrintWriter err, Throwable t, Set<Throwable> seen, int printed) {
        for (Throwable s : t.getSuppressed()) {
            if (printed > MAX_CAUSES) {
                break;
            }
            if (seen.add(s)) {
                if (printed++ == MAX_CAUSES) {
                    break;
                }
                err.println("  suppressed: " + s);
            }
        }
        return printed;
    }

    /** The version, from the properties Maven filters at build time. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {
                "spindle " + version(),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")",
            };
        }

        static String version() {
            Properties p = new Properties();
            try (InputStream in = SpindleCli.class.getResourceAsStream("version.properties")) {
                if (in != null) {
                    p.load(in);
                }
            } catch (IOException e) {
                // fall through to "unknown"
            }
            return p.getProperty("version", "unknown");
        }
    }
}
