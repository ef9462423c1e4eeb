/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./spindle certs DIR} into a directory that exists already and that other local users may
 * enter and read (made with {@code mkdir} under the usual umask, or {@code .}): a key store was
 * made there by {@code keytool} as the umask allows (readable by all) and only then made the
 * owner's, and the password file was created readable by all and only then narrowed. Another user
 * who opens such a file in between keeps reading it through that descriptor: the CA's private
 * key (its password then falls to an offline guess) or the password itself, once written. Played
 * here as that user would see the directory after each step; every file holding a secret must be
 * out of their reach at every step, not only at the end.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DevCertificatesInASharedDirectoryTest {

    /** What another user needs to open a file: read on it and search on each directory above it. */
    private static final Set<PosixFilePermission> OTHERS_READ = Set.of(PosixFilePermission.GROUP_READ,
            PosixFilePermission.OTHERS_READ);

    @AfterEach
    void noHook() {
        DevCertificates.afterEachStep = null;
    }

    @Test
    void noKeyStoreIsWithinAnotherUsersReachAtAnyStep(@TempDir Path tmp) throws Exception {
        Path dir = sharedDirectory(tmp);
        List<String> exposed = new ArrayList<>();
        DevCertificates.afterEachStep = () -> exposed.addAll(reachableSecrets(dir));
        DevCertificates certs = new DevCertificates(dir, "a-chosen-password");
        certs.createMember("m1");
        certs.createSelfSigned("m2");

        assertThat(exposed).as("files holding a private key that another user could open, step by step").isEmpty();
        assertThat(reachableSecrets(dir)).as("at the end").isEmpty();
    }

    @Test
    void theGeneratedPasswordFileIsNeverWithinAnotherUsersReach(@TempDir Path tmp) throws Exception {
        assumeThat(System.getenv("SPINDLE_STORE_PASSWORD")).as("a generated password").isNull();
        Path dir = sharedDirectory(tmp);
        List<String> exposed = new ArrayList<>();
        DevCertificates.afterEachStep = () -> exposed.addAll(reachableSecrets(dir));
        String password = DevCertificates.password(dir);

        assertThat(exposed).as("the password file, as it was created").isEmpty();
        assertThat(Files.readString(dir.resolve(DevCertificates.PASSWORD_FILE)).strip()).isEqualTo(password);
        assertThat(reachableSecrets(dir)).as("at the end").isEmpty();
    }

    /** A directory that exists before the command runs, which others may enter and list. */
    private static Path sharedDirectory(Path tmp) throws IOException {
        assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
        Path dir = Files.createDirectory(tmp.resolve("certs"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        return dir;
    }

    /**
     * The files under {@code dir} holding a private key or the password that another user could
     * open: readable by group or others, in directories (from {@code dir} down) they may all search.
     */
    private static List<String> reachableSecrets(Path dir) {
        try (Stream<Path> all = Files.walk(dir)) {
            return all.filter(Files::isRegularFile).filter(DevCertificatesInASharedDirectoryTest::secret)
                    .filter(f -> searchable(dir, f.getParent()) && readable(f))
                    .map(f -> dir.relativize(f) + " " + permissions(f)).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean secret(Path f) {
        String name = f.getFileName().toString();
        return name.equals(DevCertificates.PASSWORD_FILE)
                || (name.contains(".p12") && !name.startsWith(DevCertificates.TRUST_STORE));
    }

    private static boolean searchable(Path top, Path d) {
        for (Path p = d; p.startsWith(top); p = p.getParent()) {
            Set<PosixFilePermission> s = permissionSet(p);
            if (!s.contains(PosixFilePermission.OTHERS_EXECUTE) && !s.contains(PosixFilePermission.GROUP_EXECUTE)) {
                return false;
            }
            if (p.equals(top)) {
                break;
            }
        }
        return true;
    }

    private static boolean readable(Path f) {
        return permissionSet(f).stream().anyMatch(OTHERS_READ::contains);
    }

    private static String permissions(Path f) {
        return PosixFilePermissions.toString(permissionSet(f));
    }

    private static Set<PosixFilePermission> permissionSet(Path p) {
        try {
            return Files.getPosixFilePermissions(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
