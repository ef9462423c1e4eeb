/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.LogText;
import java.net.Socket;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Map;
import java.util.WeakHashMap;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.remote.artery.tcp.ConfigSSLEngineProvider;

/**
 * Artery's TLS engine provider, made to report refusals: every inbound connection whose TLS
 * handshake fails (no TLS, no certificate, a certificate the trust store rejects) is counted and
 * logged, once per offender, in the member's {@link Refusals}; so is a server this member
 * refuses when it connects out. Pekko itself drops such peers silently (only at DEBUG), which
 * would leave an operator blind to someone knocking with a wrong certificate. The TLS version,
 * cipher suites and mutual authentication come from
 * {@code pekko.remote.artery.ssl.config-ssl-engine} as for Pekko's own provider.
 *
 * <p>How a refusal is attributed: the trust manager sees the peer's certificate and remembers
 * why it refused it, by engine; the engine's wrapper ({@link GuardedEngine}) sees the handshake
 * fail and counts it, under the certificate's name if the trust manager left one, else as a peer
 * without a certificate or without TLS. No CA names are advertised (see {@code getAcceptedIssuers}),
 * so a peer holding another CA's certificate sends it and is named.
 */
final class TlsGuard extends ConfigSSLEngineProvider {

    private final Refusals refused;
    /** Why the trust manager refused the certificate of an inbound handshake, by JSSE engine. */
    private final Map<SSLEngine, String> refusedCertificates = Collections.synchronizedMap(new WeakHashMap<>());

    TlsGuard(ActorSystem system, Refusals refused) {
        super(system);
        this.refused = refused;
    }

    @Override
    public SSLEngine createServerSSLEngine(String hostname, int port) {
        SSLEngine engine = super.createServerSSLEngine(hostname, port);
        return new GuardedEngine(engine, e -> {
            String certificate = refusedCertificates.remove(engine);
            refused.refuse(certificate != null ? certificate : "a peer without a certificate or without TLS",
                    "inbound TLS handshake failed: " + e.getMessage());
        });
    }

    @Override
    public TrustManager[] trustManagers() {
        TrustManager[] managers = super.trustManagers();
        for (int i = 0; i < managers.length; i++) {
            if (managers[i] instanceof X509ExtendedTrustManager x) {
                managers[i] = new Counting(x);
            }
        }
        return managers;
    }

    /** The longest part of a certificate's subject that names it, in characters. */
    static final int MAX_SUBJECT = 200;

    /**
     * "certificate CN=... (SHA-256 ab12cd34...)", a log line's name for the offender. The subject
     * is the peer's own making, any characters of any length (the JDK writes a line break in it as
     * it is): cut to {@value #MAX_SUBJECT} characters, so that the fingerprint after it is kept
     * within {@link Refusals}' bound, and made {@linkplain LogText#printable printable}.
     */
    static String describe(X509Certificate[] chain) {
        if (chain == null || chain.length == 0) {
            return "a peer without a certificate";
        }
        String subject = LogText.printable(chain[0].getSubjectX500Principal().getName(), MAX_SUBJECT);
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(chain[0].getEncoded());
            return "certificate " + subject + " (SHA-256 " + HexFormat.of().formatHex(digest, 0, 8) + "...)";
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            return "certificate " + subject;
        }
    }

    /** Delegates every check; remembers (inbound) or counts (outbound) a chain that fails. */
    private final class Counting extends X509ExtendedTrustManager {
        private final X509ExtendedTrustManager delegate;

        Counting(X509ExtendedTrustManager delegate) {
            this.delegate = delegate;
        }

        /** A trust check of the delegate. */
        private interface Check {
            void run() throws CertificateException;
        }

        /** @param inbound the engine of an inbound handshake, which counts the failure itself; else null */
        private void check(X509Certificate[] chain, SSLEngine inbound, Check check) throws CertificateException {
            try {
                check.run();
            } catch (CertificateException e) {
                if (inbound != null) {
                    refusedCertificates.put(inbound, describe(chain));
                } else {
                    refused.refuse(describe(chain), "TLS certificate not signed by the cluster's CA (" + e.getMessage() + ")");
                }
                throw e;
            }
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            check(chain, engine, () -> delegate.checkClientTrusted(chain, authType, engine));
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            check(chain, null, () -> delegate.checkClientTrusted(chain, authType, socket));
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain, null, () -> delegate.checkClientTrusted(chain, authType));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            check(chain, null, () -> delegate.checkServerTrusted(chain, authType, engine));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            check(chain, null, () -> delegate.checkServerTrusted(chain, authType, socket));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain, null, () -> delegate.checkServerTrusted(chain, authType));
        }

        /**
         * None advertised. With the CA's name in its certificate request, a server makes a peer
         * holding some other certificate send none at all, and the refusal could not name it;
         * without, the peer sends its certificate and the log shows whose it is. It also keeps
         * the CA's name from anyone who merely connects.
         */
        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
