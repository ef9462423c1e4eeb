/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.reflect.Field;
import org.junit.jupiter.api.Test;

/**
 * Cancelling an acquire that was granted a permit gives the permit back without throwing, even
 * when {@link Integer#MAX_VALUE} permits are free already (reachable only by more releases than
 * acquires; set here through the field rather than by 2^31 releases). Before, the cancel called
 * {@code release()}, whose bound check threw an {@link IllegalStateException} out of
 * {@link Cancellable#cancel()}, which must not throw: a runtime retiring the task, or a
 * combinator dropping it, got the exception.
 */
class SemaphoreCancelAtPermitBoundTest {

    private static final Context CX = new Context() {
        @Override
        public Waker waker() {
            return () -> { };
        }

        @Override
        public boolean consumeBudget() {
            return true;
        }
    };

    @Test
    void cancellingAGrantedAcquireWithEveryPermitFreeDoesNotThrow() throws Exception {
        AsyncSemaphore sem = new AsyncSemaphore(0);
        AsyncTask<Void> acquire = sem.acquire();
        assertThat(acquire.poll(CX).isPending()).as("no permit: the acquire waits").isTrue();
        sem.release();                         // granted to the waiting acquire, not yet polled
        Field permits = AsyncSemaphore.class.getDeclaredField("permits");
        permits.setAccessible(true);
        permits.setInt(sem, Integer.MAX_VALUE); // as after 2^31 - 1 more releases

        assertThatCode(() -> Async.cancel(acquire)).doesNotThrowAnyException();

        assertThat(sem.availablePermits()).isEqualTo(Integer.MAX_VALUE);
        assertThatThrownBy(sem::release).as("release() itself still refuses to pass the bound")
                .isInstanceOf(IllegalStateException.class);
    }
}
