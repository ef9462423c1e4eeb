package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ParallelForTest {

    @Property(tries = 60)
    void everyIndexRunsExactlyOnce(@ForAll @IntRange(min = -1000, max = 1000) int from,
                                   @ForAll @IntRange(min = 0, max = 5000) int length,
                                   @ForAll @IntRange(min = 1, max = 4) int workers) {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(workers).build()) {
            AtomicIntegerArray hits = new AtomicIntegerArray(length);
            pool.parallelFor(from, from + length, i -> hits.incrementAndGet(i - from));
            for (int i = 0; i < length; i++) {
                assertThat(hits.get(i)).as("index %d", from + i).isEqualTo(1);
            }
        }
    }

    @Test
    void nestedLoopsFromInsideTheePool() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            AtomicLong sum = new AtomicLong();
            pool.parallelFor(0, 100, i -> pool.parallelFor(0, 100, j -> sum.addAndGet(i * 100L + j)));
            assertThat(sum.get()).isEqualTo(10_000L * 9_999 / 2);
        }
    }

    @Test
    void failuresPropagateAfterAllRangesFinish() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).build()) {
            AtomicLong ran = new AtomicLong();
            assertThatThrownBy(() -> pool.parallelFor(0, 10_000, i -> {
                ran.incrementAndGet();
                if (i % 1000 == 7) {
                    throw new IllegalStateException("bad " + i);
                }
            })).isInstanceOf(IllegalStateException.class).hasMessageStartingWith("bad ");
            long after = ran.get();
            LifecycleTest.sleepQuietly(50);
            assertThat(ran.get()).as("nothing still running after the call returned").isEqualTo(after);
        }
    }

    @Test
    void argumentsAreChecked() {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            assertThatThrownBy(() -> pool.parallelFor(5, 4, i -> { })).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("from");
            pool.parallelFor(3, 3, i -> {
                throw new AssertionError("empty range must not run");
            });
        }
    }
}
