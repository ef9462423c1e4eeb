package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.Task;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ForkJoinTest {

    static long fib(WorkStealingPool pool, int n) {
        if (n < 2) {
            return n;
        }
        Task<Long> left = pool.spawn(() -> fib(pool, n - 1));
        long right = fib(pool, n - 2);
        return left.join() + right;
    }

    static long fibSeq(int n) {
        return n < 2 ? n : fibSeq(n - 1) + fibSeq(n - 2);
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void deepRecursiveForkJoinCompletes(int workers) {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(workers).build()) {
            assertThat(pool.invoke(() -> fib(pool, 25))).isEqualTo(fibSeq(25));
        }
    }
}
