/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The part of a transport's settings builder that every transport has: where the member binds
 * (loopback unless told otherwise), its port, the packages values and task functions may come
 * from, and how long heartbeats may be missing. Each setter checks its value at once
 * ({@link TransportSettings}) and names the problem. A transport's builder extends this with
 * what is its own (secrets or key stores, members to join, frame limits) and reads the common
 * values (the getters below) when it builds.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; applications use it through a transport's builder.
 *
 * @param <B> the transport's builder, which the setters return
 */
public abstract class MemberSettingsBuilder<B extends MemberSettingsBuilder<B>> {

    private final int minPort;
    private String bindAddress = TransportSettings.DEFAULT_BIND_ADDRESS;
    private int port;
    private final List<String> allowedPackages = new ArrayList<>();
    private int failureSeconds = TransportSettings.DEFAULT_FAILURE_SECONDS;

    /**
     * For subclasses.
     *
     * @param defaultPort the transport's port unless told otherwise
     * @param minPort the smallest port accepted: 1, or 0 where 0 picks a free port
     */
    protected MemberSettingsBuilder(int defaultPort, int minPort) {
        this.minPort = minPort;
        this.port = TransportSettings.port(defaultPort, minPort);
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }

    /**
     * The address to bind to (default {@code 127.0.0.1}); anything else exposes the member.
     *
     * @param address a host name or IP address of this machine
     * @return this builder
     * @throws IllegalArgumentException if {@code address} is blank
     * @throws NullPointerException if {@code address} is null
     */
    public B bindAddress(String address) {
        this.bindAddress = TransportSettings.bindAddress(address);
        return self();
    }

    /**
     * This member's port, up to 65535; the transport's builder says its default and whether 0
     * (a free port) is accepted.
     *
     * @param port the port to listen on
     * @return this builder
     * @throws IllegalArgumentException if {@code port} is out of the transport's range
     */
    public B port(int port) {
        this.port = TransportSettings.port(port, minPort);
        return self();
    }

    /**
     * Allows values and task functions from {@code packageName} and its subpackages to be
     * deserialised. Task functions' declaring classes count: a lambda written in class
     * {@code com.example.Jobs} needs {@code com.example}.
     *
     * @param packageName a Java package name such as {@code com.example}
     * @return this builder
     * @throws IllegalArgumentException if {@code packageName} is not a package name (a pattern such
     *     as {@code com.example.*} is refused)
     * @throws NullPointerException if {@code packageName} is null
     */
    public B allowPackage(String packageName) {
        allowedPackages.add(SerialAllowList.checkPackage(packageName));
        return self();
    }

    /**
     * Seconds without heartbeats before a member is given up (default
     * {@value TransportSettings#DEFAULT_FAILURE_SECONDS}, at least
     * {@value TransportSettings#MIN_FAILURE_SECONDS}).
     *
     * @param seconds the failure timeout in seconds
     * @return this builder
     * @throws IllegalArgumentException if {@code seconds} is below the minimum
     */
    public B failureSeconds(int seconds) {
        this.failureSeconds = TransportSettings.failureSeconds(seconds);
        return self();
    }

    /**
     * The address set so far.
     *
     * @return the bind address, {@code 127.0.0.1} unless set
     */
    public final String boundAddress() {
        return bindAddress;
    }

    /**
     * The port set so far.
     *
     * @return the port, the transport's default unless set
     */
    public final int chosenPort() {
        return port;
    }

    /**
     * The packages allowed so far (an immutable copy).
     *
     * @return the allowed packages in the order they were added
     */
    public final List<String> packages() {
        return List.copyOf(allowedPackages);
    }

    /**
     * The failure timeout set so far.
     *
     * @return the failure timeout in seconds
     */
    public final int failureTimeoutSeconds() {
        return failureSeconds;
    }
}
