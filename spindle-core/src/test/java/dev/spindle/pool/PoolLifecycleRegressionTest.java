/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Hints;
import dev.spindle.Spindle;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found in a review (session 25) of the shared-queue pools, their lifecycle and the
 * union: each test failed on the code before its fix.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PoolLifecycleRegressionTest {

    /**
     * WorkSharingPool moves its worker's slot task to the shared queue when a blocking section
     * starts, but a task submitted inside the section still went into the slot, where nobody but
     * the blocked worker may take it: "submit and wait" wrapped in Spindle.blocking (as the class
     * Javadoc advises for blocking calls) waited for good although the other worker was idle.
     */
    @Test
    void aTaskSubmittedInsideABlockingSectionIsNotStrandedInTheSlot() throws Exception {
        try (WorkSharingPool pool = WorkSharingPool.builder().workers(2).name("sharing-blocking").build()) {
            for (int round = 0; round < 5; round++) {
                AtomicReference<Object> outcome = new AtomicReference<>();
                CountDownLatch done = new CountDownLatch(1);
                pool.execute(() -> {
                    try {
                        outcome.set(Spindle.blocking(() -> pool.submit(() -> 42).get(5, TimeUnit.SECONDS)));
                    } catch (TimeoutException e) {
                        outcome.set("the task submitted inside the blocking section did not run within 5 s");
                    } catch (Exception e) {
                        outcome.set(e);
                    }
                    done.countDown();
                });
                assertThat(done.await(20, TimeUnit.SECONDS)).isTrue();
                assertThat(outcome.get()).as("round %d", round).isEqualTo(42);
            }
        }
    }

    /**
     * PoolCore says spare workers are started through tryStartWorker, "which reports failure
     * instead of throwing"; but newThread wrapped only RuntimeExceptions, so an Error from the
     * factory (an AssertionError, a LinkageError) left Spares.addSpare with {@code live} counted
     * up, escaped from Spindle.blocking before its try (the worker's blockingDepth and the idle
     * protocol's blocked count never went back down), and from then on that worker's blocking
     * sections never got a spare: a section waiting for queued work waited for good.
     */
    @Test
    void aThreadFactoryErrorForASpareRunsTheSectionUncompensatedAndLeavesNoTrace() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        ThreadFactory factory = r -> {
            if (calls.incrementAndGet() == 2) {        // the first spare
                throw new AssertionError("no thread for you");
            }
            Thread t = new Thread(r);
            t.setDaemon(true);
            return t;
        };
        WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(2)
                .name("stealing-factory-error").threadFactory(factory).build();
        try {
            AtomicReference<Throwable> firstSection = new AtomicReference<>();
            CountDownLatch firstDone = new CountDownLatch(1);
            pool.execute(() -> {
                try {
                    Spindle.blocking(() -> "ran");
                } catch (Throwable t) {
                    firstSection.set(t);
                }
                firstDone.countDown();
            });
            assertThat(firstDone.await(10, TimeUnit.SECONDS)).isTrue();

            CountDownLatch inSection = new CountDownLatch(1);
            CountDownLatch helperRan = new CountDownLatch(1);
            AtomicBoolean sawHelper = new AtomicBoolean();
            CountDownLatch secondDone = new CountDownLatch(1);
            pool.execute(() -> {
                try {
                    sawHelper.set(Spindle.blocking(() -> {
                        inSection.countDown();
                        return helperRan.await(5, TimeUnit.SECONDS);
                    }));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                secondDone.countDown();
            });
            assertThat(inSection.await(10, TimeUnit.SECONDS)).isTrue();
            pool.execute(helperRan::countDown);        // only a spare can run it now
            assertThat(secondDone.await(20, TimeUnit.SECONDS)).isTrue();
            pool.shutdown();
            boolean terminated = pool.awaitTermination(10, TimeUnit.SECONDS);
            SoftAssertions.assertSoftly(soft -> {
                soft.assertThat(firstSection.get()).as("what the first blocking section threw").isNull();
                soft.assertThat(sawHelper).as("a spare ran the queued task while the only worker blocked").isTrue();
                soft.assertThat(terminated).as("an idle pool terminated after shutdown: %s", pool.stats()).isTrue();
            });
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * An owning union's shutdown() and close() are passed on to its members, whose graceful
     * shutdown runs the tasks their accepted tasks submit. But the union itself rejected every
     * task once shut down, so a task that routes its follow-up through the union (the natural
     * way, with its hints) had it refused while the member would have run it: close() of an
     * owning union broke accepted multi-step work that close() of the member alone completes.
     */
    @Test
    void anOwningUnionInGracefulShutdownPassesAMemberTasksFollowUpToTheMember() throws Exception {
        WorkSharingPool member = WorkSharingPool.builder().workers(1).name("union-member").build();
        SchedulerUnion union = SchedulerUnion.owning(member);
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch followUpRan = new CountDownLatch(1);
        List<Throwable> refused = new CopyOnWriteArrayList<>();
        union.execute(() -> {
            started.countDown();
            try {
                release.await(10, TimeUnit.SECONDS);
                union.execute(followUpRan::countDown, Hints.DEFAULT);
            } catch (Throwable t) {
                refused.add(t);
            }
        }, Hints.DEFAULT);
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        Thread closer = new Thread(union::close, "union-closer");
        closer.start();
        while (!member.isShutdown()) {
            Thread.onSpinWait();
        }
        release.countDown();
        closer.join(20_000);
        assertThat(closer.isAlive()).as("close() returned").isFalse();
        assertThat(refused).as("what the accepted task's follow-up submission threw").isEmpty();
        assertThat(followUpRan.getCount()).as("the follow-up ran before close() returned").isZero();
        assertThat(union.isTerminated()).isTrue();
        assertThatThrownBy(() -> union.execute(() -> { })).as("a task from outside is still refused")
                .isInstanceOf(RejectedExecutionException.class);
    }

    /**
     * A borrowing union, shut down, refused even a follow-up that a task running on its member
     * routes back to that member, which keeps running: accepted multi-step work (an actor's
     * next turn) stopped half-way, where the member alone, or an owning union, runs it. Tasks
     * from elsewhere are still refused.
     */
    @Test
    void aBorrowingUnionShutDownPassesAMemberTasksFollowUpToTheMember() throws Exception {
        WorkStealingPool member = WorkStealingPool.builder().workers(1).name("borrowed-member").build();
        try {
            SchedulerUnion union = SchedulerUnion.of(member);
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch followUpRan = new CountDownLatch(1);
            List<Throwable> refused = new CopyOnWriteArrayList<>();
            union.execute(() -> {
                started.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                    union.execute(followUpRan::countDown, Hints.DEFAULT);
                } catch (Throwable t) {
                    refused.add(t);
                }
            }, Hints.DEFAULT);
            assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
            union.close();                         // a borrowing union's close: shut down, members left alone
            release.countDown();
            assertThat(followUpRan.await(10, TimeUnit.SECONDS)).as("the follow-up ran").isTrue();
            assertThat(refused).as("what the accepted task's follow-up submission threw").isEmpty();
            assertThatThrownBy(() -> union.execute(() -> { })).as("a task from outside is still refused")
                    .isInstanceOf(RejectedExecutionException.class);
        } finally {
            member.close();
        }
    }
}
