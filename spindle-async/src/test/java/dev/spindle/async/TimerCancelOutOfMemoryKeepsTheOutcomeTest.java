/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Removing a timer entry (a cancel, or a firing) halves the heap's array once it is
 * three-quarters empty, a copy that needs memory. An {@link OutOfMemoryError} from that copy
 * went out of {@code Entry.cancel()}, which a cancel must not throw: a timeout whose task had
 * just completed threw it instead of returning the outcome, so an acquire under it had taken its
 * permit for a task that failed, a permit nobody would ever release (a send under it was
 * delivered and reported failed); and a timeout that was cancelled threw before withdrawing its
 * task, whose receive went on waiting in its channel for a value nobody would get. Giving the
 * array back can wait: the removal must not fail for it.
 *
 * <p>The copy is made to fail for real, in a child JVM with a full heap ({@link FullHeapChild}).
 */
@Timeout(120)
class TimerCancelOutOfMemoryKeepsTheOutcomeTest {

    @Test
    void aTimeoutWhoseTimerRemovalRunsOutOfMemoryStillReturnsTheAcquiredPermit() throws Exception {
        assertThat(FullHeapChild.result(Child.class)).startsWith("RESULT ok");
    }

    /** A timeout over an acquire, granted, polled with the timer heap about to shrink. */
    public static final class Child {
        /** Sleeps whose entries make the shared timer's heap grow to 256 slots. */
        private static final int SLEEPS = 200;

        public static void main(String[] args) {
            FullHeapChild.HandContext cx = new FullHeapChild.HandContext();
            rehearse(cx);                      // loads and links every class the full heap needs
            AsyncSemaphore sem = new AsyncSemaphore(0);
            List<AsyncTask<Void>> sleeps = sleeping(cx);
            AsyncTask<Void> bounded = Async.timeout(sem.acquire(), Duration.ofHours(1));
            if (!bounded.poll(cx).isPending()) {
                System.out.println("RESULT setup: the acquire did not wait");
                return;
            }
            // down to a quarter of the 256 slots: the next removal halves the array
            while (Timers.pending() > 64) {
                Async.cancel(sleeps.remove(sleeps.size() - 1));
            }
            sem.release();                     // granted: the timeout's next poll takes it
            Poll<Void> p;
            FullHeapChild.fill();
            try {
                p = bounded.poll(cx);
            } catch (OutOfMemoryError e) {
                FullHeapChild.free();
                System.out.println("RESULT lost: the timeout's poll threw " + e + " after its acquire took the permit;"
                        + " free permits " + sem.availablePermits());
                return;
            }
            FullHeapChild.free();
            if (!p.isReady()) {
                System.out.println("RESULT setup: the timeout is still pending");
                return;
            }
            sem.release();                     // the permit the timeout returned, given back
            System.out.println((sem.availablePermits() == 1 ? "RESULT ok " : "RESULT lost ")
                    + "free permits " + sem.availablePermits() + ", timer entries " + Timers.pending());
        }

        /** The same steps once, with memory to spare. */
        private static void rehearse(Context cx) {
            AsyncSemaphore sem = new AsyncSemaphore(0);
            List<AsyncTask<Void>> sleeps = sleeping(cx);
            AsyncTask<Void> bounded = Async.timeout(sem.acquire(), Duration.ofHours(1));
            bounded.poll(cx);
            while (Timers.pending() > 63) {
                Async.cancel(sleeps.remove(sleeps.size() - 1));
            }
            sem.release();
            bounded.poll(cx);
            sem.release();
            for (AsyncTask<Void> s : sleeps) {
                Async.cancel(s);
            }
        }

        private static List<AsyncTask<Void>> sleeping(Context cx) {
            List<AsyncTask<Void>> sleeps = new ArrayList<>();
            for (int i = 0; i < SLEEPS; i++) {
                AsyncTask<Void> s = Async.sleep(Duration.ofHours(1));
                s.poll(cx);
                sleeps.add(s);
            }
            return sleeps;
        }
    }
}
