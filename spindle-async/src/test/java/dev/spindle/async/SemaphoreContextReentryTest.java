/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link Context} is a public interface, and a task may be polled by hand with a context of
 * the caller's own. An acquire asked such a context for the waker and the budget while it held
 * the semaphore's lock, so the context ran inside the acquire's critical section: one that
 * released a permit there (the lock is reentrant) did so between the acquire's check for a free
 * permit and its joining the queue, and the permit stayed free while the acquire waited, for
 * good; one that waited for another thread using the semaphore waited for good.
 *
 * <p>A runtime's own context (and its waker under a user's context) is still asked under the
 * lock, just before the permit is taken: the last two tests, which pass before the fix too,
 * check that an acquire whose task's handle is cancelled while its poll waits for the lock
 * leaves the permit to the next acquire.
 */
@Timeout(60)
class SemaphoreContextReentryTest {

    private static Context context(Runnable onWaker, Runnable onBudget) {
        Waker w = () -> { };
        return new Context() {
            @Override
            public Waker waker() {
                onWaker.run();
                return w;
            }

            @Override
            public boolean consumeBudget() {
                onBudget.run();
                return true;
            }
        };
    }

    /** Runs {@code poll} on a daemon thread: before the fix it waited for good. */
    private static <T> T onOwnThread(Callable<T> poll) throws Exception {
        CompletableFuture<T> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                done.complete(poll.call());
            } catch (Throwable e) {
                done.completeExceptionally(e);
            }
        }, "hand-poller");
        t.setDaemon(true);
        t.start();
        try {
            return done.get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException hung) {
            throw new AssertionError("the poll waited for good on a context that used the semaphore from another thread", hung);
        }
    }

    @Test
    void aPermitReleasedByTheContextOfAnAcquireThatFoundNoneIsTakenNotLeftFree() {
        AsyncSemaphore sem = new AsyncSemaphore(0);
        AtomicBoolean released = new AtomicBoolean();
        Context cx = context(() -> {
            if (released.compareAndSet(false, true)) {
                sem.release();                 // the caller's context gives back a permit it held
            }
        }, () -> { });
        AsyncTask<Void> acquire = sem.acquire();
        Poll<Void> p = acquire.poll(cx);
        assertThat(released).isTrue();
        assertThat(p.isReady() || sem.availablePermits() == 0)
                .as("an acquire that waits (%s) while a permit is free (%d free) waits for good",
                        p.isPending() ? "pending" : "ready", sem.availablePermits())
                .isTrue();
        assertThat(p.isReady()).isTrue();
        assertThat(sem.availablePermits()).isZero();
    }

    @Test
    void anAcquireWhoseContextAsksAnotherThreadForTheFreePermitsCompletes() throws Exception {
        AsyncSemaphore sem = new AsyncSemaphore(1);
        Runnable ask = () -> CompletableFuture.supplyAsync(sem::availablePermits).join();
        Context cx = context(ask, ask);
        assertThat(onOwnThread(() -> sem.acquire().poll(cx).isReady())).isTrue();
        AsyncTask<Void> second = sem.acquire();
        assertThat(onOwnThread(() -> second.poll(cx).isPending())).isTrue();
        sem.release();                         // granted to the second
        assertThat(onOwnThread(() -> second.poll(cx).isReady())).isTrue();
    }

    /**
     * A task whose acquire is granted a permit while it waits ({@code granted}), or that finds
     * one free, and is polled (with its own context, or a user's around it) while another thread
     * holds the semaphore's lock; that thread cancels the task's handle once the poll waits for
     * the lock, then lets it go. The permit must reach the next acquire.
     */
    private static void cancelledWhileItsPollWaitsForTheLock(boolean granted, boolean aUsersContext) throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            AsyncSemaphore sem = new AsyncSemaphore(granted ? 0 : 1);
            Field f = AsyncSemaphore.class.getDeclaredField("lock");
            f.setAccessible(true);
            ReentrantLock lock = (ReentrantLock) f.get(sem);
            AsyncTask<Void> acquire = sem.acquire();
            CompletableFuture<JoinHandle<?>> self = new CompletableFuture<>();
            class GrantedThenPolledAgain implements AsyncTask<Void>, Cancellable {
                @Override
                public Poll<Void> poll(Context taskCx) {
                    Context cx = aUsersContext ? around(taskCx) : taskCx;
                    if (granted) {
                        assertThat(acquire.poll(cx).isPending()).as("the acquire waits").isTrue();
                        sem.release();         // granted to it
                    }
                    Thread poller = Thread.currentThread();
                    CountDownLatch held = new CountDownLatch(1);
                    Thread holder = new Thread(() -> {
                        lock.lock();           // as another operation's critical section holds it
                        try {
                            held.countDown();
                            while (!lock.hasQueuedThread(poller)) {
                                Thread.onSpinWait();
                            }
                            self.join().cancel(false);
                        } finally {
                            lock.unlock();
                        }
                    }, "lock-holder");
                    holder.setDaemon(true);
                    holder.start();
                    try {
                        held.await();
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    return acquire.poll(cx);
                }

                @Override
                public void cancel() {
                    Async.cancel(acquire);
                }
            }
            JoinHandle<?> h = rt.spawn(new GrantedThenPolledAgain());
            self.complete(h);
            rt.spawn(sem.acquire()).get(10, SECONDS);
            assertThat(h.isCancelled()).isTrue();
        }
    }

    /** A user's context around {@code cx}: the same waker and budget. */
    private static Context around(Context cx) {
        return new Context() {
            @Override
            public Waker waker() {
                return cx.waker();
            }

            @Override
            public boolean consumeBudget() {
                return cx.consumeBudget();
            }
        };
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aGrantedAcquireCancelledWhileItsPollWaitsForTheLockGivesThePermitBack(boolean aUsersContext) throws Exception {
        cancelledWhileItsPollWaitsForTheLock(true, aUsersContext);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void anAcquireBegunWhileItsPollWaitsForTheLockAndCancelledTakesNoPermit(boolean aUsersContext) throws Exception {
        cancelledWhileItsPollWaitsForTheLock(false, aUsersContext);
    }
}
