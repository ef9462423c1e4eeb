/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import java.net.InetSocketAddress;

/**
 * A TCP echo server under test: it listens on an ephemeral loopback port from the moment it is
 * opened and writes back every byte each connection sends, until the client closes.
 *
 * <pre>{@code
 * try (EchoServer server = EchoServers.open("netty", 4)) {
 *     EchoLoad.Result r = EchoLoad.run(server.address(), settings);
 * }
 * }</pre>
 */
public interface EchoServer extends AutoCloseable {

    /** The server's id, as {@link EchoServers#ids()} names it. */
    String id();

    /** The loopback address it listens on (the actual port). */
    InetSocketAddress address();

    /**
     * Stops accepting, closes every open connection and stops the server's threads; waits for
     * them. Idempotent.
     */
    @Override
    void close();
}
