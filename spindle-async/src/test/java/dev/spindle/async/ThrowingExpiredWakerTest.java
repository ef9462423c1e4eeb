/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static dev.spindle.async.WakerSemanticsTest.WAIT_S;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A waker whose {@link Waker#expired()} throws (breaking its contract, as a waker whose
 * {@code wake()} throws does) registered with a handle: every later registration with that
 * handle asked it whether it was stale, and threw what it threw, so an unrelated task awaiting
 * the handle failed with that exception, and {@code toCompletableFuture()} and {@code get} threw
 * it. It is now reported as a stray, kept (it is woken with the others) and the registration
 * goes on.
 */
@Timeout(60)
class ThrowingExpiredWakerTest {

    @Test
    void aWakerWhoseExpiredThrowsDoesNotFailTheOtherAwaitersOfTheHandle() throws Exception {
        AtomicInteger badWakes = new AtomicInteger();
        Waker bad = new Waker() {
            @Override
            public void wake() {
                badWakes.incrementAndGet();
            }

            @Override
            public boolean expired() {
                throw new IllegalStateException("broken expired()");
            }
        };
        Context badCx = new Context() {
            @Override
            public Waker waker() {
                return bad;
            }

            @Override
            public boolean consumeBudget() {
                return true;
            }
        };
        AsyncPromise<Integer> p = new AsyncPromise<>();
        assertThat(p.poll(badCx).isPending()).isTrue();   // the bottom entry
        List<Throwable> strays = new CopyOnWriteArrayList<>();
        Thread self = Thread.currentThread();
        Thread.UncaughtExceptionHandler before = self.getUncaughtExceptionHandler();
        self.setUncaughtExceptionHandler((t, e) -> strays.add(e));
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            // this thread registers first, while the broken waker is on top of the stack, where a
            // push asks it: spawned first, the task's registration could ask it instead (on its
            // worker, whose handler got the stray) and leave nothing on top for this thread to ask
            CompletableFuture<Integer> f = p.toCompletableFuture();
            JoinHandle<Integer> awaiting = rt.spawn(Async.map(p, v -> v + 1));
            assertThatThrownBy(() -> p.get(1, TimeUnit.MILLISECONDS)).isInstanceOf(TimeoutException.class);
            assertThat(p.complete(41)).isTrue();
            assertThat(f.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(41);
            assertThat(awaiting.get(WAIT_S, TimeUnit.SECONDS)).isEqualTo(42);
            assertThat(badWakes.get()).as("the broken waker is still woken").isEqualTo(1);
        } finally {
            self.setUncaughtExceptionHandler(before);
        }
        assertThat(strays).isNotEmpty().allMatch(e -> e instanceof IllegalStateException);
    }
}
