/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.Poll;
import dev.spindle.async.Waker;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The newest-first herd lock and the start gate of {@code contention-barge}, driven by hand. */
class HerdLockTest {

    private static final class Recorder implements Context {
        final List<String> woken;
        final String name;

        Recorder(List<String> woken, String name) {
            this.woken = woken;
            this.name = name;
        }

        @Override
        public Waker waker() {
            return () -> woken.add(name);
        }

        @Override
        public boolean consumeBudget() {
            return true;
        }
    }

    @Test
    void aReleaseWakesEveryWaiterNewestFirstAndTheFirstToPollWins() {
        HerdLock lock = new HerdLock(1, true);
        List<String> woken = new ArrayList<>();
        Recorder a = new Recorder(woken, "a");
        Recorder b = new Recorder(woken, "b");
        Recorder c = new Recorder(woken, "c");
        assertThat(lock.acquire().poll(a).isReady()).isTrue();
        AsyncTask<Void> bAcq = lock.acquire();
        AsyncTask<Void> cAcq = lock.acquire();
        assertThat(bAcq.poll(b).isPending()).isTrue();
        assertThat(cAcq.poll(c).isPending()).isTrue();
        assertThat(lock.idle()).isFalse();
        lock.release();
        assertThat(woken).containsExactly("c", "b");
        assertThat(bAcq.poll(b).isReady()).isTrue();  // no hand-over: b polls first and wins
        assertThat(cAcq.poll(c).isPending()).isTrue();
        lock.release();
        assertThat(cAcq.poll(c).isReady()).isTrue();
        lock.release();
        assertThat(lock.idle()).isTrue();
        assertThatThrownBy(lock::release).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("without a matching acquire");
    }

    @Test
    void theGateOpensWhenTheLastTaskArrivesAndWakesTheOthersInArrivalOrder() {
        StartGate gate = new StartGate(3);
        List<String> woken = new ArrayList<>();
        assertThat(gate.pass(true, () -> woken.add("a"))).isFalse();
        assertThat(gate.pass(true, () -> woken.add("b"))).isFalse();
        assertThat(gate.pass(false, () -> woken.add("a"))).isFalse();
        assertThat(woken).isEmpty();
        assertThat(gate.pass(true, () -> woken.add("c"))).isTrue();
        assertThat(woken).containsExactly("a", "b");
        assertThat(gate.pass(false, () -> woken.add("a"))).isTrue();
    }
}
