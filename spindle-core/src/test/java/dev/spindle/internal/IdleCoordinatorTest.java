package dev.spindle.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;

/**
 * The idle protocol step by step, with a {@link Parker} of the test's own: which worker index is
 * woken, and that a worker can sleep on something other than {@code LockSupport}.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class IdleCoordinatorTest {

    /**
     * Records unparks; parks are no-ops (most tests drive every step from one thread; the list
     * takes unparks from any thread).
     */
    static final class RecordingParker implements Parker {
        final List<Integer> unparked = new CopyOnWriteArrayList<>();

        @Override
        public void park(int worker) {
        }

        @Override
        public void parkNanos(int worker, long nanos) {
        }

        @Override
        public void unpark(int worker) {
            unparked.add(worker);
        }
    }

    @Test
    void notifyWorkWakesTheMostRecentlyParkedWorkerAndCountsItAsSearching() {
        RecordingParker parker = new RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(3, parker, () -> { });
        assertThat(idle.prepareToPark(0, false)).isTrue();
        assertThat(idle.prepareToPark(2, false)).isTrue();
        idle.notifyWork();
        assertThat(parker.unparked).containsExactly(2);
        assertThat(idle.isNotified(2)).isTrue();
        assertThat(idle.isNotified(0)).isFalse();
        idle.notifyWork();                     // worker 2 counts as searching: nobody else is woken
        assertThat(parker.unparked).containsExactly(2);
        assertThat(idle.stopSearching()).isTrue();
        idle.notifyWork();
        assertThat(parker.unparked).containsExactly(2, 0);
        assertThat(idle.underLock(parked -> parked == 0)).isTrue();
    }

    /** The watcher sinks to the bottom of the parked stack: wake-ups pick every other worker first. */
    @Test
    void aSunkWorkerIsWokenLast() {
        RecordingParker parker = new RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(3, parker, () -> { });
        idle.sinkParked(1);                    // not parked: nothing to do
        idle.prepareToPark(0, false);
        idle.prepareToPark(1, false);
        idle.prepareToPark(2, false);
        idle.sinkParked(2);                    // the most recently parked, now the last to wake
        for (int i = 0; i < 3; i++) {
            idle.notifyWork();
            idle.stopSearching();
        }
        assertThat(parker.unparked).containsExactly(1, 0, 2);
        assertThat(idle.underLock(parked -> parked == 0)).isTrue();
    }

    /**
     * A submitter outside the pool wakes from the bottom of the parked stack (the worker parked
     * longest, or a sunk watcher), a core worker before a spare, and counts it as searching as
     * notifyWork does; notifyWork still wakes the most recently parked.
     */
    @Test
    void aWakeFromOutsideTakesTheBottomOfTheStack() {
        RecordingParker parker = new RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(4, 3, () -> 4, parker, () -> { });   // worker 3 a spare
        idle.prepareToPark(3, false);          // the spare, parked first: at the bottom
        idle.prepareToPark(0, false);
        idle.prepareToPark(1, false);
        idle.prepareToPark(2, false);
        idle.notifyWorkFromOutside();
        assertThat(parker.unparked).as("the core worker parked longest, not the spare below it").containsExactly(0);
        idle.notifyWorkFromOutside();          // worker 0 counts as searching: nobody else is woken
        assertThat(parker.unparked).containsExactly(0);
        idle.stopSearching();
        idle.sinkParked(2);                    // the watcher: now at the bottom
        idle.notifyWorkFromOutside();
        idle.stopSearching();
        idle.notifyWork();                     // from inside: the most recently parked left
        assertThat(parker.unparked).containsExactly(0, 2, 1);
        assertThat(idle.isNotified(3)).as("the spare, not wanted, stays parked").isFalse();
        assertThat(idle.underLock(parked -> parked == 1)).isTrue();
    }

    @Test
    void aTargetedWakeWakesOnlyItsWorkerAndDoesNotCountItAsSearching() {
        RecordingParker parker = new RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(2, parker, () -> { });
        idle.wake(1);                          // not parked: nothing to do
        assertThat(parker.unparked).isEmpty();
        idle.prepareToPark(0, false);
        idle.prepareToPark(1, false);
        idle.wake(0);
        assertThat(parker.unparked).containsExactly(0);
        assertThat(idle.cancelPark(0)).as("already woken").isFalse();
        assertThat(idle.prepareToPark(0, false)).as("nobody searching after a targeted wake").isTrue();
        assertThat(idle.cancelPark(1)).isTrue();
        assertThat(idle.underLock(parked -> parked == 1)).isTrue();
    }

    @Test
    void anUnneededSpareIsNotWokenButAWantedOneIs() {
        RecordingParker parker = new RecordingParker();
        AtomicInteger live = new AtomicInteger(3); // two cores and a spare
        IdleCoordinator idle = new IdleCoordinator(3, 2, live::get, parker, () -> { });
        idle.prepareToPark(2, false);          // the spare parks; two core workers are awake
        idle.notifyWork();
        idle.notifyWorkRacy();
        assertThat(parker.unparked).isEmpty();
        assertThat(idle.enterBlocking()).isEqualTo(1); // a core worker blocks: spare wanted
        idle.notifyWork();
        assertThat(parker.unparked).containsExactly(2);
    }

    /**
     * The work-stealing pool's starvation watch wakes a parked spare that the pool does not want
     * (no worker blocked), counted as searching as any woken worker; core workers stay parked, and
     * with no spare parked nobody is woken.
     */
    @Test
    void wakeParkedSpareWakesAnUnwantedSpareAndCountsItAsSearching() {
        RecordingParker parker = new RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(4, 2, () -> 3, parker, () -> { });  // one spare live
        idle.prepareToPark(0, false);          // a core worker
        assertThat(idle.wakeParkedSpare()).as("no spare parked").isFalse();
        idle.prepareToPark(2, false);          // the spare
        idle.notifyWork();                     // wakes the core worker, not the unwanted spare
        assertThat(parker.unparked).containsExactly(0);
        assertThat(idle.stopSearching()).isTrue();
        idle.notifyWork();
        assertThat(parker.unparked).as("an unwanted spare is left parked").containsExactly(0);
        assertThat(idle.wakeParkedSpare()).isTrue();
        assertThat(parker.unparked).containsExactly(0, 2);
        assertThat(idle.isNotified(2)).isTrue();
        assertThat(idle.parkedCount()).isZero();
        assertThat(idle.searchingCount()).as("the woken spare searches").isEqualTo(1);
        assertThat(idle.wakeParkedSpare()).as("none left parked").isFalse();
    }

    /** The racy test a worker's push makes wakes a wanted spare too, and an unneeded one not. */
    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aLocalPushWakesASpareOnlyWhileAWorkerIsBlocked(boolean blocked) {
        RecordingParker parker = new RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(4, 2, () -> 4, parker, () -> { });  // two spares live
        idle.prepareToPark(2, false);
        idle.prepareToPark(3, false);
        if (blocked) {
            idle.enterBlocking();
            idle.enterBlocking();
            idle.exitBlocking();               // one of two still blocked: 4 - 1 - 2 parked < 2
        }
        idle.notifyWorkRacy();
        if (blocked) {
            assertThat(parker.unparked).containsExactly(3);
        } else {
            assertThat(parker.unparked).isEmpty();
        }
        assertThat(idle.blocked()).isEqualTo(blocked ? 1 : 0);
    }

    @Test
    void aCoreWorkerIsWokenBeforeASpare() {
        RecordingParker parker = new RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(3, 2, () -> 2, parker, () -> { });
        idle.prepareToPark(0, false);
        idle.prepareToPark(2, false);          // the spare parked last
        idle.notifyWork();
        assertThat(parker.unparked).containsExactly(0);
    }

    @Test
    void aWorkerThatWakesItselfLeavesTheStackCountedAsSearchingWithoutAnUnpark() {
        RecordingParker parker = new RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(2, parker, () -> { });
        idle.wakeSelf(0);                      // not parked: nothing to do
        assertThat(idle.searchingCount()).isZero();
        assertThat(idle.tryStartSearching(2)).isTrue();   // even with a searcher, ...
        idle.prepareToPark(0, false);
        idle.wakeSelf(0);                      // ... a driver with events of its own is woken
        assertThat(idle.isNotified(0)).isTrue();
        assertThat(idle.parkedCount()).isZero();
        assertThat(idle.searchingCount()).isEqualTo(2);
        assertThat(parker.unparked).isEmpty(); // it is the caller: nothing to unpark
        assertThat(idle.await(0)).isTrue();
        assertThat(idle.cancelPark(0)).isFalse();
        idle.prepareToPark(1, false);
        idle.terminate();
        idle.wakeSelf(1);                      // after terminate: terminate's wake-up stands
        assertThat(idle.parkedCount()).isEqualTo(1);
    }

    @Test
    void aNudgeUnparksTheMostRecentlyParkedWorkerButLeavesItParkedAndUnnotified() {
        RecordingParker parker = new RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(3, parker, () -> { });
        assertThat(idle.nudgeParked()).as("nobody parked").isFalse();
        idle.prepareToPark(0, false);
        idle.prepareToPark(1, false);
        assertThat(idle.nudgeParked()).isTrue();
        assertThat(parker.unparked).containsExactly(1);
        assertThat(idle.isNotified(1)).isFalse();
        assertThat(idle.parkedCount()).isEqualTo(2);
        assertThat(idle.searchingCount()).isZero();
        idle.notifyWork();                     // the nudged worker is still the one woken first
        assertThat(parker.unparked).containsExactly(1, 1);
        assertThat(idle.isNotified(1)).isTrue();
        idle.terminate();
        assertThat(idle.nudgeParked()).as("after terminate").isFalse();
    }

    /**
     * Spares never take a watcher role (a WorkStealingPool's spares watch only queued work, and
     * sleep out their keep-alive), so a nudge meant to pass the role on goes to the most recently
     * parked core worker; nudged, a spare passed the role on to nobody while core workers slept
     * unwatching. With no core worker parked nobody is nudged.
     */
    @Test
    void aNudgePassesOverParkedSparesToTheMostRecentlyParkedCoreWorker() {
        RecordingParker parker = new RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(4, 2, () -> 4, parker, () -> { });
        idle.prepareToPark(2, false);          // a spare
        assertThat(idle.nudgeParked()).as("only a spare parked").isFalse();
        assertThat(parker.unparked).isEmpty();
        assertThat(idle.parkedCoreCount()).isZero();
        idle.prepareToPark(0, false);
        idle.prepareToPark(1, false);
        idle.prepareToPark(3, false);          // another spare, parked last
        assertThat(idle.parkedCoreCount()).isEqualTo(2);
        assertThat(idle.nudgeParked()).isTrue();
        assertThat(parker.unparked).containsExactly(1);
        assertThat(idle.parkedCount()).isEqualTo(4);
    }

    @Test
    void terminateWakesEveryParkedWorkerAndAwaitReturnsFalse() {
        RecordingParker parker = new RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(2, parker, () -> { });
        idle.prepareToPark(0, false);
        idle.prepareToPark(1, false);
        idle.terminate();
        assertThat(parker.unparked).containsExactlyInAnyOrder(0, 1);
        assertThat(idle.await(0)).isFalse();
        idle.notifyWork();
        assertThat(parker.unparked).hasSize(2);
    }

    @Test
    void aWorkerParkingAfterTerminateIsNotRegisteredAndReturnsAtOnce() {
        RecordingParker parker = new RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(1, parker, () -> { });
        idle.terminate();
        for (int i = 0; i < 3; i++) {          // again and again: the stack never fills up
            assertThat(idle.prepareToPark(0, false)).isFalse();
            assertThat(idle.await(0)).isFalse();
        }
        assertThat(idle.underLock(parked -> parked == 0)).isTrue();
        assertThat(idle.parkedCount()).isZero();
    }

    @Test
    void aPreferredWorkerIsWokenIfItIsParked() {
        RecordingParker parker = new RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(3, parker, () -> { });
        idle.prepareToPark(0, false);
        idle.prepareToPark(1, false);
        idle.prepareToPark(2, false);
        idle.notifyWork(0);
        assertThat(parker.unparked).containsExactly(0);
        assertThat(idle.wakes()).isEqualTo(1);
        idle.stopSearching();
        idle.notifyWork(0);                    // not parked any more: the most recent instead
        assertThat(parker.unparked).containsExactly(0, 2);
    }

    /** A worker thread sleeping on a semaphore, not on LockSupport, is woken by the protocol. */
    @Test
    void aWorkerCanSleepOnAPluggedInParker() throws Exception {
        Semaphore[] permits = {new Semaphore(0)};
        AtomicInteger sleeps = new AtomicInteger();
        Parker semaphores = new Parker() {
            @Override
            public void park(int worker) {
                sleeps.incrementAndGet();
                permits[worker].acquireUninterruptibly();
            }

            @Override
            public void parkNanos(int worker, long nanos) {
                park(worker);
            }

            @Override
            public void unpark(int worker) {
                permits[worker].release();
            }
        };
        IdleCoordinator idle = new IdleCoordinator(1, semaphores, () -> { });
        CountDownLatch registered = new CountDownLatch(1);
        boolean[] woken = new boolean[1];
        Thread worker = new Thread(() -> {
            idle.prepareToPark(0, false);
            registered.countDown();
            woken[0] = idle.await(0);
        });
        worker.start();
        assertThat(registered.await(10, TimeUnit.SECONDS)).isTrue();
        idle.notifyWork();
        worker.join(10_000);
        assertThat(worker.isAlive()).isFalse();
        assertThat(woken[0]).isTrue();
        assertThat(sleeps.get()).isLessThanOrEqualTo(1);
    }
}
