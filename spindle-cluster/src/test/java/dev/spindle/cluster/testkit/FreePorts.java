/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free loopback ports for test members, below the ephemeral range: a port the kernel hands out
 * for {@code bind(0)} may meanwhile become the local end of a member's outgoing connection.
 */
public final class FreePorts {

    private static final int LOW = 20_000;
    private static final int HIGH = 32_000;

    private FreePorts() {
    }

    /** {@code n} distinct ports that were free a moment ago. */
    public static int[] free(int n) {
        Set<Integer> chosen = new HashSet<>();
        int[] ports = new int[n];
        for (int i = 0; i < n; i++) {
            for (int tries = 0; ; tries++) {
                int port = ThreadLocalRandom.current().nextInt(LOW, HIGH);
                if (!chosen.contains(port) && bindable(port)) {
                    chosen.add(port);
                    ports[i] = port;
                    break;
                }
                if (tries > 1000) {
                    throw new IllegalStateException("no free port in " + LOW + ".." + HIGH);
                }
            }
        }
        return ports;
    }

    /** One port that was free a moment ago. */
    public static int free() {
        return free(1)[0];
    }

    private static boolean bindable(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
