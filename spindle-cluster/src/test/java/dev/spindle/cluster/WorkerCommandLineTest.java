/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A worker launcher's command line: one-line reasons for anything wrong, secrets never from arguments. */
class WorkerCommandLineTest {

    private static final Set<String> OPTIONS = Set.of("--id", "--cluster", "--port", "--members", "--secret-file",
            "--password-file");

    private static WorkerCommandLine parse(String... args) {
        return WorkerCommandLine.parse(args, OPTIONS);
    }

    @Test
    void readsOptionsWithDefaults() {
        WorkerCommandLine line = parse("--id", "3", "--cluster", "c", "--members", "a:1, b:2", "--id", "4");
        assertThat(line.help()).isFalse();
        assertThat(line.number("--id", -1, 0)).isEqualTo(4);          // the last one counts
        assertThat(line.number("--port", 5701, 1)).isEqualTo(5701);
        assertThat(line.text("--cluster", null)).isEqualTo("c");
        assertThat(line.list("--members")).containsExactly("a:1", "b:2");
        assertThat(line.list("--secret-file")).isEmpty();
        line.require("--id", "--cluster");
    }

    @Test
    void helpWins() {
        assertThat(parse("--id", "1", "--help").help()).isTrue();
        assertThat(parse("-h").help()).isTrue();
    }

