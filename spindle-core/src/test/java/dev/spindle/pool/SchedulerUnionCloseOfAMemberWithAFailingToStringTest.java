/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.Scheduler;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An owning {@link SchedulerUnion} wraps a member's checked exception from {@code close()} in an
 * {@link IllegalStateException} that names the member. It named it with the member's own
 * {@code toString}, a user's method called on a failure path: one that threw too escaped the
 * loop over the members, and the members after it were never closed (their threads ran on),
 * and the close's own failure was lost.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SchedulerUnionCloseOfAMemberWithAFailingToStringTest {

    /** A member whose close fails with a checked exception and whose {@code toString} fails too. */
    private static final class BadMember implements Scheduler, AutoCloseable {
        @Override
        public void execute(Runnable task) {
            task.run();
        }

        @Override
        public void close() throws Exception {
            throw new Exception("close failed");
        }

        @Override
        public String toString() {
            throw new IllegalStateException("toString failed");
        }
    }

    /** A member that only records its close (not an ExecutorService: only close() reaches it). */
    private static final class ClosableMember implements Scheduler, AutoCloseable {
        volatile boolean closed;

        @Override
        public void execute(Runnable task) {
            task.run();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    /** Before: toString's exception was thrown in place of the close's, and the last member was never closed. */
    @Test
    void theMembersAfterOneWhoseCloseAndToStringFailAreClosed() {
        ClosableMember last = new ClosableMember();
        SchedulerUnion union = SchedulerUnion.owning(new BadMember(), last);
        Throwable thrown = catchThrowable(union::close);
        assertThat(last.closed).as("the member after the one that failed is closed").isTrue();
        assertThat(thrown).as("what close() threw").isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closing member 0");
        assertThat(thrown.getCause()).as("the member's own failure").hasMessage("close failed");
    }
}
