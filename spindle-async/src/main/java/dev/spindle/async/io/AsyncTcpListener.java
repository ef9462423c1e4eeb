/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import dev.spindle.async.AsyncTask;
import dev.spindle.async.Poll;
import dev.spindle.async.Waker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Objects;

/**
 * A listening TCP socket whose {@link #accept()} is an {@link AsyncTask}.
 *
 * <pre>{@code
 * AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0));
 * int port = listener.localAddress().getPort();
 * AsyncTask<AsyncTcpStream> next = listener.accept();   // pending until a client connects
 * }</pre>
 *
 * <p>Several accepts may wait at once (each gets its own connection). Starting an accept takes
 * one unit of the poll's budget. I/O errors are thrown from {@code poll} as
 * {@link UncheckedIOException}.
 */
public final class AsyncTcpListener implements AutoCloseable {

    private final ServerSocketChannel channel;
    private final Reactor reactor;
    /** Where accepted connections go: the group's next reactor, or {@code reactor} if null. */
    private final ReactorGroup streamReactors;
    private final Reactor.Registration reg;

    /** For tests: runs once the socket is bound, before the listener is built. */
    static volatile java.util.function.Consumer<ServerSocketChannel> afterBind;

    private AsyncTcpListener(ServerSocketChannel channel, Reactor reactor, ReactorGroup streamReactors) {
        this.channel = channel;
        this.reactor = reactor;
        this.streamReactors = streamReactors;
        this.reg = reactor.register(channel);
    }

    /**
     * Binds to {@code local} (port 0: any free port); the listener and its connections are served
     * by the {@linkplain ReactorGroup#shared() shared reactor group}. The address is checked
     * first: a non-TCP one starts no reactor of that group.
     *
     * @param local the address to bind; {@code null} binds an ephemeral port on the loopback
     *     interface only (reachable from this machine alone); pass a wildcard or an interface's
     *     address to accept connections from other machines
     * @return the bound listener, which the caller closes
     * @throws IOException if the socket cannot be opened or bound (an
     *     {@link UnknownHostException} if {@code local} is unresolved)
     * @throws IllegalArgumentException if {@code local} is not an {@link InetSocketAddress}
     */
    public static AsyncTcpListener bind(SocketAddress local) throws IOException {
        // before the shared group: made on first use, its selector threads run for the JVM's
        // life, and a call that was only ever going to throw started them
        checkLocal(local);
        return bind(local, ReactorGroup.shared());
    }

    /**
     * Binds to {@code local} with a backlog of 1024; it and its connections are served by
     * {@code reactor}.
     *
     * @param local the address to bind; {@code null} binds an ephemeral port on the loopback
     *     interface only
     * @param reactor serves the listener and every connection it accepts
     * @return the bound listener, which the caller closes
     * @throws IOException if the socket cannot be opened or bound (an
     *     {@link UnknownHostException} if {@code local} is unresolved)
     * @throws IllegalArgumentException if {@code local} is not an {@link InetSocketAddress}
     * @throws IllegalStateException if {@code reactor} is closed (nothing is bound)
     * @throws NullPointerException if {@code reactor} is null
     */
    public static AsyncTcpListener bind(SocketAddress local, Reactor reactor) throws IOException {
        Objects.requireNonNull(reactor, "reactor");
        return open(local, reactor, null);
    }

    /**
     * Binds to {@code local} with a backlog of 1024; the group's reactors serve the listener and,
     * in turn, the connections it accepts.
     *
     * @param local the address to bind; {@code null} binds an ephemeral port on the loopback
     *     interface only
     * @param reactors serves the listener (its next reactor) and the accepted connections (each the
     *     next one in turn)
     * @return the bound listener, which the caller closes
     * @throws IOException if the socket cannot be opened or bound (an
     *     {@link UnknownHostException} if {@code local} is unresolved)
     * @throws IllegalArgumentException if {@code local} is not an {@link InetSocketAddress}
     * @throws IllegalStateException if the group is closed (nothing is bound)
     * @throws NullPointerException if {@code reactors} is null
     */
    public static AsyncTcpListener bind(SocketAddress local, ReactorGroup reactors) throws IOException {
        Objects.requireNonNull(reactors, "reactors");
        return open(local, reactors.next(), reactors);
    }

    /** Refuses a non-TCP {@code local} (null is allowed: an ephemeral loopback port), as every {@code bind} documents. */
    private static void checkLocal(SocketAddress local) {
        if (local != null && !(local instanceof InetSocketAddress)) {
            // else bind threw the JDK's UnsupportedAddressTypeException, with no message
            throw new IllegalArgumentException("not a TCP address (an InetSocketAddress): " + local);
        }
    }

