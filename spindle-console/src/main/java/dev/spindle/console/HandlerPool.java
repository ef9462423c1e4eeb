/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The console's request threads: a fixed number of daemon threads behind a small bounded queue,
 * and a deadline on every blocking step of an exchange.
 *
 * <h2>Why</h2>
 *
 * <p>The JDK's {@code HttpServer} hands each connection that has become readable to its executor
 * as one task (its "exchange"), which reads the request head, runs the handler and writes the
 * answer, all with blocking I/O on the connection's {@code SocketChannel}. Its only timeouts are
 * JVM-wide system properties, off by default ({@code sun.net.httpserver.maxReqTime},
 * {@code maxRspTime}). So with an unbounded queue a flood of requests waits in memory without
 * limit, and a client that sends half a request head, or stops reading its answer, holds a
 * thread for ever; a few such clients hold them all.
 *
 * <h2>Bounds</h2>
 *
 * <ul>
 *   <li><b>Queue.</b> At most {@link #QUEUE} exchanges wait for a thread. Beyond that
 *       {@code execute} throws {@code RejectedExecutionException} (the default abort policy),
 *       which the JDK's dispatcher answers by closing the connection unanswered: the client sees
 *       a reset, and nothing of it stays in the server (checked on JDK 17 and 25; see
 *       {@code ConsoleAttackTest}). A rejected exchange has not read a byte of its request, so
 *       there is nothing to answer it with; running it on the dispatcher thread instead
 *       ({@code CallerRunsPolicy}) would let one slow client stop the whole server.</li>
 *   <li><b>Deadline.</b> Each thread carries a deadline, armed when it takes an exchange, so it
 *       covers reading the request head, the handler and writing the answer. A long-lived
 *       answer (the event stream) {@linkplain #disarm() disarms} it while it waits for the next
 *       sample and {@linkplain #arm() arms} it again around each write: waiting is bounded by
 *       the number of streams ({@code maxClients}), every blocking write by the deadline. A
 *       watchdog thread looks every quarter of the timeout (10 ms to 1 s) and interrupts a
 *       thread past its deadline. A thread blocked in I/O on an interruptible channel then has
 *       the channel closed and gets {@code ClosedByInterruptException}, an {@code IOException}:
 *       the JDK's exchange closes the connection, and the handler sees a client that has gone.
 *       A thread that was not in I/O keeps the interrupt, and its next I/O on the channel
 *       closes it.</li>
 * </ul>
 *
 * <h2>Why an interrupt never reaches the wrong exchange</h2>
 *
 * <p>The watchdog interrupts a thread only while holding that thread's lock and only while its
 * deadline is armed, and marks it fired. The thread disarms under the same lock, and after each
 * exchange ({@link #afterExecute}) clears both the mark and its interrupt status under that lock
 * before it can take another. So an interrupt is either delivered while the exchange it was meant
 * for still runs, or not at all; and once fired, a deadline stays fired until its exchange ends
 * ({@link #arm()} does not re-arm it, {@link #disarm()} reports it), so a stream whose write
 * finished just as its deadline passed ends rather than go on with an interrupt pending.
 * ({@code ThreadPoolExecutor} clears the interrupt status before each task as well, but not
 * atomically with the watchdog's check.)
 */
final class HandlerPool extends ThreadPoolExecutor {

    /** The most exchanges waiting for a thread; more are refused (their connections closed). */
    static final int QUEUE = 16;

    private final long timeoutNanos;
    private final Set<HandlerThread> threads = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService watchdog;
    /** Every thread of this pool and its watchdog not yet seen ended, for {@link #join}. */
    private final Set<Thread> created = ConcurrentHashMap.newKeySet();

    /**
     * @param name the threads' name prefix
     * @param threads the number of threads, each serving one exchange at a time
     * @param timeoutNanos the deadline of each blocking step, in nanoseconds (positive)
     */
    HandlerPool(String name, int threads, long timeoutNanos) {
        super(threads, threads, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE));
        if (timeoutNanos <= 0) {
            throw new IllegalArgumentException("timeout must be positive, was " + timeoutNanos + " ns");
        }
        this.timeoutNanos = timeoutNanos;
        AtomicInteger n = new AtomicInteger();
        setThreadFactory(r -> created(new HandlerThread(r, name + "-" + n.incrementAndGet())));
        ThreadFactory watchdogs = daemon(name + "-watchdog");
        this.watchdog = Executors.newSingleThreadScheduledExecutor(r -> created(watchdogs.newThread(r)));
        long period = Math.max(TimeUnit.MILLISECONDS.toNanos(10), Math.min(TimeUnit.SECONDS.toNanos(1), timeoutNanos / 4));
        watchdog.scheduleWithFixedDelay(this::expireOverdue, period, period, TimeUnit.NANOSECONDS);
    }

    /** Daemon threads named {@code prefix-1}, {@code prefix-2}, ... */
    static ThreadFactory daemon(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    /** Remembers a new thread for {@link #join}; forgets those that have ended (a pool replaces few). */
    private Thread created(Thread t) {
        created.removeIf(old -> old.getState() == Thread.State.TERMINATED);
        created.add(t);
        return t;
    }

    /**
     * After {@link #shutdownNow()}: waits until every thread of this pool and its watchdog has
     * ended (the calling thread excepted, should it be one), or {@code deadline} passes.
     * {@code awaitTermination} is not enough: the pool is terminated before its last thread has
     * left its {@code run()}.
     *
     * @param deadline a {@link System#nanoTime()}
     * @return true if they all ended
     * @throws InterruptedException if the calling thread is interrupted while it waits
     */
    boolean join(long deadline) throws InterruptedException {
        return joinAll(created, deadline);
    }

    /** Waits until each of {@code threads} but the calling one has ended, or {@code deadline} passes. */
    static boolean joinAll(Iterable<Thread> threads, long deadline) throws InterruptedException {
        boolean all = true;
        for (Thread t : threads) {
            if (t == Thread.currentThread()) {
                continue;
            }
            long left = deadline - System.nanoTime();
            if (left > 0) {
                TimeUnit.NANOSECONDS.timedJoin(t, left);
            }
            all &= !t.isAlive();
        }
        return all;
    }

    @Override
    protected void beforeExecute(Thread t, Runnable r) {
        ((HandlerThread) t).start(System.nanoTime() + timeoutNanos);
    }

    @Override
    protected void afterExecute(Runnable r, Throwable t) {
        ((HandlerThread) Thread.currentThread()).end();
    }

    /**
     * Arms the calling handler thread's deadline again: the step that follows (a write) must end
     * within the timeout. Does nothing once the deadline has fired.
     */
    void arm() {
        current().arm(System.nanoTime() + timeoutNanos);
    }

    /**
     * Disarms the calling handler thread's deadline, for a wait that is bounded otherwise.
     *
     * @return true if the deadline had already fired: the exchange is over (its thread has been
     *     interrupted) and must end
     */
    boolean disarm() {
        return current().disarm();
    }

    private static HandlerThread current() {
        Thread t = Thread.currentThread();
        if (!(t instanceof HandlerThread)) {
            throw new IllegalStateException("not a console handler thread: " + t.getName());
        }
        return (HandlerThread) t;
    }

    /** The watchdog's round: interrupts every thread past its armed deadline. */
    void expireOverdue() {
        long now = System.nanoTime();
        for (HandlerThread t : threads) {
            t.expireIfOverdue(now);
        }
    }

    @Override
    public void shutdown() {
        watchdog.shutdownNow();
        super.shutdown();
    }

    @Override
    public List<Runnable> shutdownNow() {
        watchdog.shutdownNow();
        return super.shutdownNow();
    }

    /** A handler thread with its deadline; registered with the watchdog while it lives. */
    private final class HandlerThread extends Thread {
        private final Object lock = new Object();
        private boolean armed;      // guarded by lock
        private boolean fired;      // guarded by lock
        private long deadline;      // guarded by lock; System.nanoTime() based

        HandlerThread(Runnable r, String name) {
            super(r, name);
            setDaemon(true);
        }

        @Override
        public void run() {
            threads.add(this);
            try {
                super.run();
            } finally {
                threads.remove(this);
            }
        }

        /** A new exchange: any earlier mark is gone (see {@link #end()}). */
        void start(long deadline) {
            synchronized (lock) {
                this.fired = false;
                this.armed = true;
                this.deadline = deadline;
            }
        }

        void arm(long deadline) {
            synchronized (lock) {
                if (!fired) {
                    this.armed = true;
                    this.deadline = deadline;
                }
            }
        }

        boolean disarm() {
            synchronized (lock) {
                armed = false;
                return fired;
            }
        }

        /** On this thread, after an exchange: no deadline, no mark, no interrupt left over. */
        void end() {
            synchronized (lock) {
                armed = false;
                fired = false;
                Thread.interrupted();
            }
        }

        void expireIfOverdue(long now) {
            synchronized (lock) {
                if (armed && now - deadline >= 0) {
                    armed = false;
                    fired = true;
                    interrupt();
                }
            }
        }
    }
}
