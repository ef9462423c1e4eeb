/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The children of {@code --forks} got the parent's JVM options as they were, those naming a file
 * among them: a GC log ({@code -Xlog:...:file=}, {@code -Xloggc:}), a heap dump
 * ({@code -XX:HeapDumpPath=}), a crash report ({@code -XX:ErrorFile=}), the JVM's own log
 * ({@code -XX:LogFile=}). So every JVM wrote the same file: each child's GC log, opening it,
 * rotated the one before away, and past the log's file count the parent's and the first
 * children's logs were gone (the parent's while it still wrote it); a JVM log was cut short by
 * each child; a heap dump or a crash report of one JVM took the name another's needed.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ForkedJvmFilesTest {

    @Test
    void eachJvmWritesItsOwnGcLog(@TempDir Path dir) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // one archived file: the second child's log, rotating the first child's, dropped the parent's
        ProcessBuilder pb = new ProcessBuilder(java, "-Xlog:gc:file=" + dir.resolve("gc.log") + ":pid:filecount=1",
                "-cp", System.getProperty("java.class.path"), SpindleCli.class.getName(), "bench",
                "--workloads", "chained-spawn", "--rounds", "1", "--warmup", "1", "--workers", "1", "--forks", "2",
                "--progress", "none", "--json");
        pb.environment().keySet().removeAll(Forks.JVM_OPTION_VARIABLES);
        File err = dir.resolve("err.txt").toFile();
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err);
        Process p = pb.start();
        try {
            assertThat(p.waitFor(150, TimeUnit.SECONDS)).as("the command ended").isTrue();
            assertThat(p.exitValue()).as("exit status; stderr:%n%s", Files.readString(err.toPath())).isZero();
            Set<String> pids = new TreeSet<>();
            try (Stream<Path> files = Files.list(dir)) {
                files.filter(f -> f.getFileName().toString().startsWith("gc")).forEach(f -> pids.addAll(pids(f)));
            }
            assertThat(pids).as("the JVMs whose GC log is kept").contains(Long.toString(p.pid())).hasSize(3);
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    @Test
    void optionsNamingAFileNameOneForEachChild(@TempDir Path dir) {
        assertThat(Forks.childJvmOptions(List.of("-Xmx1g", "-XX:HeapDumpPath=/d/heap.hprof", "-XX:ErrorFile=hs_err",
                "-Xloggc:/var/log/a.b/gc", "-XX:+HeapDumpOnOutOfMemoryError", "-XX:LogFile=vm.log"), 2))
                .containsExactly("-Xmx1g", "-XX:HeapDumpPath=/d/heap-jvm2.hprof", "-XX:ErrorFile=hs_err-jvm2",
                        "-Xloggc:/var/log/a.b/gc-jvm2", "-XX:+HeapDumpOnOutOfMemoryError",
                        "-XX:LogFile=vm-jvm2.log");
        assertThat(Forks.childJvmOptions(List.of("-Xlog:gc*:file=gc.log:uptime,pid:filecount=3",
                "-Xlog:safepoint:s.txt", "-Xlog:gc:\"q:x.log\"::filesize=1m", "-Xlog:gc:file=\"q.log\"",
                "-Xlog:gc:stderr", "-Xlog:gc:stdout:pid", "-Xlog", "-Xlog:disable", "-Xlog:gc=debug",
                "-Xlog:gc::pid"), 3))
                .containsExactly("-Xlog:gc*:file=gc-jvm3.log:uptime,pid:filecount=3", "-Xlog:safepoint:s-jvm3.txt",
                        "-Xlog:gc:\"q:x-jvm3.log\"::filesize=1m", "-Xlog:gc:file=\"q-jvm3.log\"",
                        "-Xlog:gc:stderr", "-Xlog:gc:stdout:pid", "-Xlog", "-Xlog:disable", "-Xlog:gc=debug",
                        "-Xlog:gc::pid");
        // a drive letter, as the JVM reads it on Windows
        assertThat(Forks.childJvmOptions(List.of("-Xlog:gc:file=C:\\logs\\gc.log:pid", "-Xlog:gc:C:\\gc:pid"), 1))
                .containsExactly("-Xlog:gc:file=C:\\logs\\gc-jvm1.log:pid", "-Xlog:gc:C:\\gc-jvm1:pid");
        // a heap dump directory: the JVM names the file in it after its pid itself
        assertThat(Forks.childJvmOptions(List.of("-XX:HeapDumpPath=" + dir), 1))
                .containsExactly("-XX:HeapDumpPath=" + dir);
    }

    private static Set<String> pids(Path log) {
        Set<String> out = new TreeSet<>();
        try {
            Matcher m = Pattern.compile("^\\[(\\d+)\\]", Pattern.MULTILINE)
                    .matcher(Files.readString(log, StandardCharsets.UTF_8));
            while (m.find()) {
                out.add(m.group(1));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }
}
