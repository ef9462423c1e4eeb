/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.testkit.OtherUser;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.KeyStore;
import java.security.PublicKey;
import java.security.cert.Certificate;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./spindle certs DIR m1} into a directory that another local user may write in (made by
 * them, {@code /tmp/certs} say, or opened with {@code chmod 777}): that user put their own CA
 * there beforehand ({@code ca.p12}, {@code truststore.p12}, {@code ca.pem}) with the password file that opens it.
 * The command took the CA as one it had made, since a CA store under its own name is complete,
 * read the password from the planted file, and signed m1 with the other user's CA: the cluster's
 * trust store was theirs, and with their CA key they mint members that every worker and the
 * coordinator admit. Such a directory (and one owned by another user) must be refused before
 * anything in it is read or written.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DevCertificatesInAWritableDirectoryTest {

    @Test
    void aCaPlantedInADirectoryOthersMayWriteIsNotUsed(@TempDir Path tmp) throws Exception {
        assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
        Path planted = plantedCa(tmp);
        Path dir = Files.createDirectory(tmp.resolve("certs"));
        for (String f : new String[] {DevCertificates.CA_STORE, DevCertificates.TRUST_STORE, "ca.pem"}) {
            Files.copy(planted.resolve(f), dir.resolve(f));
        }
        Files.writeString(dir.resolve(DevCertificates.PASSWORD_FILE), "the-other-users-password\n");
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));

        Throwable refused = catchThrowable(() -> run(dir, "m1"));

        if (refused == null) {
            assertThat(signedByThePlantedCa(dir, planted)).as("m1 signed by the CA another user planted").isFalse();
        }
        assertThat(refused).as("the directory refused").isInstanceOf(IOException.class)
                .hasMessageContaining("others than its owner may write");
        assertThat(dir.resolve("m1.p12")).doesNotExist();
    }

    @Test
    void aGroupWritableDirectoryIsRefusedAndAnOwnersOneIsNot(@TempDir Path tmp) throws Exception {
        assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
        Path dir = Files.createDirectory(tmp.resolve("certs"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxr-x"));
        DevCertificates certs = new DevCertificates(dir, "a-chosen-password");

        assertThat(catchThrowable(certs::createCa)).isInstanceOf(IOException.class)
                .hasMessageContaining("others than its owner may write").hasMessageContaining("chmod go-w");
        assertThat(catchThrowable(() -> DevCertificates.password(dir))).isInstanceOf(IOException.class);
        assertThat(dir.resolve(DevCertificates.CA_STORE)).doesNotExist();

        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));   // readable is enough
        assertThat(certs.createCa()).exists();
    }

    @Test
    void aDirectoryOfAnotherUserIsRefused(@TempDir Path tmp) throws Exception {
        UserPrincipal nobody = OtherUser.nobody(tmp);
        Path dir = Files.createDirectory(tmp.resolve("certs"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setOwner(dir, nobody);

        assertThat(catchThrowable(() -> new DevCertificates(dir, "a-chosen-password").createCa()))
                .isInstanceOf(IOException.class).hasMessageContaining("belongs to nobody");
        assertThat(dir.resolve(DevCertificates.CA_STORE)).doesNotExist();
    }

    /** What {@code ./spindle certs DIR member} does ({@link DevCertificates#main}, without its exit). */
    private static void run(Path dir, String member) throws IOException {
        DevCertificates certs = new DevCertificates(dir, DevCertificates.password(dir));
        certs.createCa();
        certs.createMember(member);
    }

    /** The other user's CA, made in a directory of its own: its key store, trust store and password. */
    private static Path plantedCa(Path tmp) throws IOException {
        Path planted = tmp.resolve("planted");
        new DevCertificates(planted, "the-other-users-password").createCa();
        return planted;
    }

    private static boolean signedByThePlantedCa(Path dir, Path planted) throws Exception {
        PublicKey plantedCa = load(planted.resolve(DevCertificates.CA_STORE), "the-other-users-password")
                .getCertificate("ca").getPublicKey();
        Certificate[] chain = load(dir.resolve("m1.p12"), "the-other-users-password").getCertificateChain("member");
        try {
            chain[0].verify(plantedCa);
            return true;
        } catch (java.security.GeneralSecurityException notIt) {
            return false;
        }
    }

    private static KeyStore load(Path store, String password) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, password.toCharArray());
        }
        return ks;
    }
}
