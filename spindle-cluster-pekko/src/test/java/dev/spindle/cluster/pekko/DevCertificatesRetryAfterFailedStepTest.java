/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code keytool} step that fails midway through making a store must leave nothing a retry
 * trips on. A member's store was written under its own name by the first step and completed by
 * the later ones: when one of those failed, the store stayed, without its CA-signed certificate,
 * and every retry was refused ("the member's key store exists"). The CA's store likewise: left
 * without the trust store, a retry took the CA as made and returned a trust store that did not
 * exist.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class DevCertificatesRetryAfterFailedStepTest {

    private static final String PASSWORD = "a-chosen-password";

    /** What {@code createCa} leaves in a directory: the member case starts from a copy of it. */
    private static final String[] CA_FILES = {DevCertificates.CA_STORE, DevCertificates.TRUST_STORE, "ca.pem"};

    /**
     * A CA made once for the class: the member case is about the steps after it, and each
     * {@code keytool} step is a JVM of its own (three for a CA), the bulk of this class's time.
     */
    @TempDir
    static Path caDir;

    @BeforeAll
    static void createCaOnce() throws IOException {
        new DevCertificates(caDir, PASSWORD).createCa();
        // were createCa to leave more, a copy of these would no longer be the CA it makes
        assertThat(files(caDir)).as("what createCa leaves").containsExactlyInAnyOrder(CA_FILES);
    }

    @Test
    void aMemberWhoseSigningFailedCanBeMadeAgain(@TempDir Path dir) throws Exception {
        DevCertificates certs = new DevCertificates(dir, PASSWORD);
        for (String f : CA_FILES) {
            Files.copy(caDir.resolve(f), dir.resolve(f));
        }
        // the CA's certificate, which each member's store imports, gone: the fourth step fails,
        // after the key pair, the request and the signed certificate have been made
        Path pem = dir.resolve("ca.pem");
        byte[] caCertificate = Files.readAllBytes(pem);
        Files.delete(pem);
        assertThatThrownBy(() -> certs.createMember("m1")).isInstanceOf(IOException.class)
                .hasMessageContaining("keytool -importcert failed");
        assertThat(certs.memberStore("m1")).as("a store without its signed certificate").doesNotExist();
        assertThat(files(dir)).as("what the failure left").containsExactlyInAnyOrder(
                DevCertificates.CA_STORE, DevCertificates.TRUST_STORE);

        Files.write(pem, caCertificate);
        Path store = certs.createMember("m1");
        assertThat(chainLength(store)).as("the retry's store: the member and the CA").isEqualTo(2);
    }

    @Test
    void aCaWhoseTrustStoreFailedCanBeMadeAgain(@TempDir Path dir) throws Exception {
        DevCertificates certs = new DevCertificates(dir, PASSWORD);
        // keytool cannot write the CA's certificate where a directory stands: the second step fails
        Path pem = Files.createDirectory(dir.resolve("ca.pem"));
        assertThatThrownBy(certs::createCa).isInstanceOf(IOException.class)
                .hasMessageContaining("keytool -exportcert failed");
        assertThat(dir.resolve(DevCertificates.CA_STORE)).as("a CA without its trust store").doesNotExist();
        assertThat(files(dir)).as("what the failure left").containsExactly("ca.pem");

        Files.delete(pem);
        Path trust = certs.createCa();
        assertThat(trust).exists();
        assertThat(chainLength(certs.createMember("m1"))).isEqualTo(2);
    }

    private static int chainLength(Path store) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, PASSWORD.toCharArray());
        }
        return ks.getCertificateChain("member").length;
    }

    private static String[] files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).toArray(String[]::new);
        }
    }
}
