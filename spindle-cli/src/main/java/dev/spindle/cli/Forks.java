/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import dev.spindle.bench.quick.Progress;
import dev.spindle.bench.quick.Report;
import dev.spindle.bench.quick.TextTable;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code --forks N} of the interleaved benchmark commands: the same command run in N fresh JVMs,
 * one after another, and each JVM's ratios set side by side with their median.
 *
 * <p>Why. Within one JVM the harness interleaves the runtimes round by round, so a busy moment
 * of the machine hits both sides; what it cannot even out is the JIT. Where C2 cuts a runtime's
 * recursion or call chain into compiled methods, and which receiver types a shared call site saw
 * first, is decided once per JVM, and on the 2-core development machine one build's fork/join
 * time differs by up to 70 % from one JVM to the next (docs/BENCHMARKS.md, session 16), as
 * ForkJoinPool's does. One JVM's ratio is one draw; the median of several is the figure to
 * quote, with their range beside it. (JMH forks for the same reason.)
 *
 * <p>How. The parent checks its arguments as the command would, then starts each child with its
 * own JVM options (those it was started with, less a debugger agent, a flight recording and a
 * JMX remote agent, which would clash between children, and with a file that an option names,
 * a log, a heap dump, a crash report, named for the child; and without the JVM option variables
 * of the environment, whose options are among those), its class path and the same command line with
 * {@code --json --progress=none} in place of {@code --forks}, {@code --json} and
 * {@code --progress}. The child writes its report to a file the parent made for it and names in
 * {@value #REPORT_PROPERTY}, read up to {@link MiniJson#MAX_LENGTH} characters: not to its
 * standard output, where the JVM writes output of its own that the parent's options ask for (a GC
 * log without a file, {@code -Xlog:gc} or {@code -verbose:gc}; {@code -XX:+PrintCompilation};
 * unified logging's warnings, by default), which failed every run with such an option as a child
 * that printed no report. A child's standard output and error are the parent's, so what its JVM
 * logs shows where the parent's does, and its failures show. A child that exits non-zero, or
 * writes anything but a report, fails the whole command, and a child still running when the
 * parent's JVM shuts down (a SIGTERM) is destroyed with it. Children never run at the same time:
 * they would compete for the cores they measure.
 */
final class Forks {

    /** The {@code --forks} option, as a picocli mixin. */
    static final class Count {
        @picocli.CommandLine.Option(names = "--forks", paramLabel = "N",
                description = "Run the whole command in N fresh JVMs, one after another, and print each JVM's ratios"
                        + " beside their median (default: 1, this JVM alone). The JIT compiles hot paths differently"
                        + " from one JVM to the next, so one JVM's ratio is one draw; quote the median over JVMs.")
        int forks = 1;

        void validate(CommandSpec spec) {
            BenchRunOptions.requireRange(spec, "--forks", forks, 1, 100);
        }
    }

    /**
     * A figure each report holds per workload (or per server): the member {@code field} of each entry
     * of the list {@code section}, the entry named by its member {@code key}.
     */
    record Column(String section, String key, String field, String title) {

        /** A column of entries named by their {@code workload} member. */
        Column(String section, String field, String title) {
            this(section, "workload", field, title);
        }
    }

    /** The fork/join suite's ratio. */
    static final List<Column> FORK_JOIN = List.of(
            new Column("results", "ratio", "Spindle throughput / ForkJoinPool throughput (> 1: Spindle faster)"));
    /** The actor suite's ratio. */
    static final List<Column> ACTORS = List.of(
            new Column("results", "ratio", "best Spindle throughput / best Pekko throughput (> 1: Spindle faster)"));
    /** The async suite's ratios, with the contention workloads' HYBRID gains. */
    static final List<Column> ASYNC = List.of(
            new Column("results", "ratio",
                    "best AsyncRuntime throughput / best CompletableFuture throughput (> 1: AsyncRuntime faster)"),
            new Column("results", "vtRatio",
                    "best AsyncRuntime throughput / virtual threads' throughput (> 1: AsyncRuntime faster)"),
            new Column("contention", "wakesP99Ratio",
                    "contention: WORK_STEALING p99 wakes / HYBRID p99 wakes (> 1: HYBRID wakes less)"),
            new Column("contention", "completionP99Ratio",
                    "contention: WORK_STEALING p99 completion / HYBRID p99 completion (> 1: HYBRID completes sooner)"),
            new Column("contention", "throughputRatio",
                    "contention: HYBRID throughput / WORK_STEALING throughput (> 1: HYBRID faster)"));
    /** The echo servers' throughput ratios and p99 latency against Netty's. */
    static final List<Column> ECHO = List.of(
            new Column("servers", "id", "xNetty", "requests/s / Netty NIO's requests/s (> 1: faster than Netty)"),
            new Column("servers", "id", "xVirtualThreads",
                    "requests/s / virtual threads' requests/s (> 1: faster than virtual threads)"),
            new Column("servers", "id", "p99VsNetty", "p99 latency / Netty NIO's p99 latency (< 1: lower than Netty's)"));

    /** The cluster suite's throughput and makespan over its bound, per configuration and shape. */
    static final List<Column> CLUSTER = List.of(
            new Column("results", "run", "tasksPerSecond", "tasks per second (median of the rounds), per configuration/shape"),
            new Column("results", "run", "overBound",
                    "makespan / its lower bound (graphs of sleeping tasks; 1: no time lost to scheduling)"));

    /**
     * The system property that names, in a child, the file its report goes to (see the class
     * comment); set by the parent after the JVM options it passes on, so it overrides any of theirs.
     */
    static final String REPORT_PROPERTY = "spindle.forks.report";

    private Forks() {
    }

    /**
     * Runs the command that {@code spec} belongs to in {@code forks} child JVMs and prints the
     * combined result on {@code spec}'s output, as a table or (with {@code json}) as JSON.
     *
     * @return the exit status, 0
     * @throws IllegalStateException if a child fails or prints no report
     */
    static int run(CommandSpec spec, int forks, List<Column> columns, boolean json, Progress progress) {
        // expanded: a child given an @FILE would read from it the options replaced below, --forks among them
        List<String> original = spec.root().commandLine().getParseResult().expandedArgs();
        List<String> childArgs = childArguments(original);
        List<String> outputs = new ArrayList<>();
        List<Map<String, Object>> reports = new ArrayList<>();
        long start = System.nanoTime();
        progress.start(forks);
        for (int i = 1; i <= forks; i++) {
            progress.step("JVM " + i + " of " + forks);
            String output = runFork(childArgs, i, forks);
            reports.add(asReport(output, i, forks));   // a bad report stops the run at once
            outputs.add(output);
        }
        progress.finish();
        double minutes = (System.nanoTime() - start) / 60e9;
        List<Summary> summaries = summarize(reports, columns);
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? toJson(childArgs, outputs, summaries)
                : toTable(spec.qualifiedName(), reports, summaries, minutes));
        out.flush();
        return 0;
    }

    /**
     * The child's arguments: {@code original} (@-files expanded) without {@code --forks},
     * {@code --json} and {@code --progress} (either form, with its value), then
     * {@code --json --progress=none}; an argument that starts with {@code @} is escaped as
     * {@code @@}, so that the child takes it as itself, not as a file to expand.
     */
    static List<String> childArguments(List<String> original) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < original.size(); i++) {
            String a = original.get(i);
            if (a.equals("--forks") || a.equals("--progress")) {
                i++;                           // and its value
            } else if (!a.startsWith("--forks=") && !a.startsWith("--progress=") && !a.equals("--json")
                    && !a.startsWith("--json=")) {
                out.add(a.startsWith("@") ? "@" + a : a);
            }
        }
        out.add("--json");
        out.add("--progress=none");
        return out;
    }

    /**
     * The JVM options child {@code jvm} gets: this JVM's, less those that would clash between
     * children: a debugger agent, a flight recording and a JMX remote agent (whose port the parent
     * holds); and with the file that a log ({@code -Xlog:...:file=}, {@code -Xloggc:},
     * {@code -XX:LogFile=}), a heap dump or a crash report names given the suffix
     * {@code -jvm<jvm>} (see {@link #forJvm}).
     */
    static List<String> childJvmOptions(List<String> inputArguments, int jvm) {
        List<String> out = new ArrayList<>();
        for (String a : inputArguments) {
            if (a.startsWith("-agentlib:jdwp") || a.startsWith("-Xrunjdwp") || a.startsWith("-XX:StartFlightRecording")
                    || a.startsWith("-XX:FlightRecorderOptions")
                    || a.equals("-Dcom.sun.management.jmxremote") || a.startsWith("-Dcom.sun.management.jmxremote.")) {
                continue;
            }
            out.add(ownFile(a, jvm));
        }
        return out;
    }

    /**
     * {@code option} with the file it names, if it names one that every JVM would write, named for
     * child {@code jvm}. Given as it was, every child wrote the parent's file: a GC log, opened by
     * each child, rotated the one before away (past its file count the parent's, still being
     * written, and the first children's were gone), the JVM's own log was cut short by each child,
     * and a heap dump or crash report of one JVM took the name another's needed. ({@code %p}, the pid, would do for logs and crash reports, but
     * Java 17 does not expand it in {@code HeapDumpPath}; a suffix does for all.)
     */
    static String ownFile(String option, int jvm) {
        for (String prefix : List.of("-XX:HeapDumpPath=", "-XX:ErrorFile=", "-Xloggc:", "-XX:LogFile=")) {
            if (option.startsWith(prefix)) {
                String file = option.substring(prefix.length());
                if (prefix.equals("-XX:HeapDumpPath=") && isDirectory(file)) {
                    return option;             // the JVM names the dump in it after its pid
                }
                return prefix + forJvm(file, jvm);
            }
        }
        if (option.startsWith("-Xlog:")) {
            return "-Xlog:" + logForJvm(option.substring("-Xlog:".length()), jvm);
        }
        return option;
    }

    /**
     * An {@code -Xlog} option's value ({@code what:output:decorators:options}, each part after the
     * first optional) with its output, if a file ({@code file=name} or a bare name; quoted if it
     * holds a colon), named for child {@code jvm}.
     */
    private static String logForJvm(String value, int jvm) {
        int start = value.indexOf(':');
        if (start < 0) {
            return value;                      // no output: stdout
        }
        int end = start + 1;
        for (boolean quoted = false; end < value.length() && (quoted || value.charAt(end) != ':'
                || windowsDrive(value, start + 1, end)); end++) {
            quoted ^= value.charAt(end) == '"';
        }
        String output = value.substring(start + 1, end);
        String prefix = output.startsWith("file=") ? "file=" : "";
        String file = output.substring(prefix.length());
        if (file.isEmpty() || (prefix.isEmpty() && (file.equals("stdout") || file.equals("stderr")
                || file.startsWith("#")))) {
            return value;
        }
        String named = file.length() > 1 && file.startsWith("\"") && file.endsWith("\"")
                ? "\"" + forJvm(file.substring(1, file.length() - 1), jvm) + "\""
                : forJvm(file, jvm);
        return value.substring(0, start + 1) + prefix + named + value.substring(end);
    }

    /** Whether the colon at {@code colon} ends a drive letter ({@code C:\...}), as the JVM reads it on Windows. */
    private static boolean windowsDrive(String value, int output, int colon) {
        return colon + 1 < value.length() && value.charAt(colon + 1) == '\\'
                && (colon == output + 1 || value.startsWith("file=", output));
    }

    /** {@code file} with {@code -jvm<jvm>} before its extension: {@code gc.log} as {@code gc-jvm2.log}. */
    static String forJvm(String file, int jvm) {
        int name = Math.max(file.lastIndexOf('/'), file.lastIndexOf(File.separatorChar)) + 1;
        int dot = file.lastIndexOf('.');
        int at = dot > name ? dot : file.length();
        return file.substring(0, at) + "-jvm" + jvm + file.substring(at);
    }

    private static boolean isDirectory(String file) {
        try {
            return Files.isDirectory(Path.of(file));
        } catch (InvalidPathException e) {
            return false;
        }
    }

    private static List<String> javaCommand(List<String> childArgs, int jvm, Path report) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(childJvmOptions(ManagementFactory.getRuntimeMXBean().getInputArguments(), jvm));
        cmd.add("-D" + REPORT_PROPERTY + "=" + report);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(SpindleCli.class.getName());
        cmd.addAll(childArgs);
        return cmd;
    }

    /**
     * The environment variables the JVM takes options from. This JVM's options from them are
     * among its input arguments, which {@link #childJvmOptions} filters onto the child's command
     * line; inherited as well, they would give the child a debugger agent or a flight recording
     * after all (and every other option of theirs twice).
     */
    static final List<String> JVM_OPTION_VARIABLES = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");

    /**
     * Runs child {@code i} of {@code forks} with {@code childArgs} and returns its report: what it
     * wrote to the file named in its {@value #REPORT_PROPERTY}, made here (readable by this user
     * alone, as {@link Files#createTempFile} makes it where the system allows) and deleted after,
     * or as this JVM exits if it is stopped meanwhile.
     */
    private static String runFork(List<String> childArgs, int i, int forks) {
        Path report;
        try {
            report = Files.createTempFile("spindle-forks-", ".json");
        } catch (IOException e) {
            throw new IllegalStateException("could not make the file for JVM " + i + " of " + forks + "'s report: "
                    + e.getMessage(), e);
        }
        try {
            // Also at exit: a signal (SIGTERM, Ctrl-C) ends this JVM while the child runs, its
            // hooks destroy the child (Reaper), and the JVM halts before the wait returns to the
            // finally below, which left the file in the temporary directory. Deleted after those
            // hooks; the child, which writes the file and never creates it, cannot bring it back.
            // (Inside the try: once this JVM is shutting down it throws, and the finally deletes.)
            report.toFile().deleteOnExit();
            return runChild(javaCommand(childArgs, i, report), report, i, forks);
        } finally {
            try {
                Files.deleteIfExists(report);
            } catch (IOException e) {
                // left in the temporary directory: nothing worse
            }
        }
    }

    /**
     * Runs {@code command}, whose standard output and error are this JVM's, and returns what it
     * wrote to {@code report} (an existing file) once it has exited with status 0.
     */
    static String runChild(List<String> command, Path report, int i, int forks) {
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT)
                .redirectOutput(ProcessBuilder.Redirect.INHERIT);
        builder.environment().keySet().removeAll(JVM_OPTION_VARIABLES);
        Process p = Reaper.start(builder, i, forks);
        try {
            p.getOutputStream().close();
            int status = p.waitFor();
            if (status != 0) {
                throw new IllegalStateException("JVM " + i + " of " + forks + " exited with status " + status
                        + " (its messages are above)");
            }
            try (InputStream in = Files.newInputStream(report)) {
                return readBounded(in, MiniJson.MAX_LENGTH);
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not read JVM " + i + " of " + forks + "'s report: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while JVM " + i + " of " + forks + " ran", e);
        } finally {
            p.destroy();                       // a no-op once it has exited
            Reaper.forget(p);
        }
    }

    /**
     * In a child: writes {@code text}, its report, to the file the parent named in
     * {@value #REPORT_PROPERTY}, and returns true; false if it names none (not a child).
     * The file is the parent's: it is written, not created.
     *
     * @throws UncheckedIOException if it cannot be written (the child then fails)
     */
    static boolean writeReport(Supplier<String> text) {
        String file = System.getProperty(REPORT_PROPERTY);
        if (file == null) {
            return false;
        }
        try {
            Files.writeString(Path.of(file), text.get(), StandardCharsets.UTF_8, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("could not write the report to " + file + ": " + e.getMessage(), e);
        }
        return true;
    }

    /**
     * Destroys the running children when this JVM shuts down (a SIGTERM, {@code System.exit}
     * elsewhere), so that none measures on alone, taking the cores of whatever runs next.
     *
     * <p>One shutdown hook for all children, registered before the first starts, and a lock that
     * a start and the hook both hold: a child is either started and listed before the hook looks
     * at the list, or not started at all once the hook has run. (A hook registered after each
     * start left a window: a SIGTERM between the start and the registration left the child
     * running; {@code ForksTest.aChildDoesNotOutliveItsParent} caught it under load.)
     */
    private static final class Reaper {

        private static final Object LOCK = new Object();
        private static final List<Process> RUNNING = new ArrayList<>();
        private static boolean hooked;
        private static boolean stopping;

        private Reaper() {
        }

        static Process start(ProcessBuilder builder, int i, int forks) {
            synchronized (LOCK) {
                if (!hooked) {
                    try {
                        Runtime.getRuntime().addShutdownHook(new Thread(Reaper::destroyAll, "spindle-forks-reaper"));
                    } catch (IllegalStateException shuttingDown) {
                        stopping = true;
                    }
                    hooked = true;
                }
                if (stopping) {
                    throw new IllegalStateException("not starting JVM " + i + " of " + forks + ": this JVM is shutting down");
                }
                try {
                    Process p = builder.start();
                    RUNNING.add(p);
                    return p;
                } catch (IOException e) {
                    throw new IllegalStateException("could not start JVM " + i + " of " + forks + ": " + e.getMessage(), e);
                }
            }
        }

        static void forget(Process p) {
            synchronized (LOCK) {
                RUNNING.remove(p);
            }
        }

        private static void destroyAll() {
            synchronized (LOCK) {
                stopping = true;
                RUNNING.forEach(Process::destroyForcibly);
                RUNNING.clear();
            }
        }
    }

    /** Reads {@code in} to its end as UTF-8, refusing more than {@code maxChars} bytes. */
    static String readBounded(InputStream in, int maxChars) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        byte[] chunk = new byte[8192];
        for (int n; (n = in.read(chunk)) >= 0; ) {
            if (buf.size() + n > maxChars) {
                throw new IOException("more than " + maxChars + " bytes of output");
            }
            buf.write(chunk, 0, n);
        }
        return buf.toString(StandardCharsets.UTF_8);
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> asReport(String output, int i, int forks) {
        Object v;
        try {
            v = MiniJson.parse(output);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("JVM " + i + " of " + forks + " wrote no report: " + e.getMessage(), e);
        }
        if (!(v instanceof Map)) {
            throw new IllegalStateException("JVM " + i + " of " + forks + " wrote no report: not a JSON object");
        }
        return (Map<String, Object>) v;
    }

    /**
     * One column's figures for one workload: each JVM's (NaN where a JVM has none) and their
     * median, minimum and maximum over the JVMs that have one.
     */
    record Summary(Column column, String workload, double[] perJvm, double median, double min, double max) {
    }

    /** The summaries of every column, workloads in the order the first report that has them lists them. */
    static List<Summary> summarize(List<Map<String, Object>> reports, List<Column> columns) {
        List<Summary> out = new ArrayList<>();
        for (Column c : columns) {
            Map<String, double[]> byWorkload = new LinkedHashMap<>();
            for (int j = 0; j < reports.size(); j++) {
                for (Object e : list(reports.get(j).get(c.section()))) {
                    if (!(e instanceof Map<?, ?> entry) || !(entry.get(c.key()) instanceof String name)) {
                        continue;
                    }
                    double[] values = byWorkload.computeIfAbsent(name, k -> nans(reports.size()));
                    if (entry.get(c.field()) instanceof Double d) {
                        values[j] = d;
                    }
                }
            }
            for (Map.Entry<String, double[]> e : byWorkload.entrySet()) {
                double[] present = Arrays.stream(e.getValue()).filter(d -> !Double.isNaN(d)).sorted().toArray();
                if (present.length == 0) {
                    continue;                  // e.g. no virtual threads on this JDK
                }
                out.add(new Summary(c, e.getKey(), e.getValue(), median(present), present[0],
                        present[present.length - 1]));
            }
        }
        return out;
    }

    private static List<?> list(Object o) {
        return o instanceof List<?> l ? l : List.of();
    }

    private static double[] nans(int n) {
        double[] d = new double[n];
        Arrays.fill(d, Double.NaN);
        return d;
    }

    /** The median of sorted values: the middle one, or the mean of the middle two. */
    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    static String toTable(String command, List<Map<String, Object>> reports, List<Summary> summaries, double minutes) {
        Map<String, Object> first = reports.get(0);
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT,
                "%s in %d JVMs, one after another, %.1f min: each %s%s, %s interleaved rounds after %s warm-up"
                        + " rounds, Java %s%n",
                command, reports.size(), minutes,
                first.containsKey("workers") ? integer(first.get("workers")) + " workers" : "run's own workers",
                first.containsKey("connections") ? ", " + integer(first.get("connections")) + " connections" : "",
                integer(first.get("rounds")),
                integer(first.get("warmupRounds")), first.get("java")));
        sb.append("median, min-max = over the JVMs of each JVM's own figure (its table's); JVM 1..")
                .append(reports.size()).append(" = those figures; each table's title says which way is better\n");
        Column current = null;
        List<String[]> lines = new ArrayList<>();
        for (Summary s : summaries) {
            if (s.column() != current) {
                flush(sb, lines);
                current = s.column();
                sb.append('\n').append(current.title()).append('\n');
                String[] head = new String[3 + reports.size()];
                head[0] = current.key().equals("id") ? "server" : current.key();
                head[1] = "median";
                head[2] = "min-max";
                for (int j = 0; j < reports.size(); j++) {
                    head[3 + j] = "JVM " + (j + 1);
                }
                lines.add(head);
            }
            String[] l = new String[3 + reports.size()];
            l[0] = s.workload();
            l[1] = ratio(s.median());
            l[2] = ratio(s.min()) + "-" + ratio(s.max());
            for (int j = 0; j < reports.size(); j++) {
                l[3 + j] = Double.isNaN(s.perJvm()[j]) ? "-" : ratio(s.perJvm()[j]);
            }
            lines.add(l);
        }
        flush(sb, lines);
        return sb.toString();
    }

    private static void flush(StringBuilder sb, List<String[]> lines) {
        if (lines.isEmpty()) {
            return;
        }
        List<Boolean> right = new ArrayList<>();
        for (int i = 0; i < lines.get(0).length; i++) {
            right.add(i > 0);                  // the workload left, the figures right
        }
        TextTable.append(sb, lines, right);
        lines.clear();
    }

    private static String integer(Object o) {
        return o instanceof Double d ? Long.toString(d.longValue()) : String.valueOf(o);
    }

    /** A figure: a ratio with two decimals, a rate (100 or more) as a whole number. */
    private static String ratio(double r) {
        return String.format(Locale.ROOT, Math.abs(r) >= 100 ? "%.0f" : "%.2f", r);
    }

    static String toJson(List<String> childArgs, List<String> outputs, List<Summary> summaries) {
        StringBuilder sb = new StringBuilder("{\n  \"forks\": ").append(outputs.size()).append(",\n");
        sb.append("  \"childArguments\": [");
        for (int i = 0; i < childArgs.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(Report.str(childArgs.get(i)));
        }
        sb.append("],\n  \"summary\": [");
        for (int i = 0; i < summaries.size(); i++) {
            Summary s = summaries.get(i);
            sb.append(i == 0 ? "\n" : ",\n");
            sb.append("    {\"section\": ").append(Report.str(s.column().section()))
                    .append(", \"field\": ").append(Report.str(s.column().field()))
                    .append(", \"workload\": ").append(Report.str(s.workload()))
                    .append(", \"median\": ").append(Report.num(s.median()))
                    .append(", \"min\": ").append(Report.num(s.min()))
                    .append(", \"max\": ").append(Report.num(s.max()))
                    .append(", \"perJvm\": [");
            for (int j = 0; j < s.perJvm().length; j++) {
                sb.append(j == 0 ? "" : ", ").append(Report.num(s.perJvm()[j]));
            }
            sb.append("]}");
        }
        sb.append("\n  ],\n  \"jvms\": [");
        for (int i = 0; i < outputs.size(); i++) {
            sb.append(i == 0 ? "\n" : ",\n").append(outputs.get(i).strip());
        }
        return sb.append("\n  ]\n}\n").toString();
    }
}
