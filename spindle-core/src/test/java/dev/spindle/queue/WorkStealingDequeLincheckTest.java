package dev.spindle.queue;

import java.util.concurrent.TimeUnit;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck model checking of {@link WorkStealingDeque}: one owner thread (the {@code "owner"}
 * non-parallel group) against thieves, checked for linearizability against the same class run
 * sequentially.
 *
 * <p>A single {@code steal()} may return {@code RETRY}, which no sequential execution produces.
 * The operations therefore retry until the result is empty or a value. That is still a faithful
 * check: {@code RETRY} is only returned when the attempt took nothing (so retrying cannot hide a
 * lost or duplicated element), and the final attempt must itself linearize, which is where a
 * wrong {@code EMPTY} or a wrong value would show. That RETRY never happens without contention
 * is checked by the single-threaded tests.
 *
 * <p>The deque starts at capacity 2 with a maximum of 4, so scenarios grow the ring and hit the
 * full path ({@code offer} returns {@code false}).
 *
 * <p>{@code isEmpty()}, {@code size()} and {@code stolenCount()} are documented as estimates and
 * are left out, because they are not linearizable. For example, while the owner pops the last
 * element, a thread can see {@code isEmpty() == true} (bottom already lowered) and then
 * {@code false} (top read before the owner's CAS, bottom after its restore) with no push in
 * between.
 */
@Param(name = "value", gen = IntGen.class, conf = "1:9")
public class WorkStealingDequeLincheckTest {

    private final WorkStealingDeque<Integer> deque = newDeque();

    /** A destination that a limit-1 batch steal never writes to (the taken element is returned). */
    private final WorkStealingDeque<Integer> unusedDest = new WorkStealingDeque<>(2, 2);

    /** The deque under test; {@link WorkStealingDequeRenewingLincheckTest} renews its ring. */
    WorkStealingDeque<Integer> newDeque() {
        return new WorkStealingDeque<>(2, 4);
    }

    @Operation(nonParallelGroup = "owner")
    public boolean offer(@Param(name = "value") int value) {
        return deque.offer(value);
    }

    @Operation(nonParallelGroup = "owner")
    public Integer pop() {
        return deque.pop();
    }

    @Operation(nonParallelGroup = "owner")
    public Integer peekBottom() {
        return deque.peekBottom();
    }

    @Operation
    public Integer steal() {
        for (;;) {
            StealResult<Integer> r = deque.steal();
            if (!r.isRetry()) {
                return r.valueOrNull();
            }
        }
    }

    /** {@code stealBatch} with limit 1 takes exactly what {@code steal} would. */
    @Operation
    public Integer stealBatchOfOne() {
        for (;;) {
            StealResult<Integer> r = deque.stealBatch(unusedDest, 1);
            if (!r.isRetry()) {
                return r.valueOrNull();
            }
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(15)
                .invocationsPerIteration(1000)
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(3)
                .actorsAfter(2)
                .check(getClass());
    }
}
