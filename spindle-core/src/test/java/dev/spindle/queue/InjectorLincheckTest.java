package dev.spindle.queue;

import java.util.concurrent.TimeUnit;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck model checking of {@link Injector} as a linearizable FIFO queue: offer and poll from
 * any thread, checked against the same class run sequentially.
 *
 * <p>Each injector starts with {@link Injector#SEGMENT_SIZE}{@code - 3} elements offered and
 * polled, so its first segment has three free slots left and scenarios with more offers make
 * producers append a segment and consumers move the head onto it, concurrently.
 * {@code pollBatch} with {@code max = 1} is included: it must behave exactly like {@code poll}.
 * {@code size()} and {@code isEmpty()} are documented as estimates and are left out.
 */
@Param(name = "value", gen = IntGen.class, conf = "1:9")
public class InjectorLincheckTest {

    private final Injector<Integer> injector = new Injector<>();

    /** A destination that a batch of one never writes to (the element taken is returned). */
    private final WorkStealingDeque<Integer> unusedDest = new WorkStealingDeque<>(2, 2);

    public InjectorLincheckTest() {
        for (int i = 0; i < Injector.SEGMENT_SIZE - 3; i++) {
            injector.offer(0);
            injector.poll();
        }
    }

    @Operation
    public void offer(@Param(name = "value") int value) {
        injector.offer(value);
    }

    @Operation
    public Integer poll() {
        return injector.poll();
    }

    @Operation
    public Integer pollBatchOfOne() {
        return injector.pollBatch(unusedDest, 1);
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(12)
                .invocationsPerIteration(700)
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(getClass());
    }
}
