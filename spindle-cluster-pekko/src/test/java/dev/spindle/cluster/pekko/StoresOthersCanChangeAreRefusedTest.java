/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.testkit.OtherUser;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trust store decides who may join the cluster, and the store password does not protect it:
 * a PKCS12 file written without an integrity MAC is read under any password (shown first below),
 * so another local user who may change the file, or the directory it is in, puts their own CA
 * in it, and the member admits every certificate that CA signs (a worker of theirs gets the
 * coordinator's tasks and returns results of their choosing). The settings accepted such stores;
 * a store that others than its owner (and root) may change, or that lies in a directory anyone may
 * write in without the sticky bit, is refused now, as the secret files of the worker launchers
 * are.
 */
// a hang guard: the first class to use TestCerts makes the stores, a dozen keytool JVMs, which
// took over 60 s with the machine loaded (load 37 on 2 cores)
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StoresOthersCanChangeAreRefusedTest {

    @Test
    void aTrustStoreWithoutAMacIsReadUnderAnyPassword(@TempDir Path tmp) throws Exception {
        // the premise: file permissions are all that keeps a trust store the operator's
        KeyStore planted = KeyStore.getInstance("PKCS12");
        planted.load(null, null);
        planted.setCertificateEntry("spindle-ca", caCertificate());
        Path file = tmp.resolve("planted.p12");
        String[] none = {"keystore.pkcs12.macAlgorithm", "keystore.pkcs12.certProtectionAlgorithm"};
        try {
            for (String p : none) {
                System.setProperty(p, "NONE");
            }
            try (var out = Files.newOutputStream(file)) {
                planted.store(out, "whatever".toCharArray());
            }
        } finally {
            for (String p : none) {
                System.clearProperty(p);
            }
        }
        KeyStore read = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            read.load(in, TestCerts.PASSWORD.toCharArray());
        }
        assertThat(Collections.list(read.aliases())).containsExactly("spindle-ca");
    }

    @Test
    void aTrustStoreOthersMayWriteIsRefused(@TempDir Path tmp) throws Exception {
        assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
        Path trust = copy(TestCerts.get().trustStore(), tmp.resolve("truststore.p12"));
        Files.setPosixFilePermissions(trust, PosixFilePermissions.fromString("rw-r--rw-"));

        assertThatThrownBy(() -> settings(TestCerts.get().memberStore("worker"), trust))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("trust store")
                .hasMessageContaining("others than its owner may change it");

        Files.setPosixFilePermissions(trust, PosixFilePermissions.fromString("rw-r--r--"));   // readable is enough
        assertThat(settings(TestCerts.get().memberStore("worker"), trust).build().trustStore()).isEqualTo(trust);
    }

    @Test
    void aKeyStoreOthersMayWriteIsRefused(@TempDir Path tmp) throws Exception {
        assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
        Path key = copy(TestCerts.get().memberStore("worker"), tmp.resolve("worker.p12"));
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-----w-"));

        assertThatThrownBy(() -> settings(key, TestCerts.get().trustStore()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key store")
                .hasMessageContaining("others than its owner may change it");
    }

    @Test
    void aStoreInADirectoryAnyoneMayWriteInIsRefused(@TempDir Path tmp) throws Exception {
        assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
        Path open = Files.createDirectory(tmp.resolve("open"));
        Path trust = copy(TestCerts.get().trustStore(), open.resolve("truststore.p12"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));

        assertThatThrownBy(() -> settings(TestCerts.get().memberStore("worker"), trust))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("anyone may write in " + open);
    }

    @Test
    void aStoreOfAnotherUserIsRefused(@TempDir Path tmp) throws Exception {
        UserPrincipal nobody = OtherUser.nobody(tmp);
        Path trust = copy(TestCerts.get().trustStore(), tmp.resolve("truststore.p12"));
        Files.setPosixFilePermissions(trust, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setOwner(trust, nobody);

        assertThatThrownBy(() -> settings(TestCerts.get().memberStore("worker"), trust))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("belongs to nobody");
    }

    /**
     * A store of this user's in a directory of another user's (not open to all): its owner may
     * rename the store aside and put theirs in its place, sticky or not, and was let be; refused
     * now, as a directory anyone may write in is.
     */
    @Test
    void aStoreInADirectoryOfAnotherUserIsRefused(@TempDir Path tmp) throws Exception {
        UserPrincipal nobody = OtherUser.nobody(tmp);
        Path theirs = Files.createDirectory(tmp.resolve("theirs"));
        Path trust = copy(TestCerts.get().trustStore(), theirs.resolve("truststore.p12"));
        Files.setPosixFilePermissions(trust, PosixFilePermissions.fromString("rw-r--r--"));
        Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setOwner(theirs, nobody);

        // before: accepted
        assertThatThrownBy(() -> settings(TestCerts.get().memberStore("worker"), trust))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("trust store " + trust + ": " + theirs + " belongs to nobody, who may replace the store"
                        + " with one of their own: keep it elsewhere");
    }

    /**
     * A store named through a link is checked where the link leads, but Pekko read it later by the
     * name given: a link that lies in a directory anyone may write in (or another user's) can be
     * pointed at a store of someone else's once the check has passed, and the member then
     * trusted their CA. The member now reads the very file checked.
     */
    @Test
    void aStoreNamedThroughALinkIsReadWhereItWasChecked(@TempDir Path tmp) throws Exception {
        assumeThat(FileSystems.getDefault().supportedFileAttributeViews()).contains("posix");
        Path mine = Files.createDirectory(tmp.resolve("mine"));
        Path trust = copy(TestCerts.get().trustStore(), mine.resolve("truststore.p12"));
        Path planted = copy(TestCerts.get().trustStore(), tmp.resolve("planted.p12"));
        Path open = Files.createDirectory(tmp.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path link = Files.createSymbolicLink(open.resolve("truststore.p12"), trust);

        PekkoClusterSettings s = settings(TestCerts.get().memberStore("worker"), link).build();
        Files.delete(link);                   // anyone may: the directory is open to all
        Files.createSymbolicLink(link, planted);

        // before: the link, which now leads to the planted store
        assertThat(PekkoConfigs.config(s, List.of()).getString("pekko.remote.artery.ssl.config-ssl-engine.trust-store"))
                .isEqualTo(trust.toRealPath().toString());
        assertThat(s.trustStore()).isEqualTo(link.toAbsolutePath());
    }

    private static PekkoClusterSettings.Builder settings(Path keyStore, Path trustStore) {
        return PekkoClusterSettings.builder("jobs", keyStore, trustStore, TestCerts.PASSWORD);
    }

    private static Path copy(Path from, Path to) throws IOException {
        return Files.copy(from, to);
    }

    private static Certificate caCertificate() throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(TestCerts.get().trustStore())) {
            trust.load(in, TestCerts.PASSWORD.toCharArray());
        }
        return trust.getCertificate("spindle-ca");
    }
}
