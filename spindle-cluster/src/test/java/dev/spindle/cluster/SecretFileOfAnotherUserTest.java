/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import dev.spindle.cluster.testkit.OtherUser;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A secret file is refused if others may read it, but was taken from anyone: a file that another
 * user made (a worker run as root, given {@code --secret-file /tmp/spindle-secret} that a local
 * user had created beforehand, mode 600 and theirs) was read, and its owner, who may read it or
 * change its mode at will, had the cluster's secret, or had chosen it. So was a file in a
 * directory anyone may write in, where another user replaces it with a secret of their own before
 * the worker starts (it then follows their coordinator). Both are refused now, as {@code ssh}
 * refuses such key files; a sticky directory ({@code /tmp}) lets only a file's owner replace it.
 */
class SecretFileOfAnotherUserTest {

    private static final Set<String> OPTIONS = Set.of("--secret-file");

    private static String secret(Path file) {
        return WorkerCommandLine.parse(new String[] {"--secret-file", file.toString()}, OPTIONS)
                .secret("--secret-file", Map.of(), "SPINDLE_SECRET", "secret");
    }

    @Test
    void aSecretFileOfAnotherUserIsRefused(@TempDir Path dir) throws Exception {
        UserPrincipal nobody = OtherUser.nobody(dir);
        Path file = Files.writeString(dir.resolve("secret"), "chosen-by-nobody");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Files.setOwner(file, nobody);

        assertThatThrownBy(() -> secret(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--secret-file " + file + ": the file belongs to nobody, who has the secret: make it"
                        + " yours (or root's), or set SPINDLE_SECRET instead");
    }

    @Test
    void aSecretFileInADirectoryAnyoneMayWriteInIsRefused(@TempDir Path dir) throws Exception {
        assumeTrue(posix(dir), "a file system with POSIX permissions");
        Path open = Files.createDirectory(dir.resolve("open"));
        Path file = Files.writeString(open.resolve("secret"), "s3cret");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThatThrownBy(() -> secret(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("--secret-file " + file + ": anyone may write in " + open + " (not sticky), and put"
                        + " a secret of their own in its place: keep it elsewhere, or set SPINDLE_SECRET instead");

        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxr-xr-x"));   // only its owner writes
        assertThat(secret(file)).isEqualTo("s3cret");
    }

    private static boolean posix(Path dir) throws IOException {
        return Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class);
    }
}
