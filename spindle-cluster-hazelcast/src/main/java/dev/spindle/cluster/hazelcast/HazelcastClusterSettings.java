/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import dev.spindle.cluster.MemberSettingsBuilder;
import dev.spindle.cluster.TransportSettings;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * How a Spindle member (worker or coordinator) takes part in a Hazelcast cluster: where it binds,
 * whom it joins, the cluster name and shared secret, and which packages the values and task
 * functions may come from. Immutable; build with {@link #builder(String, byte[])}.
 *
 * <p>Defaults keep a member on this machine: bind to {@code 127.0.0.1}, port 5701, TCP join to
 * the listed members only (multicast and auto-detection off), a member is declared dead after
 * 5 s without heartbeats.
 */
public final class HazelcastClusterSettings {

    /** The shortest secret accepted, in bytes. */
    public static final int MIN_SECRET_BYTES = 16;

    /** The default largest frame (message, fetch request or fetched value) a member accepts: 64 MiB. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 64 << 20;

    private final String clusterName;
    private final byte[] secret;
    private final String bindAddress;
    private final int port;
    private final List<String> members;
    private final List<String> allowedPackages;
    private final int failureSeconds;
    private final int maxFrameBytes;

    private HazelcastClusterSettings(Builder b) {
        this.clusterName = b.clusterName;
        this.secret = b.secret.clone();
        this.bindAddress = b.boundAddress();
        this.port = b.chosenPort();
        this.members = b.members.isEmpty() ? List.of(bindAddress + ":" + port) : List.copyOf(b.members);
        this.allowedPackages = b.packages();
        this.failureSeconds = b.failureTimeoutSeconds();
        this.maxFrameBytes = b.maxFrameBytes;
    }

    /**
     * Starts a builder.
     *
     * @param clusterName the Hazelcast cluster name; members with another name never join
     * @param secret the shared secret (at least {@value #MIN_SECRET_BYTES} bytes) that signs every
     *        message and proves membership
     * @return a new builder with the defaults; builders are not thread-safe
     * @throws IllegalArgumentException if the name is blank or the secret too short
     * @throws NullPointerException if an argument is null
     */
    public static Builder builder(String clusterName, byte[] secret) {
        return new Builder(clusterName, secret);
    }

    /**
     * Same as {@link #builder(String, byte[])} with the secret's UTF-8 bytes.
     *
     * @param clusterName the Hazelcast cluster name; members with another name never join
     * @param secret the shared secret, at least {@value #MIN_SECRET_BYTES} bytes once encoded
     * @return a new builder with the defaults
     * @throws IllegalArgumentException if the name is blank or the secret too short
     * @throws NullPointerException if an argument is null
     */
    public static Builder builder(String clusterName, String secret) {
        return new Builder(clusterName, Objects.requireNonNull(secret, "secret").getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The Hazelcast cluster name.
     *
     * @return the cluster name, not blank
     */
    public String clusterName() {
        return clusterName;
    }

    byte[] secret() {
        return secret.clone();
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
     * This member's port.
     *
     * @return the port, 1 to 65535
     */
    public int port() {
        return port;
    }

    /**
     * The {@code host:port} members to join through.
     *
     * @return an immutable list of {@code host:port} entries; this member's own address and port if
     *     none was added
     */
    public List<String> members() {
        return members;
    }

    /**
     * The packages (and their subpackages) that values and functions may come from.
     *
     * @return an immutable list of package names, possibly empty (then only the classes that the
     *     allow-list always admits pass: the cluster's own, {@code java.lang}, {@code java.util}
     *     and {@code java.math})
     */
    public List<String> allowedPackages() {
        return allowedPackages;
    }

    /**
     * Seconds without heartbeat before a member is declared dead.
     *
     * @return the failure timeout in seconds
     */
    public int failureSeconds() {
        return failureSeconds;
    }

    /**
     * The largest frame this member reads; a longer declared length is refused before allocation.
     *
     * @return the frame limit in bytes, at least 4096
     */
    public int maxFrameBytes() {
        return maxFrameBytes;
    }

    /**
     * Builds {@link HazelcastClusterSettings}. The port is 1..65535, 5701 unless set (no
     * auto-increment); a member is declared dead after {@code failureSeconds} without heartbeats.
     */
    public static final class Builder extends MemberSettingsBuilder<Builder> {
        private final String clusterName;
        private final byte[] secret;
        private final List<String> members = new ArrayList<>();
        private int maxFrameBytes = DEFAULT_MAX_FRAME_BYTES;

        private Builder(String clusterName, byte[] secret) {
            super(5701, 1);
            Objects.requireNonNull(clusterName, "clusterName");
            Objects.requireNonNull(secret, "secret");
            if (clusterName.isBlank()) {
                throw new IllegalArgumentException("clusterName must not be blank");
            }
            if (secret.length < MIN_SECRET_BYTES) {
                throw new IllegalArgumentException("secret must have at least " + MIN_SECRET_BYTES
                        + " bytes, got " + secret.length);
            }
            this.clusterName = clusterName;
            this.secret = secret.clone();
        }

        /**
         * A {@code host:port} member (port 1..65535) to join through; add all of them (default: this
         * member only).
         *
         * @param hostAndPort a member's address, such as {@code 10.0.0.5:5701}
         * @return this builder
         * @throws IllegalArgumentException if it is not {@code host:port} with a port in 1..65535
         * @throws NullPointerException if {@code hostAndPort} is null
         */
        public Builder member(String hostAndPort) {
            members.add(TransportSettings.hostAndPort(hostAndPort, "member"));
            return this;
        }

        /**
         * The largest frame (a message, fetch request or fetched value, serialised) this member
         * reads (default {@value #DEFAULT_MAX_FRAME_BYTES}, at least 4096); results larger than
         * this cannot travel. Every member of a cluster needs the same: the coordinator refuses a
         * worker with another, whose frames it could send but the worker would drop on arrival.
         *
         * @param bytes the frame limit in bytes
         * @return this builder
         * @throws IllegalArgumentException if {@code bytes} is below 4096
         */
        public Builder maxFrameBytes(int bytes) {
            this.maxFrameBytes = TransportSettings.atLeast("maxFrameBytes", bytes, 4096);
            return this;
        }

        /**
         * Builds the settings.
         *
         * @return new, immutable settings holding a copy of the secret
         */
        public HazelcastClusterSettings build() {
            return new HazelcastClusterSettings(this);
        }
    }
}
