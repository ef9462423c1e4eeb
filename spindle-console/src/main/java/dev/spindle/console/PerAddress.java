/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;

/**
 * How many exchanges each client address has in the console's handlers at once, and a limit on
 * it: without one, a single client could hold every event-stream slot (for as long as it keeps
 * reading) and every handler thread (until the request deadline), and every other client was
 * refused.
 *
 * <p>The key is the remote address as the connection shows it: clients behind one proxy or NAT
 * share it (raise the limit for them), and an IPv6 host that sends from many addresses of its
 * prefix is as many clients (grouping by prefix would lump a whole LAN together). Every loopback
 * address (all of 127.0.0.0/8, and ::1; an IPv4-mapped one arrives as IPv4) is one client: a
 * local process can send from any of them (Linux answers for the whole block with no set-up),
 * so counted apart it took every event stream from 127.0.0.2, 127.0.0.3 and so on. A browser on
 * the host sends from the one it connects to, 127.0.0.1 for the default console. An address
 * leaves the map when its count falls to zero, so the map holds only the addresses being
 * served, at most as many as there are handler threads.
 *
 * <p>What cannot be counted here: a connection that has not yet sent its whole request head. The
 * JDK's server reads the head on a handler thread before it calls the console, which sees no
 * connection until then; those are bounded by the request deadline ({@code HandlerPool}) and the
 * JDK server's JVM-wide limits, so one client can hold every handler thread that way (the class
 * comment of {@code Console}).
 *
 * <p>What is counted too long: an event stream whose client vanished without closing its
 * connection, until a write to it blocks past the deadline or fails. Taking the slot of an idle
 * stream of the address for a new connection would not do: every stream is idle on the client's
 * side, so a live one would go, and one tab too many would end another, which reconnects and ends
 * the next, for ever.
 */
final class PerAddress {

    /** The key of every loopback address. */
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private final int max;
    private final Map<InetAddress, Integer> held = new HashMap<>();   // guarded by itself

    /** @param max the most exchanges one address may have at once, at least 1 */
    PerAddress(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("the limit must be at least 1, was " + max);
        }
        this.max = max;
    }

    /**
     * Counts one more exchange of {@code client}'s, unless it has the most already.
     *
     * @return whether it was counted; if so, {@link #leave} must follow when the exchange ends
     */
    boolean enter(InetAddress client) {
        InetAddress key = key(client);
        synchronized (held) {
            int now = held.getOrDefault(key, 0);
            if (now >= max) {
                return false;
            }
            held.put(key, now + 1);
            return true;
        }
    }

    /** Ends an exchange of {@code client}'s that {@link #enter} admitted. */
    void leave(InetAddress client) {
        synchronized (held) {
            held.computeIfPresent(key(client), (k, n) -> n == 1 ? null : n - 1);
        }
    }

    /** What {@code client} counts as: itself, or {@link #LOOPBACK} for any loopback address. */
    private static InetAddress key(InetAddress client) {
        return client.isLoopbackAddress() ? LOOPBACK : client;
    }
}
