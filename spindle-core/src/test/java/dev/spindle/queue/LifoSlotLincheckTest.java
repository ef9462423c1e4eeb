/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import java.util.concurrent.TimeUnit;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck model checking of {@link LifoSlot} as a linearizable one-element slot: the owner's
 * {@code put} and {@code take} in one thread (the {@code "owner"} non-parallel group) against
 * thieves' {@code steal} and {@code isEmpty}, checked against the same class run sequentially.
 *
 * <p>The jcstress tests {@code LifoSlotTests} cover one owner operation against one steal from
 * a fixed starting slot; this covers mixes of them (a put into a slot a thief is emptying, then a
 * take, and so on), two thieves racing for one element, and a value put again after it was
 * taken, so that a thief's CAS may meet the same reference it read before (values 1 to 3 are
 * cached {@code Integer}s): each put element still comes out exactly once.
 *
 * <p>A thief's {@code steal} is retried until it takes an element or sees the slot empty (see
 * {@link #steal}): unretried, Lincheck finds the documented spurious failure at once (the owner
 * puts 2, a thief reads 2, the owner puts 3 and gets 2 back, the thief's CAS fails and it returns
 * {@code null} though the slot was never empty).
 *
 * <p>Shown to fail (by temporarily editing the class) when {@code steal} empties the slot with a
 * plain store after its read instead of a CAS (an element handed out twice).
 */
@Param(name = "value", gen = IntGen.class, conf = "1:3")
public class LifoSlotLincheckTest {

    private final LifoSlot<Integer> slot = new LifoSlot<>();

    @Operation(nonParallelGroup = "owner")
    public Integer put(@Param(name = "value") int value) {
        return slot.put(value);
    }

    @Operation(nonParallelGroup = "owner")
    public Integer take() {
        return slot.take();
    }

    /**
     * A thief's steal, retried while it fails with the slot not empty: a single {@code steal}
     * fails (returns {@code null}) when another thread changes the slot between its read and its
     * CAS, even if the slot is never empty meanwhile (the owner replaces the element it read, or a
     * thief takes it and the owner puts another). That is its documented contract ("or another
     * thread emptied it first"), the relaxation every work-stealing steal has, and nothing is lost
     * by it (the element stays for the owner); the sequential slot cannot express it, so the
     * retry takes it out: this returns {@code null} only when it saw the slot empty.
     */
    @Operation
    public Integer steal() {
        for (;;) {
            Integer e = slot.steal();
            if (e != null || slot.isEmpty()) {
                return e;
            }
        }
    }

    @Operation
    public boolean isEmpty() {
        return slot.isEmpty();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(15)
                .invocationsPerIteration(500)
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(2)
                .check(getClass());
    }
}
