package dev.spindle.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs the worker threads of a stress test: daemon threads with a shared deadline, so that a
 * hang fails the test (and leaves nothing running) instead of hanging the build, and with the
 * first exception of any worker rethrown to the test.
 */
final class StressThreads {

    /** A worker body; {@link #expired()} tells it when to give up. */
    interface Body {
        void run(StressThreads ctl) throws Exception;
    }

    private final long deadline;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean expired;

    StressThreads(long timeout, TimeUnit unit) {
        this.deadline = System.nanoTime() + unit.toNanos(timeout);
    }

    /** True once the deadline has passed; workers must then return. */
    boolean expired() {
        if (!expired && System.nanoTime() - deadline > 0) {
            expired = true;
        }
        return expired;
    }

    Thread start(String name, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run(this);
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
                expired = true;                  // stop the others too
            }
        }, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
        return t;
    }

    /** Waits for {@code t} until the deadline; fails if it is still running. */
    void join(Thread t) throws InterruptedException {
        long left = deadline - System.nanoTime();
        t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
        if (t.isAlive()) {
            expired = true;
            t.join(1000);
            rethrow();
            throw new AssertionError(t.getName() + " still running at the deadline");
        }
        rethrow();
    }

    void joinAll() throws InterruptedException {
        for (Thread t : threads) {
            join(t);
        }
        if (expired) {
            throw new AssertionError("deadline passed before the workers finished");
        }
    }

    private void rethrow() {
        Throwable e = failure.get();
        if (e instanceof Error err) {
            throw err;
        }
        if (e != null) {
            throw new AssertionError("worker failed", e);
        }
    }
}
