/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import dev.spindle.async.Waker;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An NIO {@link Selector} on a thread of its own that turns socket readiness into
 * {@link Waker#wake()} calls. {@link AsyncTcpListener} and {@link AsyncTcpStream} use the
 * {@link #shared()} one unless given another.
 *
 * <pre>{@code
 * try (Reactor reactor = Reactor.open()) {
 *     AsyncTcpListener listener = AsyncTcpListener.bind(new InetSocketAddress("127.0.0.1", 0), reactor);
 *     ...
 * }
 * }</pre>
 *
 * <p><b>How a would-block becomes a wake-up.</b> An operation that finds its channel not ready
 * records its task's waker on the channel's registration (one list for read/accept, one for
 * write/connect), adds the operation to the registration's interest set, and queues the
 * registration for the selector thread, calling {@link Selector#wakeup()} only if no wake-up is
 * already on its way. The selector thread applies queued interest changes (registering the
 * channel the first time) between {@code select} calls, since those must not race with a select
 * in progress. When a key is selected, the thread takes the wakers of the ready operations,
 * removes those operations from the interest set, and wakes them after leaving the registration's
 * lock. Selection is level-triggered: bytes that arrived between the failed attempt and the
 * interest change still select the key, so no wake-up is lost. A woken task simply retries.
 *
 * <p>{@link #deregister} (on close) cancels the key and wakes every waiting task, which then
 * sees the channel closed.
 */
public final class Reactor implements AutoCloseable {

    private static Reactor shared;

    private final Selector selector;
    private final Thread thread;
    private final ConcurrentLinkedQueue<Registration> changes = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    private volatile boolean closed;

    private Reactor(String name) throws IOException {
        selector = Selector.open();
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** The JVM-wide reactor, started on first use (a daemon thread, {@code spindle-async-reactor}). */
    public static synchronized Reactor shared() {
        if (shared == null) {
            try {
                shared = new Reactor("spindle-async-reactor");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open a selector", e);
            }
        }
        return shared;
    }

    /** A reactor with a selector thread of its own; {@link #close()} stops it. */
    public static Reactor open() throws IOException {
        return new Reactor("spindle-async-reactor-" + System.identityHashCode(new Object()));
    }

    /** Stops the selector thread and closes the selector. Not allowed for {@link #shared()}. */
    @Override
    public void close() throws IOException {
        synchronized (Reactor.class) {
            if (this == shared) {
                throw new IllegalStateException("the shared reactor stays open");
            }
        }
        closed = true;
        selector.wakeup();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The registration of one channel; the channel must be in non-blocking mode. */
    static final class Registration {
        final SelectableChannel channel;
        final AtomicBoolean queued = new AtomicBoolean();
        private final List<Waker> readWakers = new ArrayList<>(1);  // OP_READ, OP_ACCEPT
        private final List<Waker> writeWakers = new ArrayList<>(1); // OP_WRITE, OP_CONNECT
        private int interest;         // guarded by this
        private boolean cancelled;    // guarded by this
        SelectionKey key;             // selector thread only

        Registration(SelectableChannel channel) {
            this.channel = channel;
        }

        private static boolean readSide(int op) {
            return (op & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT)) != 0;
        }

        /** Adds {@code w} for {@code op}; false if the registration was cancelled. */
        synchronized boolean add(int op, Waker w) {
            if (cancelled) {
                return false;
            }
            List<Waker> list = readSide(op) ? readWakers : writeWakers;
            for (Waker x : list) {
                if (x == w) { // the same task polled again before readiness
                    interest |= op;
                    return true;
                }
            }
            list.add(w);
            interest |= op;
            return true;
        }

        /** Takes the wakers of the ready ops and drops those ops from the interest set. */
        synchronized List<Waker> takeReady(int readyOps) {
            List<Waker> out = null;
            if ((readyOps & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT)) != 0 && !readWakers.isEmpty()) {
                out = new ArrayList<>(readWakers);
                readWakers.clear();
            }
            if ((readyOps & (SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT)) != 0 && !writeWakers.isEmpty()) {
                if (out == null) {
                    out = new ArrayList<>(writeWakers);
                } else {
                    out.addAll(writeWakers);
                }
                writeWakers.clear();
            }
            interest &= ~readyOps;
            return out;
        }

        synchronized List<Waker> takeAll() {
            List<Waker> out = new ArrayList<>(readWakers);
            out.addAll(writeWakers);
            readWakers.clear();
            writeWakers.clear();
            interest = 0;
            return out;
        }

        synchronized int interest() {
            return interest;
        }

        synchronized boolean cancel() {
            boolean was = cancelled;
            cancelled = true;
            return !was;
        }

        synchronized boolean isCancelled() {
            return cancelled;
        }
    }

    /** A registration for {@code channel} (non-blocking); nothing reaches the selector yet. */
    Registration register(SelectableChannel channel) {
        if (channel.isBlocking()) {
            throw new IllegalArgumentException("the channel must be in non-blocking mode");
        }
        return new Registration(channel);
    }

    /**
     * Wakes {@code waker} once {@code reg}'s channel is ready for {@code op} (or closed). If the
     * registration was cancelled, wakes it at once.
     */
    void await(Registration reg, int op, Waker waker) {
        if (closed) {
            throw new IllegalStateException("the reactor is closed");
        }
        if (!reg.add(op, waker)) {
            waker.wake();
            return;
        }
        enqueue(reg);
    }

    /** Cancels {@code reg}: its key goes away and its waiting tasks are woken. Idempotent. */
    void deregister(Registration reg) {
        if (reg.cancel()) {
            for (Waker w : reg.takeAll()) {
                w.wake();
            }
            enqueue(reg);
        }
    }

    private void enqueue(Registration reg) {
        if (reg.queued.compareAndSet(false, true)) {
            changes.add(reg);
            if (wakeupPending.compareAndSet(false, true)) {
                selector.wakeup();
            }
        }
    }

    private void run() {
        try {
            while (!closed) {
                selector.select();
                wakeupPending.set(false);
                applyChanges();
                Iterator<SelectionKey> it = selector.selectedKeys().iterator();
                while (it.hasNext()) {
                    SelectionKey key = it.next();
                    it.remove();
                    Registration reg = (Registration) key.attachment();
                    List<Waker> ready;
                    try {
                        int ops = key.readyOps();
                        ready = reg.takeReady(ops);
                        key.interestOps(reg.interest());
                    } catch (CancelledKeyException e) {
                        ready = reg.takeAll();
                    }
                    if (ready != null) {
                        wakeAll(ready);
                    }
                }
            }
        } catch (IOException | ClosedSelectorException e) {
            // fall through: the reactor is finished
        } finally {
            closed = true;
            for (SelectionKey key : safeKeys()) {
                wakeAll(((Registration) key.attachment()).takeAll());
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // nothing more to do
            }
        }
    }

    private List<SelectionKey> safeKeys() {
        try {
            return new ArrayList<>(selector.keys());
        } catch (ClosedSelectorException e) {
            return List.of();
        }
    }

    private void applyChanges() {
        for (Registration reg; (reg = changes.poll()) != null; ) {
            reg.queued.set(false); // a later change queues it again
            if (reg.isCancelled()) {
                if (reg.key != null) {
                    reg.key.cancel();
                }
                continue;
            }
            int ops = reg.interest();
            try {
                if (reg.key == null) {
                    if (ops != 0) {
                        reg.key = reg.channel.register(selector, ops, reg);
                    }
                } else {
                    reg.key.interestOps(ops);
                }
            } catch (ClosedChannelException | CancelledKeyException e) {
                // closed under us: let the waiting tasks retry and see the closure
                wakeAll(reg.takeAll());
            }
        }
    }

    private static void wakeAll(List<Waker> wakers) {
        for (Waker w : wakers) {
            try {
                w.wake();
            } catch (Throwable ignored) {
                // a waker must not throw; the selector thread must not die of it
            }
        }
    }
}
