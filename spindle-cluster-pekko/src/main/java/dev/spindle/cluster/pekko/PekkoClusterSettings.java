/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.MemberSettingsBuilder;
import dev.spindle.cluster.TransportSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a Spindle member (worker or coordinator) takes part in a Pekko cluster: its key store and
 * trust store, where it binds, whom it joins, and which packages values and task functions may
 * come from. Immutable; build with {@link #builder(String, Path, Path, String)}.
 *
 * <p>Defaults keep a member on this machine: bind to {@code 127.0.0.1}, port 25520, a member is
 * unreachable after 5 s without heartbeats, a message (with the values it carries) is at most
 * 256 KiB.
 */
public final class PekkoClusterSettings {

    /** The smallest message limit accepted, in bytes (Pekko's own floor for a frame). */
    public static final int MIN_MESSAGE_BYTES = 32_000;
    /** The largest message limit accepted, in bytes. */
    public static final int MAX_MESSAGE_BYTES = 64 << 20;
    /**
     * The longest failure timeout accepted, in seconds (about 58 days). Pekko's scheduler refuses
     * a delay over 2^31 ticks of 10 ms (about 248 days), and a worker's fetch times out after four
     * failure timeouts: with a longer one every fetch threw on the worker's endpoint actor, and the
     * task that needed the value waited for good.
     */
    public static final int MAX_FAILURE_SECONDS = 5_000_000;

    private final String clusterName;
    private final Path keyStore;
    private final Path trustStore;
    /** The stores the member reads: the files checked ({@link StoreFiles#check}), links resolved. */
    private final Path checkedKeyStore;
    private final Path checkedTrustStore;
    private final String storePassword;
    private final String bindAddress;
    private final int port;
    private final List<String> seedNodes;
    private final List<String> allowedPackages;
    private final int failureSeconds;
    private final int maxMessageBytes;

    private PekkoClusterSettings(Builder b) {
        this.clusterName = b.clusterName;
        this.keyStore = b.keyStore;
        this.trustStore = b.trustStore;
        this.checkedKeyStore = b.checkedKeyStore;
        this.checkedTrustStore = b.checkedTrustStore;
        this.storePassword = b.storePassword;
        this.bindAddress = b.boundAddress();
        this.port = b.chosenPort();
        this.seedNodes = List.copyOf(b.seedNodes);
        this.allowedPackages = b.packages();
        this.failureSeconds = b.failureTimeoutSeconds();
        this.maxMessageBytes = b.maxMessageBytes;
    }

    /**
     * Starts a builder.
     *
     * @param clusterName the cluster's name (the Pekko actor system's name): letters, digits,
     *        '-' and '_'; members with another name never join
     * @param keyStore this member's PKCS12 key store: its key and a certificate signed by the
     *        cluster's CA (see {@link DevCertificates})
     * @param trustStore a PKCS12 store holding the cluster's CA certificate, and only that
     * @param storePassword the password of both stores and of the key
     * @return a new builder with the defaults; builders are not thread-safe
     * @throws IllegalArgumentException if the name is not usable, or a store does not exist or
     *         may be changed by another user: where permissions are POSIX, each store (the file a
     *         link leads to) must belong to this process's user or root, be writable by neither
     *         its group nor others, and lie under no directory anyone may write in but a sticky
     *         one ({@code /tmp}), nor under one of another user's than this process's and root. The
     *         member reads the files checked, links resolved when they were; the store password does not protect a trust store, whose
     *         certificates a PKCS12 file without an integrity MAC gives under any password
     * @throws NullPointerException if an argument is null
     */
    public static Builder builder(String clusterName, Path keyStore, Path trustStore, String storePassword) {
        return new Builder(clusterName, keyStore, trustStore, storePassword);
    }

    /**
     * The cluster's name.
     *
     * @return the cluster name: 1 to 64 letters, digits, '-' and '_', starting with a letter or
     *     digit
     */
    public String clusterName() {
        return clusterName;
    }

    /**
     * This member's key store.
     *
     * @return the absolute path of the key store
     */
    public Path keyStore() {
        return keyStore;
    }

    /**
     * The trust store holding the cluster's CA.
     *
     * @return the absolute path of the trust store
     */
    public Path trustStore() {
        return trustStore;
    }

    /** The key store the member reads: the file checked, links resolved when it was. */
    Path checkedKeyStore() {
        return checkedKeyStore;
    }

    /** The trust store the member reads: the file checked, links resolved when it was. */
    Path checkedTrustStore() {
        return checkedTrustStore;
    }

    String storePassword() {
        return storePassword;
    }

    /**
     * The address this member binds to and announces.
     *
     * @return the bind address, {@code 127.0.0.1} unless set
     */
    public String bindAddress() {
        return bindAddress;
    }

    /**
     * This member's port; 0 picks a free one.
     *
     * @return the port, 0 to 65535
     */
    public int port() {
        return port;
    }

    /**
     * The {@code host:port} members to join through; empty for the coordinator that starts the
     * cluster.
     *
     * @return an immutable list of {@code host:port} entries
     */
    public List<String> seedNodes() {
        return seedNodes;
    }

    /**
     * The packages (and their subpackages) that values and functions may come from.
     *
     * @return an immutable list of package names, possibly empty
     */
    public List<String> allowedPackages() {
        return allowedPackages;
    }

    /**
     * Seconds without heartbeats before a member is unreachable, and again before it is downed.
     *
     * @return the failure timeout in seconds
     */
    public int failureSeconds() {
        return failureSeconds;
    }

    /**
     * The largest message sent or accepted, in bytes.
     *
     * @return the message limit in bytes, from {@value #MIN_MESSAGE_BYTES} to
     *     {@value #MAX_MESSAGE_BYTES}
     */
    public int maxMessageBytes() {
        return maxMessageBytes;
    }

    /**
     * Builds {@link PekkoClusterSettings}. The port is 0..65535, 25520 unless set (0 picks a free
     * port, fine for workers); a member is unreachable after {@code failureSeconds} without
     * heartbeats, and downed after as long again.
     */
    public static final class Builder extends MemberSettingsBuilder<Builder> {
        private final String clusterName;
        private final Path keyStore;
        private final Path trustStore;
        private final Path checkedKeyStore;
        private final Path checkedTrustStore;
        private final String storePassword;
        private final List<String> seedNodes = new ArrayList<>();
        private int maxMessageBytes = 256 * 1024;

        private Builder(String clusterName, Path keyStore, Path trustStore, String storePassword) {
            super(25520, 0);
            Objects.requireNonNull(clusterName, "clusterName");
            Objects.requireNonNull(keyStore, "keyStore");
            Objects.requireNonNull(trustStore, "trustStore");
            Objects.requireNonNull(storePassword, "storePassword");
            if (!clusterName.matches("[A-Za-z0-9][A-Za-z0-9_-]{0,63}")) {
                throw new IllegalArgumentException("clusterName must be letters, digits, '-' or '_' (at most 64), got '"
                        + clusterName + "'");
            }
            if (!Files.isRegularFile(keyStore)) {
                throw new IllegalArgumentException("no key store at " + keyStore);
            }
            if (!Files.isRegularFile(trustStore)) {
                throw new IllegalArgumentException("no trust store at " + trustStore);
            }
            this.checkedKeyStore = StoreFiles.check(keyStore, "key store");
            this.checkedTrustStore = StoreFiles.check(trustStore, "trust store");   // who may join: see StoreFiles
            if (storePassword.isEmpty()) {
                throw new IllegalArgumentException("storePassword must not be empty");
            }
            this.clusterName = clusterName;
            this.keyStore = keyStore.toAbsolutePath();
            this.trustStore = trustStore.toAbsolutePath();
            this.storePassword = storePassword;
        }

        /**
         * A {@code host:port} member to join through, normally the coordinator's. A worker needs
         * one; the coordinator needs none (it starts the cluster).
         *
         * @param hostAndPort a member's address, such as {@code 10.0.0.5:25520}
         * @return this builder
         * @throws IllegalArgumentException if it is not {@code host:port} with a port in 1..65535
         * @throws NullPointerException if {@code hostAndPort} is null
         */
        public Builder seedNode(String hostAndPort) {
            seedNodes.add(TransportSettings.hostAndPort(hostAndPort, "seed node"));
            return this;
        }

        /**
         * Seconds without heartbeats before a member is unreachable, and again before it is downed
         * (default {@value TransportSettings#DEFAULT_FAILURE_SECONDS}, in
         * {@value TransportSettings#MIN_FAILURE_SECONDS}..{@value #MAX_FAILURE_SECONDS}: Pekko
         * cannot schedule the timeouts of a longer one).
         *
         * @param seconds the failure timeout in seconds
         * @return this builder
         * @throws IllegalArgumentException if {@code seconds} is out of range
         */
        @Override
        public Builder failureSeconds(int seconds) {
            return super.failureSeconds(TransportSettings.inRange("failureSeconds", seconds,
                    TransportSettings.MIN_FAILURE_SECONDS, MAX_FAILURE_SECONDS));
        }

        /**
         * The largest message, with the values it carries, in bytes (default 256 KiB, in
         * {@value #MIN_MESSAGE_BYTES}..{@value #MAX_MESSAGE_BYTES}). A result that does not fit
         * fails its task; a message that does not fit is refused unread.
         *
         * @param bytes the message limit in bytes
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is out of range
         */
        public Builder maxMessageBytes(int bytes) {
            this.maxMessageBytes = TransportSettings.inRange("maxMessageBytes", bytes, MIN_MESSAGE_BYTES,
                    MAX_MESSAGE_BYTES);
            return this;
        }

        /**
         * Builds the settings.
         *
         * @return new, immutable settings
         */
        public PekkoClusterSettings build() {
            return new PekkoClusterSettings(this);
        }
    }
}
