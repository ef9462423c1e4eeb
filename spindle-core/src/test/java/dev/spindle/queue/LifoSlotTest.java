/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.Test;

/**
 * {@link LifoSlot}: its single-threaded contract, and an exactly-once stress test of an owner
 * that puts and takes while thieves steal (the memory-model races are jcstress's
 * {@code LifoSlotTests} in spindle-stress).
 */
class LifoSlotTest {

    @Test
    void putHandsBackThePreviousOccupantAndTakeEmpties() {
        LifoSlot<String> slot = new LifoSlot<>();
        assertThat(slot.isEmpty()).isTrue();
        assertThat(slot.put("a")).isNull();
        assertThat(slot.isEmpty()).isFalse();
        assertThat(slot.put("b")).isEqualTo("a");
        assertThat(slot.take()).isEqualTo("b");
        assertThat(slot.take()).isNull();
        assertThat(slot.isEmpty()).isTrue();
    }

    @Test
    void stealEmptiesAFullSlotAndFindsNothingInAnEmptyOne() {
        LifoSlot<String> slot = new LifoSlot<>();
        assertThat(slot.steal()).isNull();
        slot.put("a");
        assertThat(slot.steal()).isEqualTo("a");
        assertThat(slot.steal()).isNull();
        assertThat(slot.take()).isNull();
    }

    @Test
    void removeTakesOnlyTheElementAskedFor() {
        LifoSlot<String> slot = new LifoSlot<>();
        String a = new String("a");
        assertThat(slot.remove(a)).isFalse();
        slot.put(a);
        assertThat(slot.remove(new String("a"))).as("compared by identity").isFalse();
        assertThat(slot.remove(null)).isFalse();
        assertThat(slot.isEmpty()).isFalse();
        assertThat(slot.remove(a)).isTrue();
        assertThat(slot.isEmpty()).isTrue();
        assertThat(slot.remove(a)).as("handed out once").isFalse();
        assertThat(slot.take()).isNull();
    }

    @Test
    void nullIsRefusedWithAMessage() {
        assertThatThrownBy(() -> new LifoSlot<String>().put(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("element");
    }

    @Test
    void everyElementComesOutExactlyOnceWhileThievesSteal() {
        int n = 200_000;
        AtomicIntegerArray seen = new AtomicIntegerArray(n);
        LifoSlot<Integer> slot = new LifoSlot<>();
        AtomicBoolean done = new AtomicBoolean();
        CountDownLatch thievesDone = new CountDownLatch(2);
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            for (int t = 0; t < 2; t++) {
                Thread thief = new Thread(() -> {
                    while (!done.get()) {
                        Integer e = slot.steal();
                        if (e != null) {
                            seen.incrementAndGet(e);
                        }
                    }
                    thievesDone.countDown();
                });
                thief.setDaemon(true);
                thief.start();
            }
            for (int i = 0; i < n; i++) {
                Integer prev = slot.put(i);    // empty most of the time: the fast path
                if (prev != null) {
                    seen.incrementAndGet(prev);
                }
                if ((i & 1) == 0) {
                    Integer e = slot.take();
                    if (e != null) {
                        seen.incrementAndGet(e);
                    }
                }
            }
            done.set(true);
            thievesDone.await();
            Integer last = slot.take();
            if (last != null) {
                seen.incrementAndGet(last);
            }
        });
        for (int i = 0; i < n; i++) {
            assertThat(seen.get(i)).as("element %d handed out", i).isEqualTo(1);
        }
    }
}
