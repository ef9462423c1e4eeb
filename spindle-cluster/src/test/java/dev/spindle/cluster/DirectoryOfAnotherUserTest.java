/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.testkit.OtherUser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files a member trusts (a secret, a spill directory) were refused under a directory anyone
 * may write in, not sticky, but let be under a directory of another user's that only its owner may
 * write in: that owner may rename any entry in it, sticky or not, and put their own in its place
 * (a secret of their choosing, a spill directory of theirs that a racing spill writes a task's
 * value into). Refused now, as {@code ssh} refuses a key under a directory another user owns; a
 * directory of root's (which may change any file anyway) is let be.
 */
class DirectoryOfAnotherUserTest {

    private static Path theirs(Path dir, UserPrincipal owner) throws Exception {
        Path theirs = Files.createDirectory(dir.resolve("theirs"));
        Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setOwner(theirs, owner);
        return theirs;
    }

    @Test
    void aSecretFileInADirectoryOfAnotherUserIsRefused(@TempDir Path dir) throws Exception {
        UserPrincipal nobody = OtherUser.nobody(dir);
        Path theirs = Files.createDirectory(dir.resolve("theirs"));
        Path file = Files.writeString(theirs.resolve("secret"), "s3cret");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setOwner(theirs, nobody);

        // before: "s3cret", though nobody could have put a secret of their own there
        assertThatThrownBy(() -> WorkerCommandLine.parse(new String[] {"--secret-file", file.toString()},
                Set.of("--secret-file")).secret("--secret-file", Map.of(), "SPINDLE_SECRET", "secret"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--secret-file " + file + ": " + theirs + " belongs to nobody, who may put a secret of"
                        + " their own in its place: keep it elsewhere, or set SPINDLE_SECRET instead");
    }

    @Test
    void aSpillParentInADirectoryOfAnotherUserIsRefused(@TempDir Path dir) throws Exception {
        UserPrincipal nobody = OtherUser.nobody(dir);
        Path theirs = theirs(dir, nobody);

        // before: accepted, and spilled under
        assertThatThrownBy(() -> new WorkerMemory(64L << 20, theirs)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("spill directory parent " + theirs + ": " + theirs + " belongs to nobody, who may move"
                        + " the worker's spill directory aside for one of their own: choose another");
        assertThatThrownBy(() -> WorkerCommandLine.parse(new String[] {"--memory-limit", "64m", "--spill-dir",
                theirs.toString()}, WorkerCommandLine.withMemoryOptions()).memory())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--spill-dir " + theirs + ": " + theirs + " belongs to nobody, who may move the worker's"
                        + " spill directory aside for one of their own: choose another");
    }

    @Test
    void aSpillParentGivenAwayAfterItsCheckIsNotSpilledUnder(@TempDir Path dir) throws Exception {
        UserPrincipal nobody = OtherUser.nobody(dir);
        Path parent = Files.createDirectory(dir.resolve("parent"));
        Path mine = Files.createDirectory(parent.resolve("mine"));
        WorkerMemory memory = new WorkerMemory(1_000, mine);
        Files.setOwner(parent, nobody);

        DataStore store = new DataStore(memory);
        try {
            for (int i = 0; i < 10; i++) {
                store.put("v" + i, new byte[100], 100);
            }
            // before: 4 spills, in a directory that nobody could move aside
            assertThat(store.spills()).isZero();
            assertThat(store.stuck()).isTrue();
            try (Stream<Path> in = Files.list(mine)) {
                assertThat(in).isEmpty();
            }
        } finally {
            store.clear();
        }
    }
}
