/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.cluster.testkit.OtherUser;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secret file of another user is refused ({@link SecretFileOfAnotherUserTest}), but only a
 * regular file was looked at: a named pipe was read whoever it belonged to and wherever it lay
 * (the exemption is for {@code --secret-file <(command)}, a pipe of the worker's own user). A local
 * user who made {@code /tmp/spindle-secret} a pipe of theirs before a worker run as root was given
 * that path wrote the secret of their choosing into it, and the worker followed their
 * coordinator. A pipe is now refused as a file is if it belongs to another user, or lies in a
 * directory anyone may write in; one of the worker's own user in a directory of its own is read.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SecretPipeOfAnotherUserTest {

    private static final Set<String> OPTIONS = Set.of("--secret-file");

    private static String secret(Path file) {
        return WorkerCommandLine.parse(new String[] {"--secret-file", file.toString()}, OPTIONS)
                .secret("--secret-file", Map.of(), "SPINDLE_SECRET", "secret");
    }

    private static Path fifo(Path at) throws Exception {
        Process mkfifo = new ProcessBuilder("mkfifo", at.toString()).start();
        assumeTrue(mkfifo.waitFor() == 0, "mkfifo");
        return at;
    }

    /**
     * Writes {@code text} into the pipe once a reader opens it (on a thread of its own, which a
     * pipe nobody reads holds: see {@link #release}).
     */
    private static CompletableFuture<Void> writeInto(Path pipe, String text) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread writer = new Thread(() -> {
            try (OutputStream out = Files.newOutputStream(pipe)) {
                out.write(text.getBytes(StandardCharsets.UTF_8));
            } catch (IOException readerGone) {
                // released unread (see release)
            } finally {
                done.complete(null);
            }
        }, "pipe-writer");
        writer.setDaemon(true);
        writer.start();
        return done;
    }

    /**
     * Ends the writer, whether or not the pipe was read: opened for reading and writing, a pipe
     * never waits for a partner, and a writer still waiting for a reader goes on.
     */
    private static void release(Path pipe, CompletableFuture<Void> writer) throws Exception {
        try (FileChannel ignored = FileChannel.open(pipe, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            writer.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPipeOfAnotherUserIsRefused(@TempDir Path dir) throws Exception {
        UserPrincipal nobody = OtherUser.nobody(dir);
        Path pipe = fifo(dir.resolve("spindle-secret"));
        Files.setPosixFilePermissions(pipe, PosixFilePermissions.fromString("rw-------"));
        Files.setOwner(pipe, nobody);
        CompletableFuture<Void> writer = writeInto(pipe, "chosen-by-nobody");
        try {
            // before: "chosen-by-nobody" was the secret
            assertThatThrownBy(() -> secret(pipe)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--secret-file " + pipe + ": the file belongs to nobody, who has the secret: make it"
                            + " yours (or root's), or set SPINDLE_SECRET instead");
        } finally {
            release(pipe, writer);
        }
    }

    @Test
    void aPipeInADirectoryAnyoneMayWriteInIsRefused(@TempDir Path dir) throws Exception {
        OtherUser.nobody(dir);                // POSIX permissions, as root
        Path open = Files.createDirectory(dir.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path pipe = fifo(open.resolve("spindle-secret"));
        CompletableFuture<Void> writer = writeInto(pipe, "s3cret");
        try {
            // before: read, though anyone could have put a pipe of their own there
            assertThatThrownBy(() -> secret(pipe)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("--secret-file " + pipe + ": anyone may write in " + open + " (not sticky), and put"
                            + " a secret of their own in its place: keep it elsewhere, or set SPINDLE_SECRET instead");
        } finally {
            release(pipe, writer);
        }
    }

    @Test
    void aPipeOfTheWorkersOwnUserIsRead(@TempDir Path dir) throws Exception {
        OtherUser.nobody(dir);
        Path pipe = fifo(dir.resolve("spindle-secret"));
        CompletableFuture<Void> writer = writeInto(pipe, "s3cret\n");
        try {
            assertThat(secret(pipe)).isEqualTo("s3cret");
        } finally {
            release(pipe, writer);
        }
    }

    /**
     * The shell's {@code --secret-file <(command)}: a pipe that no directory holds, named by a
     * link under {@code /proc} that resolves to no path. Here the read end of a child's standard
     * input, which the child never reads.
     */
    @Test
    void aPipeThatNoDirectoryHoldsIsStillRead(@TempDir Path dir) throws Exception {
        OtherUser.nobody(dir);
        Process child = new ProcessBuilder("sleep", "60").redirectInput(ProcessBuilder.Redirect.PIPE).start();
        try {
            Path pipe = Path.of("/proc/" + child.pid() + "/fd/0");
            assumeTrue(Files.exists(pipe), "/proc");
            try (OutputStream in = child.getOutputStream()) {
                in.write("s3cret\n".getBytes(StandardCharsets.UTF_8));
            }
            assertThat(secret(pipe)).isEqualTo("s3cret");
        } finally {
            child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
