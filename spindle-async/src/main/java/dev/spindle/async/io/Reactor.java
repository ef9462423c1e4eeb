/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import dev.spindle.async.IoDriver;
import dev.spindle.async.Waker;
import dev.spindle.internal.Strays;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * An NIO {@link Selector} on a thread of its own that turns socket readiness into
 * {@link Waker#wake()} calls. {@link AsyncTcpListener} and {@link AsyncTcpStream} use the
 * {@linkplain ReactorGroup#shared() shared group} of reactors unless given a reactor or a group;
 * {@link #shared()} is that group's first.
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
 * write/connect) and, if the registration's interest set lacks the operation, adds it and queues
 * the registration for the selector thread, calling {@link Selector#wakeup()} only if no wake-up
 * is already on its way. The selector thread applies queued interest changes (registering the
 * channel the first time) between {@code select} calls, since those must not race with a select
 * in progress. When a key is selected, the thread takes the wakers of the ready operations,
 * removes those operations from the interest set, and wakes them after leaving the registration's
 * lock. Selection is level-triggered: bytes that arrived between the failed attempt and the
 * interest change still select the key, so no wake-up is lost. A woken task simply retries.
 *
 * <p><b>Read-ahead.</b> Dropping and re-adding read interest around every read costs two
 * {@code epoll_ctl} calls and a selector wake-up per message, which dominated a request/response
 * load. So a registration may carry a {@link ReadAhead}: its read interest then stays armed, and
 * when the channel is readable the selector thread itself reads into the stream's buffer (under
 * the registration's lock) and wakes the readers. Interest is dropped only when the buffer is
 * full or the stream has ended, and re-armed by the reader that drains it. In the steady state a
 * message costs the selector's {@code select} and {@code read}, and no interest change at all.
 * The reader drains the buffer under the same lock, so it never races the selector's read, and
 * bytes reach the reader in order.
 *
 * <p>{@link #deregister} (on close) cancels the key and wakes every waiting task, which then
 * sees the channel closed.
 *
 * <p><b>Driven reactors.</b> A reactor of a {@linkplain ReactorGroup#openDriven driven group} has
 * no thread: it is an {@link IoDriver} that the idle workers of one {@code AsyncRuntime} drive
 * ({@code AsyncRuntime.Builder.driveIo}), one at a time. Its {@link #select} is one turn of the
 * selector thread's loop up to the selection (the {@code select} itself, then the queued interest
 * changes), its {@link #dispatch} the rest (the ready keys' wakers, woken on the driving worker).
 * Everything above holds unchanged: the "selector thread" is whichever worker drives, and
 * {@link #wakeup()} is the same deduplicated {@link Selector#wakeup()}, so a registration from
 * another thread, a timer that became earlier or a wake-up of the driving worker ends its
 * {@code select} at once. A {@link #close()} from another thread ends a {@code select} in
 * progress the same way and waits for it and the changes it applies (and for a dispatch under
 * way), then collects the keys: a registration is then either in the keys or still queued, and
 * woken from there.
 *
 * <p><b>A selector that fails.</b> An {@code IOException} from {@code select} (an
 * {@code epoll_wait} error) means the selector will never report an event again. Both kinds of
 * reactor then close as {@link #close()} does, waking every waiting task, report the exception
 * to the selecting thread's uncaught-exception handler, and give it as the cause of every
 * operation they refuse afterwards; a driven one also returns -1 to its driver, which retires it.
 * A failure handling one ready key (a read-ahead that throws, no memory for its wakers' list),
 * or applying one registration's interest change (no memory for its key), is not the
 * selector's: it is reported, that registration's tasks are woken to retry, and the reactor
 * goes on with the others (see {@code failedKey} and {@code failedChange}). Nor is an error
 * that {@code select} throws (no memory as the JDK fills the selected keys): it is reported and
 * the reactor goes on, its selector thread after a short pause ({@code selectFailed}), a driven
 * one driven again by its runtime after one.
 */
public final class Reactor implements AutoCloseable, IoDriver {

    private static Reactor shared;

    private final Selector selector;
    private final Thread thread;
    /**
     * Whether this is one of the JVM-wide group's reactors ({@link #shared()} or another of
     * {@link ReactorGroup#shared()}): never closed, since every later one-argument
     * {@code connect} and {@code bind} of the JVM may land on it. Checking only for
     * {@link #shared()} let a caller close the group's other reactors, and every such connect
     * afterwards failed with "the reactor is closed".
     */
    private volatile boolean keptOpen;
    private final ConcurrentLinkedQueue<Registration> changes = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean wakeupPending = new AtomicBoolean();
    private final AtomicLong queuedChanges = new AtomicLong();
    /** Driven reactors: claimed by the runtime whose workers drive it. */
    private final AtomicBoolean claimed = new AtomicBoolean();
    /**
     * Driven reactors: held by the driver through {@link #select} (the select and the queued
     * changes it applies) and {@link #dispatch} (the walk of the selected keys), and by
     * {@link #close()} while it collects the keys and closes the selector. Without it a change
     * the driver had taken off the queue but not yet registered was in neither the keys nor the
     * queue that the close wakes, and its task slept for ever; and a close cleared the selected
     * keys under a dispatch's walk.
     */
    private final Object driveLock = new Object();
    private volatile boolean closed;
    /**
     * What the selector threw when it failed, which closed this reactor; null while it works or
     * after a plain {@link #close()}. Written before {@code closed}, so a reader that sees the flag
     * set by a failure sees this too; operations refused afterwards carry it as their cause.
     */
    private volatile IOException failure;
    /**
     * Read-ahead buffers of closed streams, for the next streams of this reactor. Without them
     * each buffer went back only when the garbage collector found its stream unreachable, and
     * where {@code -XX:+DisableExplicitGC} keeps the JDK's direct-memory reservation from
     * forcing that, a server of many short connections ran out of direct memory (its
     * connections failing) with only a few of them open. Guarded by itself; at most
     * {@link #SPARE_BUFFERS}, and none once closed ({@link #dropSpareBuffers}).
     */
    private final ArrayDeque<ByteBuffer> spareBuffers = new ArrayDeque<>();
    /** Most read-ahead buffers kept for reuse (256 KiB of 16 KiB buffers). */
    static final int SPARE_BUFFERS = 16;
    /** Returns from {@code select} of the selector thread so far (see {@link #awaitReleased}). */
    private volatile long turns;
    /**
     * The keys that selects found ready and no dispatch has taken yet, in the order found:
     * {@code readyKeys[readyHead, readyCount)}. Filled by the {@code select(Consumer)} forms'
     * action ({@link #collectReady}) instead of the selector's selected-key set, a
     * {@code HashSet} that allocated a node for every ready key and an iterator every turn
     * (about 25 bytes a request of an echo server's workers). A key is in it once at most
     * ({@link Registration#awaitingDispatch}), as it is in a set, with the ready sets it was
     * found with joined ({@link Registration#readyOps}), as that set joined them; a walk that
     * stops early (the reactor closed, or a dispatch that threw) leaves the rest for the next, as
     * keys left in the set were. Confined to the thread that selects: the selector thread, or the driver
     * (and {@link #releaseUndriven}) under {@link #driveLock}, whose hand-over orders one holder's
     * use before the next one's.
     */
    private SelectionKey[] readyKeys = new SelectionKey[16];
    private int readyHead;
    private int readyCount;
    private final Consumer<SelectionKey> collectReady = this::collectReady;

    /**
     * A reactor with a selector thread named {@code name}, or a driven one if {@code name} is null.
     * The thread inherits no {@link InheritableThreadLocal} values: it runs the wakers of every
     * task that waits on it, not only its opener's. A JVM-wide one ({@code jvmWide}), opened by
     * whichever thread first does I/O, has the system class loader rather than the opener's (a
     * web application's was pinned for the life of the JVM) and normal priority; one opened by
     * {@link #open()} keeps its opener's loader and priority, as a pool's workers take those of
     * the thread that built it. The system loader, as the common pool's workers have, and not
     * null: the wakers fired here are user code when a caller polls a task itself, and
     * {@code getContextClassLoader().getResource(..)} threw a NullPointerException in them.
     */
    private Reactor(String name, boolean jvmWide) throws IOException {
        this(Selector.open(), name, jvmWide);
    }

    /** As {@link #Reactor(String, boolean)} with a given selector (tests pass one that fails). */
    Reactor(Selector selector, String name, boolean jvmWide) {
        this(selector, name, jvmWide, Thread::start);
    }

    /**
     * As {@link #Reactor(Selector, String, boolean)}, starting the selector thread with
     * {@code start} (tests pass one that fails). If the thread cannot be made or started (no
     * memory, "unable to create native thread"), the selector is closed and the failure thrown:
     * nobody gets this reactor to close, so its epoll instance and file descriptors stayed open
     * for the life of the JVM, one more with every failed open.
     */
    Reactor(Selector selector, String name, boolean jvmWide, Consumer<Thread> start) {
        this.selector = selector;
        if (name == null) {
            thread = null;
            return;
        }
        try {
            thread = new Thread(null, this::run, name, 0, false);
            thread.setDaemon(true);
            if (jvmWide) {
                thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
                thread.setPriority(Thread.NORM_PRIORITY);
            }
            start.accept(thread);
        } catch (RuntimeException | Error e) {
            try {
                selector.close();
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * The JVM-wide reactor, started on first use (a daemon thread, {@code spindle-async-reactor}).
     *
     * @return the shared reactor
     * @throws java.io.UncheckedIOException if its selector cannot be opened
     */
    public static synchronized Reactor shared() {
        if (shared == null) {
            try {
                shared = openJvmWide("spindle-async-reactor");
                shared.keepOpen();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot open a selector", e);
            }
        }
        return shared;
    }

    /**
     * A reactor with a selector thread of its own; {@link #close()} stops it.
     *
     * @return a new reactor, its thread started; the caller closes it
     * @throws IOException if the selector cannot be opened
     * @throws OutOfMemoryError if the thread cannot be started; the selector is closed first
     */
    public static Reactor open() throws IOException {
        return new Reactor(uniqueName(), false);
    }

    /**
     * A reactor of the JVM-wide group ({@link #shared()}, {@link ReactorGroup#shared()}): its
     * selector thread keeps nothing of the thread that calls, which is whichever thread first
     * does I/O, while the reactor lives as long as the JVM and fires every later task's wakers.
     */
    static Reactor openJvmWide(String name) throws IOException {
        return new Reactor(name, true);
    }

    /** Makes {@link #close()} refuse this reactor: it serves the JVM-wide group for good. */
    void keepOpen() {
        keptOpen = true;
    }

    /** A name for a reactor of its own: {@code spindle-async-reactor-} and a number. */
    static String uniqueName() {
        return "spindle-async-reactor-" + System.identityHashCode(new Object());
    }

    /** A reactor without a thread, for the workers of one runtime to drive ({@link ReactorGroup#openDriven}). */
    static Reactor openDriven() throws IOException {
        return new Reactor(null, false);
    }

    /**
     * Stops the selector thread and closes the selector; a driven reactor closes its selector
     * (ending a {@code select} in progress) and wakes every waiting task, whose operation then
     * fails with an {@link IllegalStateException} saying the reactor is closed. The channels
     * themselves stay open until their streams and listeners are closed. Called on the selector
     * thread itself (by a waker it runs), it only signals: the thread stops and closes the
     * selector once the dispatch under way returns. Otherwise it waits for the selector thread
     * to end (up to 10 s), whether or not the caller is interrupted; an interrupt status stays
     * set. Not allowed for {@link #shared()} nor any other reactor of {@link ReactorGroup#shared()}.
     *
     * @throws IllegalStateException if this is the {@linkplain #shared() shared} reactor or
     *     another of the shared group's
     * @throws IOException if the selector cannot be closed; the reactor is closed all the same,
     *     and its waiting tasks woken
     */
    @Override
    public void close() throws IOException {
        if (keptOpen) {
            throw new IllegalStateException("the shared reactor stays open, as do all of the shared group's");
        }
        closed = true;
        dropSpareBuffers();
        selector.wakeup();
        if (thread == null) {
            List<SelectionKey> keys;
            IOException notClosed = null;
            synchronized (driveLock) {         // the wake-up above ends a select in progress
                keys = safeKeys();
                try {
                    selector.close();
                } catch (IOException e) {
                    // thrown after the wake-up below: thrown here, it skipped it, and the tasks
                    // waiting on this reactor, closed for good, slept for good
                    notClosed = e;
                }
            }
            wakeClosed(keys);                  // and the changes not registered with the selector yet
            if (notClosed != null) {
                throw notClosed;
            }
            return;
        }
        if (Thread.currentThread() == thread) {
            // From the selector thread itself (a waker or handler it runs): it cannot wait for
            // itself; joining it waited out the whole bound. Its loop sees the flag once this
            // dispatch returns, and wakes what is left and closes the selector on its way out.
            return;
        }
        // The caller's interrupt does not cut the wait short: join threw at once for a caller
        // whose status was set, and close() returned with the selector thread running and the
        // selector open. The status is set again on the way out.
        boolean interrupted = Thread.interrupted();
        try {
            long deadline = System.nanoTime() + CLOSE_WAIT_NANOS;
            for (long left; thread.isAlive() && (left = deadline - System.nanoTime()) > 0; ) {
                try {
                    thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** How long {@link #close()} waits for the selector thread at most. */
    private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    // ------------------------------------------------------------------ IoDriver (driven reactors)

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException if this reactor has a selector thread of its own, is claimed
     *     already, or is closed
     */
    @Override
    public void claim() {
        if (thread != null) {
            throw new IllegalStateException("this reactor has a selector thread of its own; "
                    + "use the reactors of ReactorGroup.openDriven");
        }
        checkOpen();
        if (!claimed.compareAndSet(false, true)) {
            throw new IllegalStateException("this reactor is driven by another runtime already");
        }
    }

    /**
     * {@inheritDoc} Lets go of the sockets closed since the last driver's select
     * ({@link #releaseUndriven}).
     */
    @Override
    public void unclaim() {
        checkDriven();
        claimed.set(false);
        // A runtime gives its reactors back after its workers' last select, and after cancelling
        // the tasks left at its shutdown, whose cancel may close what they hold (a connect its
        // socket, a server task its listener). Such a close found the reactor claimed and left
        // its key to a driver's next select, which never came: the socket stayed open, a
        // listener's port bound, until a new runtime drove the group or the group was closed.
        releaseUndriven();
    }

    /** {@inheritDoc} For a driven reactor only, by the worker that drives it. */
    @Override
    public int select(long timeoutNanos) {
        checkDriven();
        List<SelectionKey> keys;
        synchronized (driveLock) {
            if (closed) {
                return -1;                     // close() wakes what waits; it may not have closed the selector yet
            }
            try {
                return selectLocked(timeoutNanos);
            } catch (IOException e) {
                // The selector failed (epoll_wait's error, say): it will never report an event
                // again, so the reactor closes as the selector thread's loop does on the same
                // failure. Left open, it returned -1 here and its driver was retired, but
                // checkOpen() still passed, ReactorGroup.next() still handed it out and the
                // tasks waiting on it were never woken. Collected under the lock, as close()
                // does: a change the driver took off the queue is then registered or still queued.
                keys = failClosed(e);
            }
        }
        wakeClosed(keys);                      // outside the lock, as close() wakes
        reportFailure();                       // and the user's handler runs outside it too
        return -1;
    }

    /**
     * Marks this reactor closed by {@code e} and closes the selector; returns the keys whose
     * tasks {@link #wakeClosed} then wakes. On the selector's own thread, or by the driver under
     * {@link #driveLock}.
     */
    private List<SelectionKey> failClosed(IOException e) {
        failure = e;
        closed = true;
        dropSpareBuffers();
        List<SelectionKey> keys = safeKeys();
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing a selector that failed: nothing more to do
        }
        return keys;
    }

    /** Reports the selector's failure to this thread's uncaught-exception handler, once woken what waited. */
    private void reportFailure() {
        Strays.report(new UncheckedIOException("the reactor's selector failed; the reactor is closed", failure));
    }

    /**
     * Wakes the tasks of {@code keys} and of the changes still queued, once closed. Each
     * registration's through {@link #wakeEvery}: a list of wakers that could not be made went
     * out of here at the first registration, and the tasks of that one and of every one after it
     * slept for good on a reactor closed for good (a driven reactor's close threw the error, a
     * selector thread died of it with its selector open).
     */
    private void wakeClosed(List<SelectionKey> keys) {
        for (SelectionKey key : keys) {
            wakeEvery((Registration) key.attachment());
        }
        wakeQueued();
    }

    private int selectLocked(long timeoutNanos) throws IOException {
        try {
            if (timeoutNanos == 0) {
                if (selector.keys().isEmpty() && changes.isEmpty()) {
                    return 0;                  // nothing registered: spare busy workers a system call
                }
                selector.selectNow(collectReady);
            } else if (timeoutNanos < 0) {
                selector.select(collectReady);
            } else {
                // milliseconds, rounded up: a timer is never fired early, and a sub-millisecond
                // wait does not turn into a spin of select(0)s. Not (timeoutNanos + 999_999) /
                // 1_000_000: that overflows within a millisecond of Long.MAX_VALUE (a saturated
                // timeout), and the negative quotient made the longest wait a 1 ms one
                long millis = timeoutNanos / 1_000_000 + (timeoutNanos % 1_000_000 != 0 ? 1 : 0);
                selector.select(collectReady, Math.max(1, millis));
            }
            wakeupPending.set(false);
            applyChanges();
            return readyCount - readyHead;
        } catch (ClosedSelectorException e) {
            return -1;                         // closed by close() between its flag and this turn
        }
    }

    /** {@inheritDoc} For a driven reactor only, by the worker that drives it. */
    @Override
    public void dispatch() {
        checkDriven();
        // Under the lock that close() takes to close the selector: with the selector's
        // selected-key set (a plain HashSet), a close from another thread cleared it under this
        // walk (a ConcurrentModificationException that killed the driving worker, and its
        // runtime); the ready keys are the lock holder's alone. A waker that closes the reactor
        // on this thread re-enters the lock; the walk then stops at the closed flag (see
        // dispatchSelected).
        synchronized (driveLock) {
            try {
                dispatchSelected();
            } catch (ClosedSelectorException e) {
                // closed meanwhile: close() woke the waiting tasks
            }
        }
    }

    /** {@inheritDoc} Deduplicated: a wake-up already on its way is not sent again. */
    @Override
    public void wakeup() {
        if (wakeupPending.compareAndSet(false, true)) {
            selector.wakeup();
        }
    }

    private void checkDriven() {
        if (thread != null) {
            throw new IllegalStateException("this reactor has a selector thread of its own");
        }
    }

    /**
     * A stream's read-ahead buffer, filled by the selector thread while the stream's read
     * interest is armed. Its methods run with the registration's lock held.
     */
    interface ReadAhead {
        /** What a {@link #fill()} did. */
        enum Fill {
            /** Nothing was read (a spurious selection); keep waiting. */
            NOTHING,
            /** Bytes were read and there is room for more. */
            MORE,
            /** Bytes were read and the buffer is full: stop reading until it is drained. */
            FULL,
            /** End of stream or an I/O error was recorded: stop reading for good. */
            ENDED
        }

        /** Reads what the channel has into the buffer, without blocking. */
        Fill fill();
    }

    /** The registration of one channel; the channel must be in non-blocking mode. */
    static final class Registration {
        /**
         * Wakers a side holds before an add drops the expired ones ({@link Waker#expired}): an
         * operation given up on leaves its waker until the channel is ready, and a task per
         * attempt on an idle channel would add one each time. Dropping them when the list has
         * doubled since the last drop keeps it within about twice its live wakers at O(1) per
         * add, amortised.
         */
        static final int PRUNE_MIN = 16;

        final SelectableChannel channel;
        final AtomicBoolean queued = new AtomicBoolean();
        private final List<Waker> readWakers = new ArrayList<>(1);  // OP_READ, OP_ACCEPT
        private final List<Waker> writeWakers = new ArrayList<>(1); // OP_WRITE, OP_CONNECT
        /** Size of {@code readWakers} at which the next add drops expired wakers; guarded by this. */
        private int readPruneAt = PRUNE_MIN;
        /** The same for {@code writeWakers}; guarded by this. */
        private int writePruneAt = PRUNE_MIN;
        private ReadAhead readAhead;  // guarded by this; null: no read-ahead
        private int interest;         // guarded by this
        private boolean cancelled;    // guarded by this
        /**
         * Whether its key is among the reactor's ready keys waiting for a dispatch. Confined to
         * the thread that selects, as those keys are.
         */
        boolean awaitingDispatch;
        /**
         * While {@link #awaitingDispatch}: the operations the selects that noted its key found
         * ready, joined. Confined as that flag is.
         */
        int readyOps;
        SelectionKey key;             // selector thread only

        Registration(SelectableChannel channel) {
            this.channel = channel;
        }

        private static boolean readSide(int op) {
            return (op & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT)) != 0;
        }

        /**
         * Adds {@code w} for {@code op}.
         *
         * @return {@code NO_CHANGE} if the interest set already held {@code op}, {@code CHANGED}
         *     if it was added (the selector thread must apply it), {@code CANCELLED} if the
         *     registration was cancelled (nothing was added)
         */
        synchronized int add(int op, Waker w) {
            if (cancelled) {
                return CANCELLED;
            }
            boolean read = readSide(op);
            List<Waker> list = read ? readWakers : writeWakers;
            boolean present = false;
            for (Waker x : list) {
                if (x == w) { // the same task polled again before readiness
                    present = true;
                    break;
                }
            }
            if (!present) {
                list.add(w);
                if (list.size() >= (read ? readPruneAt : writePruneAt)) {
                    // wakers of operations given up on (timed out, cancelled, their task done)
                    // stay until readiness; drop the expired ones once the list has doubled
                    list.removeIf(Registration::expired);
                    int next = Math.max(PRUNE_MIN, 2 * list.size());
                    if (read) {
                        readPruneAt = next;
                    } else {
                        writePruneAt = next;
                    }
                }
            }
            return armLocked(op);
        }

        /**
         * {@link Waker#expired()}, which must not throw. One that does is reported, as a waker
         * whose {@code wake()} throws is ({@link #wakeAll}), and kept (it is woken with the
         * others): asked at every drop of expired wakers, it threw out of the add of whichever
         * task came next, before its interest was armed and without moving the next drop point,
         * so every later read or accept of the channel failed with it, and with nothing armed no
         * readiness ever came to clear the list.
         */
        private static boolean expired(Waker w) {
            try {
                return w.expired();
            } catch (Throwable e) {
                Strays.report(e);              // never throws
                return false;
            }
        }

        /** For tests: the wakers waiting to read or accept. */
        synchronized int readWakerCount() {
            return readWakers.size();
        }

        /** Adds {@code op} to the interest set; {@code CHANGED} if it was not there. Lock held. */
        int armLocked(int op) {
            if ((interest & op) == op) {
                return NO_CHANGE;
            }
            interest |= op;
            return CHANGED;
        }

        /**
         * Drops {@code op} from the interest set, leaving the wakers as they are; {@code CHANGED}
         * if it was there (the caller then queues the change), {@code NO_CHANGE} if it was not
         * or the registration is cancelled.
         */
        synchronized int disarm(int op) {
            if (cancelled || (interest & op) == 0) {
                return NO_CHANGE;
            }
            interest &= ~op;
            return CHANGED;
        }

        /** Whether the interest set holds {@code op}. Lock held. */
        boolean isArmedLocked(int op) {
            return (interest & op) == op;
        }

        /**
         * Gives this registration a read-ahead buffer, used from the first time read interest
         * is armed.
         */
        synchronized void setReadAhead(ReadAhead ra) {
            readAhead = ra;
        }

        /**
         * Takes the wakers of the ready ops and drops those ops from the interest set, except
         * read interest under read-ahead, which stays while the buffer has room. Returns what
         * {@link #wakeTaken} wakes: {@code null} for none, the {@link Waker} itself for one (the
         * steady state of a request/response stream: one task waits on it), a new list only for
         * several. A list for every ready key, walked by an iterator, was a fifth of what an echo
         * server's workers allocated per request (57 of 305 bytes).
         */
        synchronized Object takeReady(int readyOps) {
            int handled = readyOps;
            boolean read;
            if (readAhead != null && (readyOps & SelectionKey.OP_READ) != 0) {
                ReadAhead.Fill f = readAhead.fill();
                if (f == ReadAhead.Fill.NOTHING || f == ReadAhead.Fill.MORE) {
                    handled &= ~SelectionKey.OP_READ;  // stays armed
                }
                read = f != ReadAhead.Fill.NOTHING;
            } else {
                read = (readyOps & (SelectionKey.OP_READ | SelectionKey.OP_ACCEPT)) != 0;
            }
            boolean write = (readyOps & (SelectionKey.OP_WRITE | SelectionKey.OP_CONNECT)) != 0;
            int reads = read ? readWakers.size() : 0;
            int n = reads + (write ? writeWakers.size() : 0);
            Object out;
            if (n == 0) {
                out = null;
            } else if (n == 1) {
                out = reads == 1 ? readWakers.get(0) : writeWakers.get(0);
            } else {
                List<Waker> list = new ArrayList<>(n);
                if (read) {
                    list.addAll(readWakers);
                }
                if (write) {
                    list.addAll(writeWakers);
                }
                out = list;
            }
            // Off the registration only now, with nothing left to allocate: a list that could
            // not be made leaves every waker where failedKey's takeAll finds it.
            if (read) {
                readWakers.clear();
            }
            if (write) {
                writeWakers.clear();
            }
            interest &= ~handled;
            return out;
        }

        synchronized List<Waker> takeAll() {
            Runnable hook = beforeTakeAll;
            if (hook != null) {
                hook.run();
            }
            List<Waker> out = new ArrayList<>(readWakers);
            out.addAll(writeWakers);
            readWakers.clear();
            writeWakers.clear();
            interest = 0;
            return out;
        }

        /**
         * As {@link #takeAll}, one waker at a time (the last of either list), allocating
         * nothing; {@code null} once none is left.
         */
        synchronized Waker takeOne() {
            interest = 0;
            if (!readWakers.isEmpty()) {
                return readWakers.remove(readWakers.size() - 1);
            }
            return writeWakers.isEmpty() ? null : writeWakers.remove(writeWakers.size() - 1);
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

    /**
     * A cleared read-ahead buffer of {@code bytes}: one a closed stream gave back, or a new one.
     *
     * @throws OutOfMemoryError if none is spare and no direct memory is left
     */
    ByteBuffer takeBuffer(int bytes) {
        synchronized (spareBuffers) {
            ByteBuffer b = spareBuffers.poll();
            if (b != null && b.capacity() == bytes) {
                return b.clear();
            }
        }
        return ByteBuffer.allocateDirect(bytes);
    }

    /**
     * Takes back a read-ahead buffer from a closed stream that nothing reads into or from any
     * more; beyond {@link #SPARE_BUFFERS}, or once this reactor is closed, it is left to the
     * garbage collector.
     */
    void giveBuffer(ByteBuffer buffer) {
        synchronized (spareBuffers) {
            if (!closed && spareBuffers.size() < SPARE_BUFFERS) {
                spareBuffers.push(buffer);
            }
        }
    }

    /**
     * Leaves the spare buffers to the garbage collector, once {@code closed} is set: a closed
     * reactor reads ahead for no new stream, yet it kept up to {@link #SPARE_BUFFERS} of them
     * (256 KiB of direct memory) for as long as anything reached it, which each of its streams
     * still open does. {@link #giveBuffer} reads {@code closed} under the same lock, so a buffer
     * given back after this is not kept either.
     */
    private void dropSpareBuffers() {
        synchronized (spareBuffers) {
            spareBuffers.clear();
        }
    }

    /** A registration for {@code channel} (non-blocking); nothing reaches the selector yet. */
    Registration register(SelectableChannel channel) {
        if (channel.isBlocking()) {
            throw new IllegalArgumentException("the channel must be in non-blocking mode");
        }
        return new Registration(channel);
    }

    static final int NO_CHANGE = 0;
    static final int CHANGED = 1;
    static final int CANCELLED = 2;

    /**
     * Wakes {@code waker} once {@code reg}'s channel is ready for {@code op} (or closed). If the
     * registration was cancelled, wakes it at once.
     */
    void await(Registration reg, int op, Waker waker) {
        toWaitWith(waker, op);
        checkOpen();
        int r = reg.add(op, waker);
        if (r == CANCELLED) {
            waker.wake();
            return;
        }
        if (r == CHANGED) {
            enqueue(reg);
        }
        wakeIfClosedMeanwhile(reg);
    }

    /**
     * {@code w}, the waker of a poll about to wait for {@code op} on a registration; checked
     * before anything is armed.
     *
     * @throws NullPointerException if {@code w} is null (a hand-written context): registered,
     *     it returned the poll pending, and readiness later "woke" it with a NullPointerException
     *     reported on the selector thread, so its task waited for good; refused here as the
     *     channel operations, a sleep and the combinators refuse it
     */
    static Waker toWaitWith(Waker w, int op) {
        if (w == null) {
            String what = op == SelectionKey.OP_ACCEPT ? "accept"
                    : op == SelectionKey.OP_READ ? "read"
                    : op == SelectionKey.OP_CONNECT ? "connect" : "write";
            throw new NullPointerException("Context.waker() returned null: a socket's " + what
                    + " is awaited by registering the waker of the poll that finds it pending");
        }
        return w;
    }

    /**
     * A close that ran between {@link #checkOpen} and the waker's registration has woken what it
     * found (the registrations with keys, and the queued changes) and may have missed this one:
     * {@code closed} is set before that wake-up and read here after the waker is added (both
     * volatile, or an atomic queue operation), so either the close's wake-up finds the waker or
     * this read sees the close and wakes it. A waker woken twice is harmless.
     */
    private void wakeIfClosedMeanwhile(Registration reg) {
        if (closed) {
            wakeEvery(reg);
        }
    }

    /**
     * Passes on an interest change made under {@code reg}'s lock ({@link Registration#armLocked}
     * returned {@code CHANGED}) to the selector thread. Call it after leaving the lock. It does
     * not refuse a closed reactor: the change was made already, and a read that re-arms after
     * draining buffered bytes must return them. Once closed, the queued registration is taken
     * off again at once (see {@link #enqueue}), which drops its interest and wakes its wakers;
     * so a caller that would wait checks {@link #checkOpen} first, under the lock.
     */
    void interestChanged(Registration reg) {
        enqueue(reg);
        wakeIfClosedMeanwhile(reg);
    }

    /** Whether {@link #close()} has been called: nothing can wait here any more. */
    boolean isClosed() {
        return closed;
    }

    /**
     * Refuses an operation that would wait on a closed reactor: nothing would ever wake it.
     *
     * @throws IllegalStateException if the reactor is closed
     */
    void checkOpen() {
        if (closed) {
            IOException cause = failure;
            throw cause == null
                    ? new IllegalStateException("the reactor is closed")
                    : new IllegalStateException("the reactor is closed: its selector failed", cause);
        }
    }

    /**
     * Cancels {@code reg}: its key goes away and its waiting tasks are woken. Idempotent. A waker
     * that throws is reported as the selector thread reports one ({@link #wakeAll}): woken here,
     * on the thread closing a stream or listener, it went out of that close, past the wakers
     * after it (their tasks slept for good) and past the key's cancel (the selector kept the
     * socket open, a listener's port bound, for as long as the reactor lived).
     */
    void deregister(Registration reg) {
        if (reg.cancel()) {
            // Through wakeEvery: a list of wakers that could not be made (no memory), thrown out
            // of here after the cancel above, left the tasks waiting on the closed channel asleep
            // for good (a second close finds the registration cancelled and does nothing). The
            // key is dropped as ever; the close has done all it had to.
            wakeEvery(reg);
            enqueue(reg);
        }
    }

    /**
     * Run, if set, as {@link Registration#takeAll} starts, under the registration's lock: a seam
     * for tests, which throw from it what a full heap throws there. Read only on a close or a
     * failure, never by a read or write.
     */
    static volatile Runnable beforeTakeAll;

    /** How long {@link #awaitReleased} waits for the selector thread at most. */
    private static final long RELEASE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(5);

    /**
     * Waits until the selector has let go of {@code reg}'s channel, closed and
     * {@linkplain #deregister deregistered} already. The JDK closes the socket of a channel
     * registered with a selector only when that selector drops its cancelled key, in a
     * {@code select}: a listener's port stayed bound, and listening, after its close() returned,
     * until the selector thread's next turn. Waits only for a reactor with a selector thread, not
     * on that thread, and not past a bound. A driven reactor's socket goes at its driver's next
     * select, or here if no runtime drives it ({@link #releaseUndriven}).
     */
    void awaitReleased(Registration reg) {
        if (thread == null) {
            releaseUndriven();
            return;
        }
        if (Thread.currentThread() == thread) {
            return;
        }
        long deadline = System.nanoTime() + RELEASE_WAIT_NANOS;
        // The select that drops the key closes the socket after it, before it returns: once the
        // key is gone, one more return of select() means that select is over.
        long seen = -1;
        while (seen < 0 || turns == seen) {
            if (closed || deadline - System.nanoTime() <= 0) {
                return;
            }
            if (seen < 0 && !reg.channel.isRegistered()) {
                seen = turns;
                continue;
            }
            selector.wakeup();                 // each select drops the cancelled keys, and returns
            LockSupport.parkNanos(50_000);
        }
    }

    /**
     * After a stream's {@link #deregister}: on a driven reactor that no runtime drives, lets go of
     * its socket now ({@link #releaseUndriven}); otherwise nothing (a selector thread or a driver
     * drops the key at its next select, woken by the deregistration). A stream's close does not
     * wait as a listener's does ({@link #awaitReleased}): that wait is for a port to bind again.
     * Without it, a stream closed after its runtime (a server that stops its workers, then closes
     * the connections it holds) kept its key and its socket open until a new runtime selected or
     * the group was closed, and its peer's next bytes went unanswered, never reset.
     */
    void releaseIfUndriven() {
        if (thread == null) {
            releaseUndriven();
        }
    }

    /**
     * For a driven reactor that no runtime drives (none built yet, or its runtime closed): applies
     * the queued changes, which cancel the keys of channels closed since, and drops those keys
     * with a {@code selectNow}, as the driver's next turn would. Nobody else would select until a
     * runtime claims the reactor or it is closed, and until then a listener's port closed there
     * stayed bound: a server restarted in-process, its group kept, could not bind it again before
     * building its new runtime ("Address already in use"). Under {@link #driveLock}, as a driver's
     * turn: a runtime that claims the reactor meanwhile selects after this. What the
     * {@code selectNow} finds ready stays in the ready keys for that driver's first turn, and
     * a wake-up it consumed is sent again for that turn.
     */
    private void releaseUndriven() {
        if (claimed.get()) {
            return;                            // its driver selects: it drops the keys
        }
        synchronized (driveLock) {
            if (closed || claimed.get()) {
                return;                        // the close dropped them all, or a driver will
            }
            Runnable hook = beforeUndrivenSelect;
            if (hook != null) {
                hook.run();
            }
            try {
                applyChanges();
                selector.selectNow(collectReady);
                // The selectNow consumed any wake-up sent before it, yet this is no turn of a
                // driver, the one its sender meant to end: a runtime that claimed the reactor
                // meanwhile may have woken its worker, which waits for this lock to select.
                // Clearing the flag here, as a driver's turn does, lost that wake-up: the
                // worker's select slept until a socket became ready, for good with no timer
                // pending, and the task it was woken for waited with it. So the flag stays, and
                // the wake-up it says was sent is sent again; a change queued meanwhile, whose
                // own wake-up the flag spared, is applied by the select that wake-up ends.
                if (wakeupPending.get()) {
                    selector.wakeup();
                }
            } catch (IOException e) {
                // the selector failed: the next driver's select meets it and closes the reactor
            } catch (ClosedSelectorException e) {
                // closed meanwhile: nothing is registered any more
            }
        }
    }

    /**
     * Run, if set, by {@link #releaseUndriven} under {@link #driveLock}, before it selects: a
     * seam for tests, which claim the reactor and wake it there as a runtime built meanwhile
     * does. Read only on a close, never by a read or write.
     */
    static volatile Runnable beforeUndrivenSelect;

    /** Channels registered with the selector now (for tests: a snapshot of a changing count). */
    int registeredChannels() {
        try {
            return selector.keys().size();
        } catch (ClosedSelectorException e) {
            return 0;
        }
    }

    /** Registrations queued for an interest change so far (tests check the read-ahead with it). */
    long queuedChanges() {
        return queuedChanges.get();
    }

    private void enqueue(Registration reg) {
        queuedChanges.incrementAndGet();
        if (reg.queued.compareAndSet(false, true)) {
            try {
                changes.add(reg);
            } catch (Throwable t) {
                // No memory for the queue's node. Left marked queued and on no queue, the
                // registration queued nothing ever again: its armed interest never reached the
                // selector, and every later read of its stream slept for good. Handled as a
                // change that failed to apply: reported, and its tasks woken with the interest
                // dropped, so a retry arms it and queues it again.
                reg.queued.set(false);
                failedChange(reg, t);
                return;
            }
            wakeup();
            if (closed) {
                // Nobody selects any more, so nobody would take it off the queue: a stream
                // closed after its reactor stayed reachable from it, buffer and all, as long as
                // anything kept the reactor (each stream still open does). closed is set before
                // the close drains the queue and read here after the add, so one of the two
                // takes it; draining it twice is harmless.
                wakeQueued();
            }
        }
    }

    private void run() {
        IOException failed = null;
        try {
            while (!closed) {
                // A stray interrupt: nothing stops this thread by interrupting it (close() sets
                // the flag). A waker run here (user code, when a task is polled by hand) that
                // left the status set, as "catch InterruptedException, interrupt again" does,
                // made every select return at once, and this thread spun for good.
                Thread.interrupted();
                try {
                    selector.select(collectReady);
                    turns++;                   // this thread alone writes it
                    selectPause = 0;
                } catch (IOException | ClosedSelectorException e) {
                    throw e;                   // the selector failed, or was closed: see below
                } catch (RuntimeException | Error e) {
                    selectFailed(e);           // not a turn: it may not have dropped the cancelled keys
                }
                wakeupPending.set(false);
                applyChanges();
                dispatchSelected();
            }
        } catch (IOException e) {
            failed = e;                        // the selector failed: the reactor closes and says why
        } catch (ClosedSelectorException e) {
            // fall through: the reactor is finished
        } finally {
            if (failed != null) {
                wakeClosed(failClosed(failed));
                reportFailure();
            } else {
                closed = true;
                dropSpareBuffers();
                wakeClosed(safeKeys());
                try {
                    selector.close();
                } catch (IOException ignored) {
                    // nothing more to do
                }
            }
        }
    }

    /**
     * Pause of the selector thread after its last {@code select} that threw an error, in
     * milliseconds; 0 once one returned. Selector thread only.
     */
    private long selectPause;
    /** The longest pause after a {@code select} that threw (see {@link #selectFailed}). */
    private static final long MAX_SELECT_PAUSE_MILLIS = 100;

    /**
     * The selector thread's {@code select} threw something other than an {@code IOException}
     * (an {@link OutOfMemoryError} as the JDK fills the selected keys, say). That error left the
     * loop before: the thread died with it and the reactor closed, for every channel it served
     * (for a reactor of the shared group, kept open, every later one-argument {@code connect}
     * and {@code bind} of the JVM). It is not the selector's failure, as an {@code epoll_wait}
     * error is, so the thread reports it, as a driven reactor's driver does, and goes on with
     * the turn: the changes queued meanwhile are applied, what was selected is dispatched, and
     * the next {@code select} looks again (level-triggered, no event is lost). A pause that
     * grows while selects keep failing, 1 ms doubling up to {@value #MAX_SELECT_PAUSE_MILLIS}
     * ms, keeps an error that recurs from turning the thread into a spin that reports it each
     * time. Never throws.
     */
    private void selectFailed(Throwable e) {
        Strays.report(e);                      // never throws
        selectPause = Math.min(MAX_SELECT_PAUSE_MILLIS, Math.max(1, 2 * selectPause));
        LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(selectPause));
    }

    /**
     * The action of every select: notes a ready key for {@link #dispatchSelected}, once, with the
     * union of the ready sets it was found with until then ({@link Registration#readyOps}). If the
     * array cannot grow (no memory), the error leaves the select as one from filling the
     * selected-key set did, and the key, level-triggered, is found ready again by the next.
     */
    private void collectReady(SelectionKey key) {
        Registration reg = (Registration) key.attachment();
        if (reg.awaitingDispatch) {
            // noted already: by this select, which may call once per subset of the ready
            // operations (kqueue: one call per filter), each call's ready set replacing the last
            // one's, or by an earlier select whose walk stopped. Joined, as in the selected-key set
            // the array replaced: read from the key alone, the dispatch woke the writers of a key
            // ready to read and to write, and its readers only at a later select
            reg.readyOps |= key.readyOps();
            return;
        }
        if (readyCount == readyKeys.length) {
            if (readyHead > 0) {               // room at the front: move the rest there
                System.arraycopy(readyKeys, readyHead, readyKeys, 0, readyCount - readyHead);
                Arrays.fill(readyKeys, readyCount - readyHead, readyCount, null);
                readyCount -= readyHead;
                readyHead = 0;
            } else {
                readyKeys = Arrays.copyOf(readyKeys, 2 * readyKeys.length);
            }
        }
        readyKeys[readyCount++] = key;
        reg.readyOps = key.readyOps();
        reg.awaitingDispatch = true;
    }

    /** Takes the ready keys' wakers, re-arms what stays armed, and wakes them. */
    private void dispatchSelected() {
        while (!closed && readyHead < readyCount) {   // once closed, close() wakes what is left
            SelectionKey key = readyKeys[readyHead];
            readyKeys[readyHead++] = null;
            Registration reg = (Registration) key.attachment();
            reg.awaitingDispatch = false;
            Object ready = null;               // as takeReady returns it
            try {
                try {
                    int ops = key.readyOps() | reg.readyOps;   // the key's first: it throws once cancelled
                    ready = reg.takeReady(ops);
                    key.interestOps(reg.interest());
                } catch (CancelledKeyException e) {
                    // The channel was closed meanwhile (its close cancels the key at once, and
                    // deregisters afterwards). Wakers takeReady took are off the registration:
                    // the close's wake-up no longer finds them, so they are woken here with the
                    // rest. Replaced by takeAll's, they were never woken, and a read waiting on a
                    // stream closed as its bytes came in waited for good. Inside the outer try:
                    // a failure here (no memory for the list) went out of the dispatch with the
                    // taken wakers unwoken, and ended a selector thread. Those taken are woken
                    // first, so that joining them to the rest allocates nothing.
                    Object taken = ready;
                    ready = null;
                    if (taken != null) {
                        wakeTaken(taken);
                    }
                    ready = reg.takeAll();
                }
            } catch (Throwable t) {
                failedKey(key, reg, ready, t);
                ready = null;                  // woken there
            }
            if (ready != null) {
                wakeTaken(ready);
            }
        }
        if (readyHead == readyCount) {
            readyHead = 0;
            readyCount = 0;
        }
    }

    /**
     * The handling of a selected key failed: a read-ahead's {@code fill} threw, or the list of its
     * wakers found no memory left. That error left the reactor's loop before: a selector thread
     * died with it (its reactor closed), and on a driven reactor it went out of the driving
     * worker's park and shut its whole runtime down, its ready key's wakers taken or not, woken
     * by nobody. So it is reported to this thread's uncaught-exception handler, and every task
     * waiting on the registration is woken (those the failed turn took and the rest): a woken
     * task retries and sees what its channel has, reading it itself or arming its interest
     * again. The key's interest is dropped until then: selection is level-triggered, and a key
     * that stayed armed while its handling kept failing was selected, and failed, at every turn.
     */
    private static void failedKey(SelectionKey key, Registration reg, Object taken, Throwable t) {
        Strays.report(t);                      // never throws
        if (taken != null) {
            wakeTaken(taken);                  // first: joined to the rest, they needed memory
        }
        List<Waker> rest = null;
        try {
            rest = reg.takeAll();
            key.interestOps(0);
        } catch (CancelledKeyException e) {
            // closed meanwhile: its close wakes what is left
        } catch (Throwable again) {
            Strays.report(again);              // no memory even for that: what was taken is woken
        }
        if (rest != null) {
            wakeAll(rest);
        }
    }

    private List<SelectionKey> safeKeys() {
        for (int tries = 0; ; tries++) {
            try {
                return new ArrayList<>(selector.keys());
            } catch (ClosedSelectorException e) {
                return List.of();
            } catch (java.util.ConcurrentModificationException e) {
                // a driven reactor's close, while its driver registers a channel: look again
                if (tries == 100) {
                    return List.of();
                }
            }
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
                wakeEvery(reg);
            } catch (ClosedSelectorException e) {
                throw e;                       // the reactor is finished: its loop's or select's
            } catch (Throwable t) {
                failedChange(reg, t);
            }
        }
    }

    /**
     * Applying {@code reg}'s interest change failed ({@code register} found no memory for its
     * key). That error left the loop before: {@code reg}, off the queue and with no key, was in
     * neither place a wake-up looks, so its tasks slept for good, and its interest stayed armed,
     * so a later read of its stream only added its waker (no change to queue) and slept too;
     * and a selector thread died with the error (its reactor closed), a driven reactor threw it
     * out of {@code select}. As for a ready key that fails ({@link #failedKey}): it is reported,
     * and the registration's tasks are woken with its interest dropped, so a retry arms it again
     * and queues a new change.
     */
    private static void failedChange(Registration reg, Throwable t) {
        Strays.report(t);                      // never throws
        wakeEvery(reg);
    }

    /** Wakes the tasks of registrations whose interest change was queued but never applied. */
    private void wakeQueued() {
        for (Registration reg; (reg = changes.poll()) != null; ) {
            reg.queued.set(false);
            wakeEvery(reg);
        }
    }

    /**
     * Wakes every task waiting on {@code reg} and drops its interest. Its wakers are collected
     * into a list and woken outside the registration's lock; if there is no memory for the list,
     * they are taken and woken one at a time, which allocates nothing, rather than left on the
     * registration, where nobody would look for them again. The one mechanism of every wake-up
     * of a whole registration: a close's, a deregistration's, a failed change's.
     */
    private static void wakeEvery(Registration reg) {
        List<Waker> wakers;
        try {
            wakers = reg.takeAll();
        } catch (OutOfMemoryError e) {
            for (Waker w; (w = reg.takeOne()) != null; ) {
                wake(w);
            }
            return;
        }
        wakeAll(wakers);
    }

    private static void wakeAll(List<Waker> wakers) {
        for (int i = 0; i < wakers.size(); i++) {   // no iterator to allocate
            wake(wakers.get(i));
        }
    }

    /** Wakes what {@link Registration#takeReady} took: one waker or a list of them. */
    @SuppressWarnings("unchecked")
    private static void wakeTaken(Object taken) {
        if (taken instanceof Waker w) {
            wake(w);
        } else {
            wakeAll((List<Waker>) taken);
        }
    }

    private static void wake(Waker w) {
        try {
            w.wake();
        } catch (Throwable t) {
            // A waker must not throw. One that does is reported to this thread's
            // uncaught-exception handler, which the thread survives even if the handler
            // throws too: the selector thread (or the worker driving this reactor) goes on
            // waking the others.
            Strays.report(t);
        }
    }
}
