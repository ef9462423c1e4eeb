package dev.spindle.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where the watcher sits in the parked stack: a role that sinks its watcher (the pools') is woken
 * last, one that does not (the async runtime's) leaves the stack as the workers parked.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WatcherRoleTest {

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aWatcherSinksToTheBottomOfTheParkedStackOnlyWhereTheRoleSaysSo(boolean sink) throws Exception {
        IdleCoordinatorTest.RecordingParker parker = new IdleCoordinatorTest.RecordingParker();
        IdleCoordinator idle = new IdleCoordinator(3, parker, () -> { });
        WatcherRole role = new WatcherRole(idle, () -> false, sink);
        CountDownLatch looking = new CountDownLatch(1);
        LoneTaskWatch.Peer idlePeer = new LoneTaskWatch.Peer() {
            @Override
            public long progress() {
                return 0;
            }

            @Override
            public boolean holdsWork() {
                looking.countDown();           // the watch has begun: the role was taken
                return false;
            }

            @Override
            public boolean isBusy() {
                return false;
            }
        };
        LoneTaskWatch watch = new LoneTaskWatch(2, LoneTaskWatch.Peers.of(
                new LoneTaskWatch.Peer[] {idlePeer, idlePeer, null}), 3);
        idle.prepareToPark(0, false);
        idle.prepareToPark(1, false);
        idle.prepareToPark(2, false);           // the most recently parked: the top of the stack
        AtomicReference<LoneTaskWatch.Outcome> outcome = new AtomicReference<>();
        // The parker's parks return at once, so the watcher's sleep spins until it is notified.
        Thread watcher = new Thread(() -> outcome.set(role.await(2, watch, () -> false, 1_000, 0, 1)));
        watcher.start();
        assertThat(looking.await(10, TimeUnit.SECONDS)).isTrue();
        idle.notifyWork();
        idle.stopSearching();
        // Which worker was woken, not the order of unparks: the waker marks it notified under the
        // lock and unparks it after, and a woken watcher that leaves nudges a parked peer, whose
        // unpark may be recorded first.
        int woken = sink ? 1 : 2;
        assertThat(idle.isNotified(woken)).as("the worker a wake-up picks first: %d", woken).isTrue();
        assertThat(idle.isNotified(3 - woken)).as("worker %d is not woken", 3 - woken).isFalse();
        assertThat(idle.isNotified(0)).as("worker 0 is not woken").isFalse();
        idle.wake(2);                          // ends the watcher's wait either way
        watcher.join(10_000);
        assertThat(watcher.isAlive()).isFalse();
        assertThat(outcome.get()).isEqualTo(LoneTaskWatch.Outcome.WOKEN);
    }
}
