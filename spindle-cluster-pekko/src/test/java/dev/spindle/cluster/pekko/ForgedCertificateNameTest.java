/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.testkit.Await;
import dev.spindle.cluster.testkit.FreePorts;
import dev.spindle.cluster.testkit.LogLines;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.apache.pekko.actor.ActorSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Anyone who can reach a member's port names themselves in its log: a refused TLS peer is logged
 * by its certificate's subject, which the peer made. The subject of a self-signed certificate may
 * hold any character, a line break and terminal escapes included, and was written into the
 * WARNING line as it was: a stranger without a certificate of the cluster's CA forged whole log
 * lines (here one that reads as a member let in), and a subject of kilobytes was kept as one of
 * the {@value Refusals#MAX_REMEMBERED} names remembered.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ForgedCertificateNameTest {

    private static final String FORGED = "WARNING: member worker-9 let in after its certificate was checked";

    @Test
    void aStrangersCertificateNameCannotWriteLinesIntoTheLog(@TempDir Path tmp) throws Exception {
        Path store = selfSigned(tmp, "CN=stranger\n" + FORGED + "\u001b[2K, O=" + "x".repeat(4000));
        LogLines log = LogLines.of(Refusals.class);
        List<String> lines = log.lines();
        Refusals refusals = new Refusals("member");
        int port = FreePorts.free();
        ActorSystem member = PekkoConfigs.start(TestCerts.settings("forged-name", "worker").port(port).build(),
                Roster.workerRoles(0, dev.spindle.cluster.Incarnations.newIncarnation()),
                new WireCodec(List.of(), PekkoClusterSettings.MIN_MESSAGE_BYTES), refusals);
        try {
            knock(store, port);
            Await.until("the member refused the stranger", Duration.ofSeconds(30), () -> refusals.count() > 0
                    && lines.stream().anyMatch(l -> l.contains("stranger")));
        } finally {
            log.close();
            PekkoConfigs.stop(member);
        }

        String line = lines.stream().filter(l -> l.contains("stranger")).findFirst().orElseThrow();
        assertThat(line).as("the refusal's log line").doesNotContain("\n").doesNotContain("\r")
                .doesNotContain("\u001b").hasSizeLessThan(1000);
        assertThat(line).as("the name, escaped").contains("CN=stranger\\n" + FORGED + "\\u001b[2K")
                .containsPattern("\\(SHA-256 [0-9a-f]{16}\\.\\.\\.\\)");
    }

    /** A self-signed key store whose certificate has {@code subject}, made with the JDK's keytool. */
    private static Path selfSigned(Path dir, String subject) throws Exception {
        Path store = dir.resolve("stranger.p12");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "stranger", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", subject,
                "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", "stranger",
                "-keypass", "stranger").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
        return store;
    }

    /** Connects with that certificate, as a member would, and sends a byte. */
    private static void knock(Path store, int port) throws Exception {
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "stranger".toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, "stranger".toCharArray());
        TrustManager trustAll = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) {
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), new TrustManager[] {trustAll}, null);
        try (SSLSocket s = (SSLSocket) tls.getSocketFactory().createSocket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 10_000);
            s.setSoTimeout(10_000);
            s.startHandshake();
            OutputStream out = s.getOutputStream();
            out.write(1);
            out.flush();
            s.getInputStream().read();         // the member's alert, or the connection closed
        } catch (java.io.IOException refused) {
            // what a stranger gets
        }
    }
}