    @Test
    void eachMistakeIsOneLine() {
        assertThatThrownBy(() -> parse("stray")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unexpected argument 'stray'");
        assertThatThrownBy(() -> parse("--id")).hasMessage("missing value after --id");
        assertThatThrownBy(() -> parse("--colour", "red")).hasMessage("unknown option --colour");
        assertThatThrownBy(() -> parse("--port", "abc").number("--port", 1, 1))
                .hasMessage("--port needs a whole number, got 'abc'");
        assertThatThrownBy(() -> parse("--port", "0").number("--port", 1, 1)).hasMessage("--port must be at least 1, got 0");
        assertThatThrownBy(() -> parse().require("--id")).hasMessage("--id is required");
        assertThatThrownBy(() -> parse("--id", "0").require("--id", "--cluster")).hasMessage("--id and --cluster are required");
        assertThatThrownBy(() -> parse().require("--id", "--cluster", "--members"))
                .hasMessage("--id, --cluster and --members are required");
    }

    @Test
    void theSecretComesFromAFileOrTheEnvironment(@TempDir Path dir) throws Exception {
        Path file = ownersOnly(Files.writeString(dir.resolve("secret"), "from-file\n"));
        Map<String, String> env = Map.of("SPINDLE_SECRET", "from-env");
        assertThat(parse("--secret-file", file.toString()).secret("--secret-file", env, "SPINDLE_SECRET", "secret"))
                .isEqualTo("from-file");
        assertThat(parse().secret("--secret-file", env, "SPINDLE_SECRET", "secret")).isEqualTo("from-env");
        assertThatThrownBy(() -> parse().secret("--secret-file", Map.of(), "SPINDLE_SECRET", "secret"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no secret: set SPINDLE_SECRET or pass --secret-file");
        String missing = dir.resolve("missing").toString();
        assertThatThrownBy(() -> parse("--secret-file", missing).secret("--secret-file", env, "SPINDLE_SECRET", "secret"))
                .hasMessage("--secret-file " + missing + ": no such file");
        assertThatThrownBy(() -> parse("--secret-file", dir.toString()).secret("--secret-file", env, "SPINDLE_SECRET",
                "secret")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot read it");
    }

    /**
     * A secret file that others on the machine may read was read as it was: anyone with an
     * account there had the cluster's secret. Refused now, as ssh refuses such a private key.
     */
    @Test
    void aSecretFileOthersMayReadIsRefused(@TempDir Path dir) throws Exception {
        assumeTrue(posix(dir), "a file system with POSIX permissions");
        for (String mode : List.of("rw-r--r--", "rw-r-----", "rw-----w-", "r--r--r--")) {
            Path file = Files.writeString(dir.resolve("secret-" + mode), "s3cret");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
            assertThatThrownBy(() -> parse("--secret-file", file.toString()).secret("--secret-file", Map.of(),
                    "SPINDLE_SECRET", "secret")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--secret-file " + file + ": others than its owner may read or write it (" + mode
                            + "), and have the secret: make it its owner's alone (chmod 600 " + file
                            + ") or set SPINDLE_SECRET instead");
        }
        for (String mode : List.of("rw-------", "r--------", "rwx------")) {
            Path file = Files.writeString(dir.resolve("own-" + mode), "s3cret");
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(mode));
            assertThat(parse("--secret-file", file.toString()).secret("--secret-file", Map.of(), "SPINDLE_SECRET",
                    "secret")).as(mode).isEqualTo("s3cret");
        }
    }

    /**
     * A secret file of any size was read whole into memory (a large file named by mistake, or a
     * file of gigabytes, an OutOfMemoryError) and a file just past the bound used as the secret.
     * Now refused before reading, naming the bound; this file of 3 GiB takes no room on the disk.
     */
    @Test
    void anOversizedSecretFileIsRefusedWithoutReadingIt(@TempDir Path dir) throws Exception {
        Path justOver = ownersOnly(Files.writeString(dir.resolve("over"),
                "x".repeat(WorkerCommandLine.MAX_SECRET_FILE_BYTES + 1)));
        Path atTheBound = ownersOnly(Files.writeString(dir.resolve("at"),
                "y".repeat(WorkerCommandLine.MAX_SECRET_FILE_BYTES)));
        Path huge = ownersOnly(Files.createFile(dir.resolve("huge")));
        try (RandomAccessFile f = new RandomAccessFile(huge.toFile(), "rw")) {
            f.setLength(3L << 30);
        }
        for (Path file : List.of(justOver, huge)) {
            assertThatThrownBy(() -> parse("--password-file", file.toString()).secret("--password-file", Map.of(),
                    "SPINDLE_STORE_PASSWORD", "store password")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--password-file " + file + ": more than 65536 bytes, not a store password (is it "
                            + "the right file?)");
        }
        assertThat(parse("--password-file", atTheBound.toString()).secret("--password-file", Map.of(),
                "SPINDLE_STORE_PASSWORD", "store password")).hasSize(WorkerCommandLine.MAX_SECRET_FILE_BYTES);
    }

    /** An empty secret file gave the empty secret, for the transport to refuse in its own words, or not at all. */
    @Test
    void anEmptySecretFileIsRefused(@TempDir Path dir) throws Exception {
        for (String content : List.of("", " \n\t\n")) {
            Path file = ownersOnly(Files.writeString(dir.resolve("empty" + content.length()), content));
            assertThatThrownBy(() -> parse("--secret-file", file.toString()).secret("--secret-file",
                    Map.of("SPINDLE_SECRET", "from-env"), "SPINDLE_SECRET", "secret"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--secret-file " + file + ": the file is empty; it must hold the secret");
        }
    }

    @Test
    void aMissingOrUnreadableSecretFileSaysWhich(@TempDir Path dir) throws Exception {
        String missing = dir.resolve("missing").toString();
        assertThatThrownBy(() -> parse("--password-file", missing).secret("--password-file", Map.of(),
                "SPINDLE_STORE_PASSWORD", "store password")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--password-file " + missing + ": no such file");
        Path binary = ownersOnly(Files.write(dir.resolve("binary"), new byte[] {(byte) 0xC3, 0x28}));
        assertThatThrownBy(() -> parse("--password-file", binary.toString()).secret("--password-file", Map.of(),
                "SPINDLE_STORE_PASSWORD", "store password")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--password-file " + binary + ": cannot read it (not UTF-8 text)");
    }

    /** Whether {@code dir}'s file system has POSIX permissions (not so on Windows). */
    private static boolean posix(Path dir) throws IOException {
        return Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class);
    }

    /** {@code file}, made readable and writable by its owner alone where the file system has permissions. */
    private static Path ownersOnly(Path file) throws IOException {
        if (posix(file)) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        }
        return file;
    }

    @Test
    void aUsageErrorIsTheReasonThenTheUsage() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        assertThat(WorkerCommandLine.usageError(err, "unknown option --x", "usage: w")).isEqualTo(WorkerCommandLine.USAGE);
        assertThat(bytes.toString(StandardCharsets.UTF_8).lines()).containsExactly("WorkerMain: unknown option --x",
                "usage: w");
    }

    @Test
    void readsTheMemoryLimitAndSpillDirectory(@TempDir Path dir) {
        Set<String> options = WorkerCommandLine.withMemoryOptions("--id");
        assertThat(WorkerCommandLine.parse(new String[] {"--id", "1"}, options).memory()).isEqualTo(WorkerMemory.NONE);
        assertThat(WorkerCommandLine.parse(new String[] {"--memory-limit", "64m", "--spill-dir", dir.toString()}, options)
                .memory()).isEqualTo(new WorkerMemory(64L << 20, dir));
        assertThat(WorkerCommandLine.parse(new String[] {"--memory-limit", "2G"}, options).memory().limitBytes())
                .isEqualTo(2L << 30);
        assertThat(WorkerCommandLine.parse(new String[] {"--memory-limit", "1000"}, options).memory().limitBytes())
                .isEqualTo(1000);
        for (String bad : List.of("0", "-1m", "lots", "12t", "m", "99999999999g")) {
            assertThatThrownBy(() -> WorkerCommandLine.parse(new String[] {"--memory-limit", bad}, options).memory())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--memory-limit needs a size in bytes of at least 1, such as 512m or 2g, got '"
                            + bad + "'");
        }
        assertThatThrownBy(() -> WorkerCommandLine.parse(new String[] {"--spill-dir", dir.resolve("none").toString()},
                options).memory()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no such directory");
    }
}
