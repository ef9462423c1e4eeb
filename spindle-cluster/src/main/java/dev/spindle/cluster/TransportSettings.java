/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.Objects;

/**
 * The checks that every transport's settings builder applies to the settings all transports
 * share: the bind address, the port, the {@code host:port} of a member to join through, the
 * failure timeout and byte limits. Each check returns its (valid) argument or throws an exception
 * naming the setting and the bad value, so a builder reads {@code this.port = port(p, 1)}.
 * Packages for the allow-list are checked by {@link SerialAllowList#checkPackage}.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public final class TransportSettings {

    /** Where a member binds unless told otherwise: loopback, so nothing is exposed by default. */
    public static final String DEFAULT_BIND_ADDRESS = "127.0.0.1";
    /** Seconds without heartbeats before a member is given up, unless told otherwise. */
    public static final int DEFAULT_FAILURE_SECONDS = 5;
    /** The shortest failure timeout accepted: heartbeats are a second apart. */
    public static final int MIN_FAILURE_SECONDS = 2;

    private TransportSettings() {
    }

    /**
     * Checks an address to bind to.
     *
     * @param address the address to check
     * @return {@code address} itself
     * @throws NullPointerException if it is null
     * @throws IllegalArgumentException if it is blank
     */
    public static String bindAddress(String address) {
        Objects.requireNonNull(address, "address");
        if (address.isBlank()) {
            throw new IllegalArgumentException("bindAddress must not be blank");
        }
        return address;
    }

    /**
     * Checks a port to bind to: {@code min}..65535 ({@code min} 0 where 0 picks a free port).
     *
     * @param port the port to check
     * @param min the smallest port accepted, 0 or 1
     * @return {@code port} itself
     * @throws IllegalArgumentException if it is out of range
     */
    public static int port(int port, int min) {
        if (port < min || port > 65535) {
            throw new IllegalArgumentException("port must be in " + min + "..65535, got " + port);
        }
        return port;
    }

    /**
     * Checks the {@code host:port} of a member to join through: a non-empty host, a colon and a
     * port in 1..65535.
     *
     * @param what the setting's name in the message, e.g. {@code "member"}
     * @param hostAndPort the value to check, such as {@code 10.0.0.5:5701}
     * @return {@code hostAndPort} itself
     * @throws NullPointerException if it is null
     * @throws IllegalArgumentException if it is not {@code host:port}
     */
    public static String hostAndPort(String hostAndPort, String what) {
        Objects.requireNonNull(hostAndPort, "hostAndPort");
        int colon = hostAndPort.lastIndexOf(':');
        boolean valid = colon > 0 && colon < hostAndPort.length() - 1;
        if (valid) {
            try {
                int p = Integer.parseInt(hostAndPort.substring(colon + 1));
                valid = p >= 1 && p <= 65535;
            } catch (NumberFormatException e) {
                valid = false;
            }
        }
        if (!valid) {
            throw new IllegalArgumentException(what + " must be host:port, got '" + hostAndPort + "'");
        }
        return hostAndPort;
    }

    /**
     * Checks a failure timeout in seconds: at least {@value #MIN_FAILURE_SECONDS}.
     *
     * @param seconds the timeout to check
     * @return {@code seconds} itself
     * @throws IllegalArgumentException if it is shorter
     */
    public static int failureSeconds(int seconds) {
        return atLeast("failureSeconds", seconds, MIN_FAILURE_SECONDS);
    }

    /**
     * Checks that setting {@code name} is at least {@code min}.
     *
     * @param name the setting's name, for the message
     * @param value the value to check
     * @param min the smallest value accepted
     * @return {@code value} itself
     * @throws IllegalArgumentException if it is smaller
     */
    public static int atLeast(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", got " + value);
        }
        return value;
    }

    /**
     * Checks that setting {@code name} is in {@code min..max}.
     *
     * @param name the setting's name, for the message
     * @param value the value to check
     * @param min the smallest value accepted
     * @param max the largest value accepted
     * @return {@code value} itself
     * @throws IllegalArgumentException if it is not
     */
    public static int inRange(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(name + " must be in " + min + ".." + max + ", got " + value);
        }
        return value;
    }
}
