/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker that holds the watcher role and gets an {@link Error} out of its watch (an
 * {@link OutOfMemoryError} in its own code) does not keep the role: {@link WatcherRole#await}
 * frees the flag as the error leaves it, and the pools' workers then leave the park they had
 * registered for ({@code BaseWorker.leaveRegisteredPark}, from {@code survives}), which nudges a
 * peer still parked to take the role. Kept, the flag would have stopped every other worker from
 * watching for good, and a work-stealing pool's slot fills, which wake nobody while the role is
 * held, would have waited behind a blocked spawner unseen. Driven by hand: the idle protocol's
 * sleep hook throws once, in the watcher's first sleep.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WatcherRoleAfterAnErrorTest {

    /** A peer that is always busy with work queued, so a watcher keeps watching it. */
    private static final LoneTaskWatch.Peer BUSY = new LoneTaskWatch.Peer() {
        @Override
        public long progress() {
            return 0;
        }

        @Override
        public boolean holdsWork() {
            return false;
        }

        @Override
        public boolean isBusy() {
            return true;
        }
    };

    @Test
    void anErrorOutOfTheWatchFreesTheRoleAndThePeerStillParkedTakesIt() throws Exception {
        IdleCoordinatorTest.RecordingParker parker = new IdleCoordinatorTest.RecordingParker();
        AtomicBoolean armed = new AtomicBoolean(true);
        AtomicBoolean watching = new AtomicBoolean();
        IdleCoordinator idle = new IdleCoordinator(3, parker, () -> {
            if (watching.get() && armed.compareAndSet(true, false)) {
                throw new OutOfMemoryError("the watch failed (thrown by the test)");
            }
        });
        WatcherRole role = new WatcherRole(idle, () -> false, true, true);
        LoneTaskWatch.Peers peers = LoneTaskWatch.Peers.of(new LoneTaskWatch.Peer[] {null, null, BUSY});
        LoneTaskWatch watch0 = new LoneTaskWatch(0, peers, 3);
        LoneTaskWatch watch1 = new LoneTaskWatch(1, peers, 3);
        idle.prepareToPark(0, false);
        idle.prepareToPark(1, false);           // worker 2 stays awake: the busy peer
        watching.set(true);

        // worker 1 takes the role (a peer is busy) and its watch throws in its first sleep
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread first = new Thread(() -> {
            try {
                role.await(1, watch1, () -> false, 1_000, 4_000, 3);
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        first.start();
        first.join(10_000);
        assertThat(first.isAlive()).isFalse();
        assertThat(thrown.get()).isInstanceOf(OutOfMemoryError.class);
        assertThat(role.isHeld()).as("the role, after the error left the watch").isFalse();

        // what a pool's worker does next (survives -> leaveRegisteredPark): out of the park, then leave
        idle.cancelPark(1);
        parker.unparked.clear();
        role.leave(watch1);
        assertThat(parker.unparked).as("nudged to take the role over").containsExactly(0);

        // the nudged worker takes the role and watches
        AtomicReference<LoneTaskWatch.Outcome> outcome = new AtomicReference<>();
        Thread second = new Thread(() -> outcome.set(role.await(0, watch0, () -> false, 1_000, 4_000, 3)));
        second.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!role.isHeld() && second.isAlive() && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        assertThat(role.isHeld()).as("the peer holds the role").isTrue();
        idle.wake(0);                          // ends its watch
        second.join(10_000);
        assertThat(second.isAlive()).isFalse();
        assertThat(outcome.get()).isEqualTo(LoneTaskWatch.Outcome.WOKEN);
        assertThat(role.isHeld()).isFalse();
    }
}
