/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import java.net.Socket;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.cert.CertificateEncodingException;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.remote.artery.tcp.ConfigSSLEngineProvider;

/**
 * Artery's TLS engine provider with one addition: a peer whose certificate chain the trust store
 * rejects is counted and logged (once per certificate) in the member's {@link Refusals}; see
 * {@code getAcceptedIssuers} below for why every such peer reaches the trust manager. Pekko
 * itself refuses such a peer silently (only at DEBUG), which would leave an operator blind to
 * someone knocking with a wrong certificate. Everything else, including the TLS version, cipher
 * suites and mutual authentication, comes from {@code pekko.remote.artery.ssl.config-ssl-engine}
 * as for Pekko's own provider.
 */
final class TlsGuard extends ConfigSSLEngineProvider {

    private final Refusals refused;

    TlsGuard(ActorSystem system, Refusals refused) {
        super(system);
        this.refused = refused;
    }

    @Override
    public TrustManager[] trustManagers() {
        TrustManager[] managers = super.trustManagers();
        for (int i = 0; i < managers.length; i++) {
            if (managers[i] instanceof X509ExtendedTrustManager x) {
                managers[i] = new Counting(x, refused);
            }
        }
        return managers;
    }

    /** "CN=..., SHA-256 ab12cd34..." for a log line and as the offender's identity. */
    static String describe(X509Certificate[] chain) {
        if (chain == null || chain.length == 0) {
            return "a peer without a certificate";
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(chain[0].getEncoded());
            return "certificate " + chain[0].getSubjectX500Principal().getName() + " (SHA-256 "
                    + HexFormat.of().formatHex(digest, 0, 8) + "...)";
        } catch (NoSuchAlgorithmException | CertificateEncodingException e) {
            return "certificate " + chain[0].getSubjectX500Principal().getName();
        }
    }

    /** Delegates every check; counts a chain that fails. */
    private static final class Counting extends X509ExtendedTrustManager {
        private final X509ExtendedTrustManager delegate;
        private final Refusals refused;

        Counting(X509ExtendedTrustManager delegate, Refusals refused) {
            this.delegate = delegate;
            this.refused = refused;
        }

        /** A trust check of the delegate. */
        private interface Check {
            void run() throws CertificateException;
        }

        private void check(X509Certificate[] chain, Check check) throws CertificateException {
            try {
                check.run();
            } catch (CertificateException e) {
                refused.refuse(describe(chain), "TLS certificate not signed by the cluster's CA (" + e.getMessage() + ")");
                throw e;
            }
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            check(chain, () -> delegate.checkClientTrusted(chain, authType, engine));
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            check(chain, () -> delegate.checkClientTrusted(chain, authType, socket));
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain, () -> delegate.checkClientTrusted(chain, authType));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            check(chain, () -> delegate.checkServerTrusted(chain, authType, engine));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            check(chain, () -> delegate.checkServerTrusted(chain, authType, socket));
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            check(chain, () -> delegate.checkServerTrusted(chain, authType));
        }

        /**
         * None advertised. With the CA's name in its certificate request, a server makes a peer
         * holding some other certificate send none at all, and JSSE refuses an empty chain before
         * any trust manager sees it; without it, the peer sends its certificate, and the refusal
         * passes through here to be counted under that certificate's name. It also keeps the
         * CA's name from anyone who merely connects.
         */
        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
