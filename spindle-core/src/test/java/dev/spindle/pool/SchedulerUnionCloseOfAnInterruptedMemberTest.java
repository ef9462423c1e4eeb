/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.Scheduler;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An owning {@link SchedulerUnion} whose member's {@code close()} throws
 * {@link InterruptedException}: the caller was interrupted while the member waited to close. The
 * union wraps a member's checked exception in an {@link IllegalStateException}, and the interrupt,
 * which the thrower had cleared, was lost with it: the caller's thread came out of
 * {@code close()} no longer interrupted, as if nobody had asked it to stop, where an
 * {@code ExecutorService}'s {@code close()} keeps the interrupt.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchedulerUnionCloseOfAnInterruptedMemberTest {

    /** A member whose close waits, and was interrupted: it throws, its interrupt cleared, as the JDK's waits do. */
    private static final class InterruptedOnClose implements Scheduler, AutoCloseable {
        @Override
        public void execute(Runnable task) {
            task.run();
        }

        @Override
        public void close() throws InterruptedException {
            throw new InterruptedException("interrupted while closing");
        }
    }

    /** A member that records its close. */
    private static final class Recorded implements Scheduler, AutoCloseable {
        final AtomicBoolean closed = new AtomicBoolean();

        @Override
        public void execute(Runnable task) {
            task.run();
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }

    @Test
    void theCallerStaysInterruptedWhenAMembersCloseThrowsInterruptedException() {
        Recorded later = new Recorded();
        SchedulerUnion union = SchedulerUnion.owning(new InterruptedOnClose(), later);
        Throwable thrown;
        boolean interruptedAfter;
        try {
            thrown = catchThrowable(union::close);
        } finally {
            interruptedAfter = Thread.interrupted();   // read and cleared, for the next test
        }
        assertThat(thrown).isInstanceOf(IllegalStateException.class)
                .hasCauseInstanceOf(InterruptedException.class);
        assertThat(later.closed).as("the member after it was closed all the same").isTrue();
        assertThat(interruptedAfter).as("the caller's interrupt was kept").isTrue();
    }
}
