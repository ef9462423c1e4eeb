package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Exactly-once and FIFO stress test of {@link OwnerFifo}: the owner offers {@code 0..TOTAL-1} into
 * a small ring (so slots are reused all the time while thieves read them) and polls now and then;
 * thieves steal. Each consumer logs what it took, in the order it took it. Afterwards every value
 * must have been taken exactly once, and each consumer's log must increase.
 *
 * <p>No timing assertions; the deadline only turns a hang into a failure. Shown to fail (by
 * temporarily editing the class) when {@code steal} claims its index with a read and a write of
 * {@code head} instead of a CAS.
 */
class OwnerFifoStressTest {

    private static final int TOTAL = 2_000_000;

    private static final class Log {
        final int[] values = new int[TOTAL];
        int n;

        void add(int v) {
            values[n++] = v;
        }

        void assertIncreasing(String who) {
            for (int i = 1; i < n; i++) {
                if (values[i] <= values[i - 1]) {
                    throw new AssertionError(who + " took " + values[i] + " after " + values[i - 1]);
                }
            }
        }
    }

    @ParameterizedTest(name = "{0} thieves")
    @ValueSource(ints = {1, 2, 3})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void everyElementIsTakenExactlyOnceInOrder(int thieves) throws InterruptedException {
        OwnerFifo<Integer> q = new OwnerFifo<>(8);
        AtomicInteger taken = new AtomicInteger();
        StressThreads ctl = new StressThreads(80, TimeUnit.SECONDS);
        Log ownerLog = new Log();
        Log[] thiefLogs = new Log[thieves];
        Thread owner = ctl.start("owner", c -> {
            int next = 0;
            int k = 0;
            while (taken.get() < TOTAL && !c.expired()) {
                if (next < TOTAL && (++k & 3) != 0 && q.offer(next)) {
                    next++;
                } else {
                    Integer x = q.poll();      // full, or every 4th turn: take one back
                    if (x != null) {
                        ownerLog.add(x);
                        taken.incrementAndGet();
                    }
                }
            }
        });
        Thread[] ts = new Thread[thieves];
        for (int i = 0; i < thieves; i++) {
            Log log = thiefLogs[i] = new Log();
            ts[i] = ctl.start("thief-" + i, c -> {
                while (taken.get() < TOTAL && !c.expired()) {
                    Integer x = q.steal();
                    if (x != null) {
                        log.add(x);
                        taken.incrementAndGet();
                    } else {
                        Thread.onSpinWait();
                    }
                }
            });
        }
        ctl.joinAll();

        boolean[] seen = new boolean[TOTAL];
        int count = 0;
        ownerLog.assertIncreasing("the owner");
        count += mark(seen, ownerLog);
        for (int i = 0; i < thieves; i++) {
            thiefLogs[i].assertIncreasing("thief " + i);
            count += mark(seen, thiefLogs[i]);
        }
        assertThat(count).as("elements taken").isEqualTo(TOTAL);
        for (int v = 0; v < TOTAL; v++) {
            if (!seen[v]) {
                throw new AssertionError("value " + v + " never taken");
            }
        }
        assertThat(thiefLogs[0].n).as("thief 0 took something").isPositive();
        assertThat(q.isEmpty()).isTrue();
    }

    private static int mark(boolean[] seen, Log log) {
        for (int i = 0; i < log.n; i++) {
            int v = log.values[i];
            if (seen[v]) {
                throw new AssertionError("value " + v + " taken twice");
            }
            seen[v] = true;
        }
        return log.n;
    }
}
