package dev.spindle.queue;

import java.util.concurrent.TimeUnit;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck model checking of {@link OwnerFifo} as a linearizable bounded FIFO queue: the owner's
 * {@code offer} and {@code poll} in one thread (the {@code "owner"} non-parallel group) against
 * thieves' {@code steal}, checked against the same class run sequentially.
 *
 * <p>The ring has 2 slots, so scenarios fill it ({@code offer} returns {@code false}) and reuse
 * slots while a thief may still be reading the old one, which is the race the CAS on
 * {@code head} settles. {@code size()} and {@code isEmpty()} are estimates and left out.
 *
 * <p>Shown to fail (by temporarily editing the class) when {@code steal} claims its index with
 * a read and a write of {@code head} instead of a CAS (an element taken twice), and when the
 * owner's {@code offer} checks for room against {@code tail - capacity} plus one (a slot
 * overwritten before it was taken).
 */
@Param(name = "value", gen = IntGen.class, conf = "1:9")
public class OwnerFifoLincheckTest {

    private final OwnerFifo<Integer> q = new OwnerFifo<>(2);

    @Operation(nonParallelGroup = "owner")
    public boolean offer(@Param(name = "value") int value) {
        return q.offer(value);
    }

    @Operation(nonParallelGroup = "owner")
    public Integer poll() {
        return q.poll();
    }

    @Operation
    public Integer steal() {
        return q.steal();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(15)
                .invocationsPerIteration(1000)
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(getClass());
    }
}