    private static AsyncTcpListener open(SocketAddress local, Reactor reactor, ReactorGroup streams)
            throws IOException {
        // Before the port is bound: a listener on a closed reactor can never accept, and held
        // the port until someone found it and closed it (a closed group's reactors are closed).
        reactor.checkOpen();
        checkLocal(local);
        if (local instanceof InetSocketAddress inet && inet.isUnresolved()) {
            // bind throws the JDK's UnresolvedAddressException: no IOException, and no message
            throw new UnknownHostException(inet.getHostString() + " (unresolved; bind looks up no host names)");
        }
        ServerSocketChannel ch = ServerSocketChannel.open();
        try {
            ch.configureBlocking(false);
            // Loopback unless the caller names an address: a listener nobody asked to expose
            // must not be reachable from other machines.
            ch.bind(local != null ? local : new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
            java.util.function.Consumer<ServerSocketChannel> hook = afterBind;
            if (hook != null) {
                hook.accept(ch);
            }
            return new AsyncTcpListener(ch, reactor, streams);
        } catch (Throwable e) {
            // an Error too (no memory for the listener): else the port stayed bound for good,
            // held by nobody
            try {
                ch.close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** For tests: this listener's registration with its reactor. */
    Reactor.Registration registration() {
        return reg;
    }

    /**
     * The bound address (with the actual port).
     *
     * @return the address the listener is bound to
     * @throws java.io.UncheckedIOException if the listener is closed
     */
    public InetSocketAddress localAddress() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A task that completes with the next incoming connection. Once the listener is closed it
     * fails with an {@link UncheckedIOException} (whether or not its reactor is closed too); once
     * its reactor is closed while the listener is open, with an {@link IllegalStateException}
     * saying so, and so it does, closing the connection, if the reactor that would serve the
     * connection closes during the poll that takes it. If its task's {@link dev.spindle.async.JoinHandle} is cancelled during the poll
     * that accepts a connection (the runtime drops what that poll returns), the connection is
     * closed rather than handed out to nobody: by the accept, or by the runtime when it drops a
     * stream that the accept handed out just before the cancel.
     *
     * @return a one-shot task, ready with the accepted connection (which the caller closes)
     */
    public AsyncTask<AsyncTcpStream> accept() {
        return cx -> {
            if (!cx.consumeBudget()) {
                // a null waker (a hand-written context) is refused as a wait refuses it
                Reactor.toWaitWith(cx.waker(), SelectionKey.OP_ACCEPT).wake();
                return Poll.pending();
            }
            // On a closed reactor every accept fails (see isOpen), even one with a connection in
            // the backlog: handed out, that stream could never wait for anything, and an accept
            // loop went on taking connections it could not serve. A closed listener still fails
            // as closed (channel.accept below): closed first, then its reactor (the order of
            // try-with-resources), it threw the reactor's IllegalStateException instead.
            if (channel.isOpen()) {
                reactor.checkOpen();
            }
            // before a connection is taken: refused after it, a null waker (a hand-written
            // context) closed that connection, which the next accept should have had
            Waker waker = Reactor.toWaitWith(cx.waker(), SelectionKey.OP_ACCEPT);
            try {
                SocketChannel ch = channel.accept();
                if (ch != null) {
                    try {
                        Reactor r = streamReactors == null ? reactor : streamReactors.next();
                        AsyncTcpStream stream = new AsyncTcpStream(ch, r);
                        if (waker.expired()) {
                            // its task was cancelled during this poll (after the budget), whose
                            // result the runtime drops: handed out, the connection stayed open
                            // and registered for good, held by nobody. Closed instead
                            stream.close();
                            return Poll.pending();
                        }
                        // Its reactor closed during this poll, after the look above: handed out,
                        // the stream could never wait for anything, and an accept loop took a
                        // connection it could not serve. It fails as at the start instead, and
                        // the handler below closes the connection, as a connect made after its
                        // reactor closed does.
                        r.checkOpen();
                        return Poll.ready(stream);
                    } catch (IOException | RuntimeException | Error e) {
                        // an Error too (the caller's waker, no memory for the stream): this poll
                        // throws, its task ends, and nobody else would ever close the connection
                        ch.close();
                        throw e;
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("accept failed", e);
            }
            reactor.await(reg, SelectionKey.OP_ACCEPT, waker);
            return Poll.pending();
        };
    }

    /**
     * Whether this listener is still open: an accept loop asks it when an accept fails, to tell
     * the failure of one connection (reset before it was accepted, a file-descriptor limit
     * reached for a moment), after which it accepts the next, from the end of listening.
     *
     * <pre>{@code
     * AsyncTask<Boolean> turn = Async.recover(Async.map(listener.accept(), stream -> {
     *     runtime.spawn(serve(stream));
     *     return true;
     * }), error -> listener.isOpen());       // go on unless the listener was closed
     * }</pre>
     *
     * @return {@code false} once {@link #close()} has been called, or once the reactor serving
     *     this listener was closed: every accept then fails at once, and a loop that went on
     *     while this said {@code true} spun through those failures for good
     */
    public boolean isOpen() {
        return channel.isOpen() && !reactor.isClosed();
    }

    /**
     * Stops listening and wakes waiting accepts (which then fail). Idempotent. On a reactor with
     * a selector thread (the shared group's, or one of {@link Reactor#open()} or
     * {@link ReactorGroup#open}) the port is free again when this returns; on a
     * {@linkplain ReactorGroup#openDriven driven} reactor, once a worker next selects, or when
     * this returns if no runtime drives the reactor (none built yet, or closed).
     */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        } finally {
            reactor.deregister(reg);
        }
        reactor.awaitReleased(reg);
    }
}
