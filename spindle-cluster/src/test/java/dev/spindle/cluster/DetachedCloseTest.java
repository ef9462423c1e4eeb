/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.testkit.LogLines;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link DetachedClose}, the transports' one close of a coordinator whose member stopped under it:
 * it runs once however many reasons come at once, never on the caller's thread (a thread of the
 * stopping member) nor with its inheritable thread locals, and a close that throws is logged with
 * its reason rather than left to the thread's uncaught-exception handler.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DetachedCloseTest {

    private static final System.Logger LOG = System.getLogger(DetachedCloseTest.class.getName());
    private static final InheritableThreadLocal<String> CONTEXT = new InheritableThreadLocal<>();

    /** Waits for every live thread named {@code name} to end: a close started has run once none is left. */
    private static void awaitThreadsNamed(String name) throws InterruptedException {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(name)) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                assertThat(t.isAlive()).as("thread %s ended", name).isFalse();
            }
        }
    }

    @Test
    void theCloseRunsOnAFreshDaemonThreadWithoutTheCallersInheritableThreadLocals() throws Exception {
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        AtomicReference<String> context = new AtomicReference<>("unset");
        CountDownLatch ran = new CountDownLatch(1);
        DetachedClose close = new DetachedClose(LOG, "the thing", "detached-close-fresh", () -> {
            ranOn.set(Thread.currentThread());
            context.set(CONTEXT.get());
            ran.countDown();
        });
        CONTEXT.set("the stopping member's");
        try (LogLines log = LogLines.of(DetachedCloseTest.class)) {
            assertThat(close.start(Level.WARNING, "the member stopped")).as("the first start").isTrue();

            assertThat(ran.await(30, TimeUnit.SECONDS)).as("the close ran").isTrue();
            assertThat(ranOn.get()).as("the close's thread").isNotSameAs(Thread.currentThread());
            assertThat(ranOn.get().isDaemon()).as("a daemon thread").isTrue();
            assertThat(ranOn.get().getName()).isEqualTo("detached-close-fresh");
            assertThat(context.get()).as("the caller's inheritable thread local, seen by the close").isNull();
            assertThat(log.records()).singleElement().satisfies(r -> {
                assertThat(r.getMessage()).isEqualTo("the member stopped");
                assertThat(r.getLevel()).isEqualTo(java.util.logging.Level.WARNING);
            });
        } finally {
            CONTEXT.remove();
        }
    }

    @Test
    void twoStartsAtOnceRunTheCloseOnceAndLogTheReasonOnce() throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(2);
        try (LogLines log = LogLines.of(DetachedCloseTest.class)) {
            for (int round = 0; round < 200; round++) {
                AtomicInteger runs = new AtomicInteger();
                String name = "detached-close-once-" + round;
                DetachedClose close = new DetachedClose(LOG, "the thing", name, runs::incrementAndGet);
                CyclicBarrier both = new CyclicBarrier(2);
                List<Future<Boolean>> starts = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    String why = "reason " + i + " of round " + round;
                    starts.add(callers.submit(() -> {
                        both.await(30, TimeUnit.SECONDS);
                        return close.start(Level.WARNING, why);
                    }));
                }
                int started = 0;
                for (Future<Boolean> s : starts) {
                    started += s.get(30, TimeUnit.SECONDS) ? 1 : 0;
                }
                awaitThreadsNamed(name);   // every thread started has been started by now

                assertThat(started).as("starts that started the close, round %d", round).isEqualTo(1);
                assertThat(runs.get()).as("closes run, round %d", round).isEqualTo(1);
                assertThat(close.start(Level.WARNING, "later")).as("a later start").isFalse();
            }
            assertThat(log.lines()).as("one reason logged per round").hasSize(200).doesNotContain("later");
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void aCloseThatThrowsIsLoggedWithItsReason() throws Exception {
        List<Throwable> throwables = List.of(new IllegalStateException("close failed"),
                new OutOfMemoryError("close failed"));
        for (Throwable thrown : throwables) {
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            DetachedClose close = new DetachedClose(LOG, "the thing", "detached-close-throws", () -> {
                ranOn.set(Thread.currentThread());
                if (thrown instanceof Error e) {
                    throw e;
                }
                throw (RuntimeException) thrown;
            });
            try (LogLines log = LogLines.of(DetachedCloseTest.class)) {
                assertThat(close.start(Level.ERROR, "an executor was shut down")).isTrue();
                awaitThreadsNamed("detached-close-throws");

                assertThat(ranOn.get()).as("the close ran").isNotNull();
                assertThat(log.records()).extracting(LogRecord::getMessage).containsExactly(
                        "an executor was shut down", "closing the thing (an executor was shut down) threw");
                LogRecord failure = log.records().get(1);
                assertThat(failure.getLevel()).isEqualTo(java.util.logging.Level.SEVERE);
                assertThat(failure.getThrown()).as("the close's throwable, logged").isSameAs(thrown);
            }
        }
    }

    @Test
    void firstRunsOnlyForTheStartThatWinsAndBeforeTheClose() throws Exception {
        AtomicReference<String> recorded = new AtomicReference<>();
        AtomicReference<String> seenByTheClose = new AtomicReference<>();
        CountDownLatch ran = new CountDownLatch(1);
        DetachedClose close = new DetachedClose(LOG, "the thing", "detached-close-first", () -> {
            seenByTheClose.set(recorded.get());
            ran.countDown();
        });
        try (LogLines log = LogLines.of(DetachedCloseTest.class)) {
            assertThat(close.start(Level.WARNING, "the first reason", () -> recorded.set("first"))).isTrue();
            assertThat(close.start(Level.WARNING, "a later reason", () -> recorded.set("later"))).isFalse();

            assertThat(ran.await(30, TimeUnit.SECONDS)).as("the close ran").isTrue();
            assertThat(seenByTheClose.get()).as("what the winning start recorded, seen by the close").isEqualTo("first");
            assertThat(recorded.get()).as("a losing start ran nothing").isEqualTo("first");
            assertThat(log.lines()).containsExactly("the first reason");
        }
    }

    @Test
    void aFirstThatThrowsStillStartsTheClose() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        DetachedClose close = new DetachedClose(LOG, "the thing", "detached-close-first-throws", ran::countDown);
        IllegalStateException thrown = new IllegalStateException("recording failed");

        assertThatThrownBy(() -> close.start(Level.WARNING, "the member stopped", () -> {
            throw thrown;
        })).isSameAs(thrown);
        assertThat(ran.await(30, TimeUnit.SECONDS)).as("the close ran all the same").isTrue();
        assertThat(close.start(Level.WARNING, "later")).as("a later start").isFalse();
    }

    @Test
    void onceTheOwnerClosesAStartDoesNothing() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        DetachedClose close = new DetachedClose(LOG, "the thing", "detached-close-owner", runs::incrementAndGet);
        try (LogLines log = LogLines.of(DetachedCloseTest.class)) {
            close.ownerCloses();

            assertThat(close.start(Level.WARNING, "the member stopped")).as("a start after the owner's close")
                    .isFalse();
            awaitThreadsNamed("detached-close-owner");
            assertThat(runs.get()).as("closes run").isZero();
            assertThat(log.lines()).as("the member's stop is the owner's doing: nothing logged").isEmpty();
        }
    }

    @Test
    void nullArgumentsAreRefusedByName() {
        Runnable nothing = () -> { };
        assertThatThrownBy(() -> new DetachedClose(null, "w", "t", nothing)).hasMessage("log");
        assertThatThrownBy(() -> new DetachedClose(LOG, null, "t", nothing)).hasMessage("what");
        assertThatThrownBy(() -> new DetachedClose(LOG, "w", null, nothing)).hasMessage("threadName");
        assertThatThrownBy(() -> new DetachedClose(LOG, "w", "t", null)).hasMessage("close");
        DetachedClose close = new DetachedClose(LOG, "w", "t", nothing);
        assertThatThrownBy(() -> close.start(null, "why")).isInstanceOf(NullPointerException.class).hasMessage("level");
        assertThatThrownBy(() -> close.start(Level.WARNING, null)).isInstanceOf(NullPointerException.class)
                .hasMessage("why");
        assertThatThrownBy(() -> close.start(Level.WARNING, "why", null)).isInstanceOf(NullPointerException.class)
                .hasMessage("first");
    }
}
