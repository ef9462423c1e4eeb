package dev.spindle.internal;

import static dev.spindle.internal.LoneTaskWatch.INTERVAL_NANOS;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The watch of a parked worker over its busy peers, step by step on one thread: the parker's
 * timed sleeps return at once and let the test change the peers between two looks, so what the
 * watcher decides after each sleep is checked exactly, without timing.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LoneTaskWatchTest {

    /** A peer whose answers the test sets. */
    static final class FakePeer implements LoneTaskWatch.Peer {
        long progress;
        boolean holdsWork;
        boolean busy;
        int stalls;
        Runnable onHoldsWork = () -> { };

        @Override
        public long progress() {
            return progress;
        }

        @Override
        public boolean holdsWork() {
            onHoldsWork.run();
            return holdsWork;
        }

        @Override
        public boolean isBusy() {
            return busy;
        }

        @Override
        public void stalled() {
            stalls++;
        }
    }

    /** Records the timed sleeps and runs the test's step after each (by its number, from 1). */
    static final class SteppingParker implements Parker {
        final List<Long> sleeps = new ArrayList<>();
        IntConsumer afterSleep = n -> { };

        @Override
        public void park(int worker) {
            throw new AssertionError("a watcher never sleeps untimed");
        }

        @Override
        public void parkNanos(int worker, long nanos) {
            sleeps.add(nanos);
            afterSleep.accept(sleeps.size());
        }

        @Override
        public void unpark(int worker) {
        }
    }

    private final SteppingParker parker = new SteppingParker();
    private final IdleCoordinator idle = new IdleCoordinator(3, parker, () -> { });
    private final FakePeer[] peers = {null, new FakePeer(), new FakePeer()};
    private final LoneTaskWatch watch = new LoneTaskWatch(0, new LoneTaskWatch.Peers() {
        @Override
        public int size() {
            return peers.length;
        }

        @Override
        public LoneTaskWatch.Peer get(int i) {
            return peers[i];
        }
    }, 3);

    /** Worker 0 registers as parked, as a worker does before it watches. */
    private void park() {
        assertThat(idle.prepareToPark(0, false)).isTrue();
    }

    private boolean parked() {
        return idle.underLock(n -> n == 1);
    }

    @Test
    void withoutACapAndWithNothingToWatchItReturnsAtOnce() {
        park();
        peers[1].progress = 7;                 // idle peers: neither holding work nor busy
        assertThat(watch.watch(idle, () -> false, INTERVAL_NANOS, 0L)).isEqualTo(LoneTaskWatch.Outcome.NOTHING_TO_WATCH);
        assertThat(parker.sleeps).isEmpty();
        assertThat(parked()).isTrue();         // still registered: the caller sleeps as usual
    }

    /**
     * A work-stealing pool's spare watches only queued work: a peer that is merely awake must not
     * keep it watching (it would never sleep out its keep-alive), where the same look keeps a
     * watch that counts busy peers going.
     */
    @Test
    void aHeldOnlyWatchIgnoresAPeerThatIsOnlyBusy() {
        park();
        peers[1].busy = true;                  // running, nothing queued
        LoneTaskWatch heldOnly = new LoneTaskWatch(0, LoneTaskWatch.Peers.of(peers), peers.length, true);
        assertThat(heldOnly.watch(idle, () -> false, INTERVAL_NANOS, 0L)).isEqualTo(LoneTaskWatch.Outcome.NOTHING_TO_WATCH);
        assertThat(parker.sleeps).isEmpty();
        assertThat(heldOnly.anythingToWatch()).isFalse();
        assertThat(watch.anythingToWatch()).as("the default watch counts the busy peer").isTrue();
        peers[1].holdsWork = true;             // now something is queued: the spare watches it
        assertThat(heldOnly.anythingToWatch()).isTrue();
    }

    @Test
    void aPeerWhoseTaskRunsOnWithWorkQueuedIsRobbedAfterOneInterval() {
        park();
        peers[2].holdsWork = true;
        peers[2].busy = true;
        peers[2].progress = 41;                // and it stays there: the same task runs on
        assertThat(watch.watch(idle, () -> false, INTERVAL_NANOS, 0L)).isEqualTo(LoneTaskWatch.Outcome.RESUME);
        assertThat(parker.sleeps).containsExactly(INTERVAL_NANOS);
        assertThat(parked()).isFalse();        // left the stack to go and take it
        assertThat(idle.searchingCount()).isZero();
        assertThat(peers[2].stalls).as("told before it is robbed, to make private work takeable").isEqualTo(1);
        assertThat(peers[1].stalls).isZero();
    }

    @Test
    void aPeerThatKeepsFinishingTasksIsNotRobbed() {
        park();
        peers[1].holdsWork = true;
        parker.afterSleep = n -> {
            peers[1].progress++;               // a task finished during every interval
            if (n == 5) {
                idle.notifyWork();             // then the watcher is woken for work
            }
        };
        assertThat(watch.watch(idle, () -> false, INTERVAL_NANOS, 0L)).isEqualTo(LoneTaskWatch.Outcome.WOKEN);
        assertThat(parker.sleeps).hasSize(5).containsOnly(INTERVAL_NANOS);
        assertThat(idle.searchingCount()).isEqualTo(1);  // woken by notifyWork: counted as searching
        assertThat(peers[1].stalls).isZero();
    }

    @Test
    void withoutACapItStopsWatchingWhenNoPeerHoldsWorkAnyMore() {
        park();
        peers[1].holdsWork = true;
        parker.afterSleep = n -> {
            peers[1].progress++;
            peers[1].holdsWork = false;        // the owner took its task
        };
        assertThat(watch.watch(idle, () -> false, INTERVAL_NANOS, 0L)).isEqualTo(LoneTaskWatch.Outcome.NOTHING_TO_WATCH);
        assertThat(parker.sleeps).hasSize(1);
        assertThat(parked()).isTrue();
    }

    @Test
    void withACapItBacksOffWhileNothingIsQueuedAndLooksOftenWhileSomethingIs() {
        park();
        long cap = 8 * INTERVAL_NANOS;
        parker.afterSleep = n -> {
            if (n == 6) {
                peers[1].busy = true;          // a peer starts a poll: no reason to look more often
                peers[1].progress = 100;
            } else if (n == 8) {
                peers[1].progress = 101;       // a second poll, which queues a task behind it
                peers[1].holdsWork = true;
            }                                  // and never ends
        };
        assertThat(watch.watch(idle, () -> false, INTERVAL_NANOS, cap)).isEqualTo(LoneTaskWatch.Outcome.RESUME);
        assertThat(parker.sleeps).containsExactly(INTERVAL_NANOS, 2 * INTERVAL_NANOS, 4 * INTERVAL_NANOS,
                cap, cap, cap, cap, cap, INTERVAL_NANOS);
    }

    /** The work-sharing pool's watch: it gives up only after some looks in a row found nothing. */
    @Test
    void withIdleLooksItGivesUpAfterThatManyQuietLooksInARowBackingOff() {
        park();
        long cap = 4 * INTERVAL_NANOS;
        parker.afterSleep = n -> {
            if (n == 2) {
                peers[2].busy = true;          // a peer wakes: the quiet spell starts again
            } else if (n == 3) {
                peers[2].busy = false;         // and parks
            }
        };
        assertThat(watch.watch(idle, () -> false, INTERVAL_NANOS, cap, 3)).isEqualTo(LoneTaskWatch.Outcome.NOTHING_TO_WATCH);
        // looks: quiet (1), quiet (2), busy (0), quiet (1), quiet (2), quiet (3): five sleeps, backing off
        assertThat(parker.sleeps).containsExactly(INTERVAL_NANOS, 2 * INTERVAL_NANOS, cap, cap, cap);
        assertThat(parked()).isTrue();         // still registered: the caller sleeps as usual
        assertThat(watch.anythingToWatch()).isFalse();
        peers[1].holdsWork = true;
        assertThat(watch.anythingToWatch()).isTrue();
    }

    @Test
    void idleLooksOutOfRangeAreRefused() {
        assertThatThrownBy(() -> watch.watch(idle, () -> false, INTERVAL_NANOS, INTERVAL_NANOS, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("idleLooks");
        assertThatThrownBy(() -> watch.watch(idle, () -> false, INTERVAL_NANOS, 0L, 2))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("without a sleep cap");
    }

    @Test
    void aTaskThatStartedBeforeTheLastLookAndQueuedWorkSinceIsRobbedAtTheNextLook() {
        park();
        peers[1].busy = true;
        peers[1].progress = 5;
        parker.afterSleep = n -> {
            if (n == 3) {
                peers[1].holdsWork = true;     // queued during a poll that was running at look 2
            }
        };
        assertThat(watch.watch(idle, () -> false, INTERVAL_NANOS, 8 * INTERVAL_NANOS))
                .isEqualTo(LoneTaskWatch.Outcome.RESUME);
        assertThat(parker.sleeps).hasSize(3);
    }

    @Test
    void aBusyPeerWithNothingQueuedIsWatchedButNeverRobbed() {
        park();
        peers[1].busy = true;
        parker.afterSleep = n -> {
            if (n == 4) {
                idle.notifyWork();
            }
        };
        assertThat(watch.watch(idle, () -> false, INTERVAL_NANOS, 0L)).isEqualTo(LoneTaskWatch.Outcome.WOKEN);
        assertThat(parker.sleeps).hasSize(4).containsOnly(INTERVAL_NANOS);
    }

    @Test
    void aWakerThatGetsThereFirstWinsOverTheWatchersOwnLeaving() {
        park();
        peers[1].holdsWork = true;
        peers[1].onHoldsWork = () -> {
            if (!parker.sleeps.isEmpty() && !idle.isNotified(0)) {
                idle.notifyWork();             // a submitter wakes the watcher just as it decides
            }
        };
        assertThat(watch.watch(idle, () -> false, INTERVAL_NANOS, 0L)).isEqualTo(LoneTaskWatch.Outcome.WOKEN);
        assertThat(idle.searchingCount()).isEqualTo(1);  // the wake-up's accounting stands
        assertThat(parked()).isFalse();
    }

    @Test
    void aStoppingPoolEndsTheWatch() {
        park();
        peers[1].busy = true;
        boolean[] stopping = {false};
        parker.afterSleep = n -> stopping[0] = n == 2;
        assertThat(watch.watch(idle, () -> stopping[0], INTERVAL_NANOS, 0L)).isEqualTo(LoneTaskWatch.Outcome.EXIT);
        assertThat(parker.sleeps).hasSize(2);
    }

    @Test
    void aPeerThatAppearsLaterIsFirstLookedAtBeforeItCanBeRobbed() {
        park();
        FakePeer late = peers[2];
        peers[2] = null;                       // a spare's slot, not used yet
        peers[1].busy = true;
        parker.afterSleep = n -> {
            if (n == 1) {
                late.holdsWork = true;         // appears holding work, at progress 0
                peers[2] = late;
            }
        };
        assertThat(watch.watch(idle, () -> false, INTERVAL_NANOS, 0L)).isEqualTo(LoneTaskWatch.Outcome.RESUME);
        assertThat(parker.sleeps).hasSize(2); // one look to record it, one interval to judge it
    }
}
