/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.hazelcast.HazelcastWorker.Leave;
import dev.spindle.cluster.hazelcast.HazelcastWorker.Leaving;
import dev.spindle.cluster.testkit.LogLines;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's leave ({@link HazelcastWorker.Leave}): its member's shutdown runs once, on a daemon
 * thread of its own, for the first reason, which is recorded before the shutdown runs (the exit
 * status is read once the member has shut down). That thread is the worker's, not the caller's
 * (a Hazelcast or delivery thread, which may carry an application's context): it must not take
 * the caller's inheritable thread locals along, and a shutdown that throws must be logged with
 * the reason, not left to the thread's uncaught-exception handler (standard error, no reason).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerLeaveThreadTest {

    private static final InheritableThreadLocal<String> CONTEXT = new InheritableThreadLocal<>();

    @Test
    void theShutdownRunsOnADaemonThreadWithoutTheCallersInheritableThreadLocals() throws Exception {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        AtomicReference<String> context = new AtomicReference<>("unset");
        CountDownLatch ran = new CountDownLatch(1);
        Leave leave = new Leave(7, () -> {
            ranOn.set(Thread.currentThread());
            context.set(CONTEXT.get());
            ran.countDown();
        });
        CONTEXT.set("the delivery thread's");
        try {
            assertThat(leave.leave(Leaving.CUT_OFF)).as("the first reason").isTrue();
        } finally {
            CONTEXT.remove();
        }

        assertThat(ran.await(30, TimeUnit.SECONDS)).as("the shutdown ran").isTrue();
        assertThat(ranOn.get()).as("the shutdown's thread").isNotSameAs(Thread.currentThread());
        assertThat(ranOn.get().isDaemon()).as("a daemon thread").isTrue();
        assertThat(context.get()).as("the caller's inheritable thread local, seen by the shutdown").isNull();
    }

    @Test
    void theFirstReasonIsRecordedBeforeTheShutdownRunsAndTheShutdownRunsOnce() throws Exception {
        AtomicReference<Leave> holder = new AtomicReference<>();
        AtomicReference<Leaving> seenByTheShutdown = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        Leave leave = new Leave(7, () -> {
            seenByTheShutdown.set(holder.get().why());
            ran.countDown();
        });
        holder.set(leave);

        assertThat(leave.leave(Leaving.RETIRED)).as("the first reason").isTrue();
        assertThat(leave.leave(Leaving.COORDINATOR_LOST)).as("a later reason").isFalse();

        assertThat(ran.await(30, TimeUnit.SECONDS)).as("the shutdown ran").isTrue();
        assertThat(seenByTheShutdown.get()).as("the reason, as the shutdown saw it").isEqualTo(Leaving.RETIRED);
        assertThat(leave.why()).isEqualTo(Leaving.RETIRED);
    }

    @Test
    void aShutdownThatThrowsIsLoggedWithTheReason() throws Exception {
        IllegalStateException thrown = new IllegalStateException("shutdown failed");
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        Leave leave = new Leave(7, () -> {
            ranOn.set(Thread.currentThread());
            ran.countDown();
            throw thrown;
        });
        try (LogLines log = LogLines.of(HazelcastWorker.class)) {
            assertThat(leave.leave(Leaving.REPORTS_UNSENT)).isTrue();
            assertThat(ran.await(30, TimeUnit.SECONDS)).as("the shutdown ran").isTrue();
            ranOn.get().join(TimeUnit.SECONDS.toMillis(30));   // it has logged what it threw once it ended
            assertThat(ranOn.get().isAlive()).as("the shutdown's thread ended").isFalse();

            assertThat(log.records()).filteredOn(r -> r.getThrown() == thrown).as("the shutdown's throwable, logged")
                    .singleElement().satisfies(r -> {
                        assertThat(r.getLevel()).isEqualTo(Level.SEVERE);
                        assertThat(r.getMessage()).contains("worker 7").contains("reports could not be sent");
                    });
        }
    }
}
