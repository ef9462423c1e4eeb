/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import java.net.InetSocketAddress;

/**
 * What the echo servers share: the id, the bound address, and a {@link #close()} that runs the
 * server's own {@link #shutdown()} exactly once, however often and from however many threads it
 * is called.
 */
abstract class ListeningServer implements EchoServer {

    private final String id;
    private InetSocketAddress address;
    private boolean closed;

    ListeningServer(String id) {
        this.id = id;
    }

    /** Called by the subclass once it is bound, before the server is handed out. */
    final void listening(InetSocketAddress bound) {
        this.address = bound;
    }

    /** Stops the server and every connection; called once. */
    abstract void shutdown();

    @Override
    public final String id() {
        return id;
    }

    @Override
    public final InetSocketAddress address() {
        return address;
    }

    @Override
    public final synchronized void close() {
        if (!closed) {
            closed = true;
            shutdown();
        }
    }
}
