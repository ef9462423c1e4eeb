/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DevCertificatesTest {

    private static KeyStore load(Path store) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, TestCerts.PASSWORD.toCharArray());
        }
        return ks;
    }

    @Test
    void aMemberStoreHoldsItsKeyAndACertificateChainToTheCa() throws Exception {
        DevCertificates certs = TestCerts.get();
        Certificate[] chain = load(certs.memberStore("worker")).getCertificateChain("member");
        assertThat(chain).hasSize(2);
        X509Certificate member = (X509Certificate) chain[0];
        X509Certificate ca = (X509Certificate) chain[1];
        member.verify(ca.getPublicKey());
        assertThat(ca.getBasicConstraints()).as("the CA is a CA").isGreaterThanOrEqualTo(0);
        assertThat(member.getBasicConstraints()).as("a member is not").isEqualTo(-1);
        assertThat(member.getExtendedKeyUsage()).contains("1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2");
        assertThat(member.getSubjectAlternativeNames()).contains(List.of(7, "127.0.0.1"), List.of(2, "localhost"));

        KeyStore trust = load(certs.trustStore());
        assertThat(java.util.Collections.list(trust.aliases())).containsExactly("spindle-ca");
        assertThat(trust.getCertificate("spindle-ca")).isEqualTo(ca);
    }

    @Test
    void aSelfSignedStoreIsSignedByNoCa() throws Exception {
        Certificate[] chain = load(TestCerts.get().memberStore("stranger")).getCertificateChain("member");
        assertThat(chain).hasSize(1);
        X509Certificate self = (X509Certificate) chain[0];
        assertThat(self.getIssuerX500Principal()).isEqualTo(self.getSubjectX500Principal());
    }

    @Test
    void badNamesAndExistingMembersAreRefusedBeforeKeytoolRuns(@TempDir Path dir) {
        DevCertificates certs = new DevCertificates(dir, "password");
        assertThatThrownBy(() -> certs.createMember("../evil")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a usable member name");
        assertThatThrownBy(() -> certs.createMember("ca")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DevCertificates(dir, "short")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TestCerts.get().createMember("worker")).isInstanceOf(FileAlreadyExistsException.class);
    }

    @Test
    void theScriptPrintsUsageAndExitsWith2WithoutADirectory() throws Exception {
        TestCerts.ScriptRun run = TestCerts.runCertsScript();
        assertThat(run.status()).as(run.output()).isEqualTo(2);
        assertThat(run.output()).contains("spindle certs: no directory given").contains("usage: spindle certs DIR");
    }
}
