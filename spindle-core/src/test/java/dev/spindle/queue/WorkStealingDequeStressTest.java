package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Exactly-once stress test of {@link WorkStealingDeque}: one owner pushes distinct values in
 * random bursts and pops some of them back while 1-3 thieves steal, steal-or-null and batch-steal
 * into their own small deques. Every thread logs what it took into its own array; afterwards
 * every value must have been taken exactly once.
 *
 * <p>Each repetition starts a fresh deque at capacity 2, alternately with a maximum of 64 (the
 * owner often finds it full: {@code offer} returns {@code false} and the owner pops one element
 * and tries again) and of 16384 (the ring grows under contention). Now and then the owner pops
 * until empty, racing the thieves for the last element. The thieves' destinations hold at most
 * 16 and are only partly emptied, so batch sizes are also bounded by the room left in them.
 *
 * <p>Also checked: each thief's takes from the victim are increasing (values are pushed in
 * increasing order and the top index only moves forward), {@code stolenCount()} equals what the
 * thieves took, and the deque ends empty. There are no timing assertions; the deadline only
 * turns a hang into a failure.
 *
 * <p>Shown to fail (by temporarily editing the deque) when pop takes the last element without
 * its CAS, when pop's full fence is removed, and when stealBatch skips its per-element re-read
 * of bottom.
 */
class WorkStealingDequeStressTest {

    private static final int REPETITIONS = 8;
    private static final int PER_REPETITION = 90_000;      // x 8 x 3 thief counts > 2,000,000

    /**
     * Values taken by one thread. Taking a value also "runs" it: a few hundred nanoseconds of
     * arithmetic, as a task would, so that neither side races through its share while the
     * others are still being scheduled.
     */
    private static final class Log {
        final int[] values;
        int n;
        int sink;

        Log(int capacity) {
            values = new int[capacity];
        }

        void add(int v) {
            values[n++] = v;
            int x = v | 1;
            for (int i = 0; i < 64; i++) {
                x ^= x << 13;
                x ^= x >>> 17;
                x ^= x << 5;
            }
            sink += x;
        }
    }

    @ParameterizedTest(name = "{0} thieves")
    @ValueSource(ints = {1, 2, 3})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void everyElementIsTakenExactlyOnce(int thieves) throws InterruptedException {
        for (int rep = 0; rep < REPETITIONS; rep++) {
            int maxCapacity = rep % 2 == 0 ? 64 : 1 << 14;    // often full / growing
            runOnce(thieves, PER_REPETITION, maxCapacity, 1000L * thieves + rep);
        }
    }

    private static void runOnce(int thieves, int n, int maxCapacity, long seed)
            throws InterruptedException {
        WorkStealingDeque<Integer> deque = new WorkStealingDeque<>(2, maxCapacity);
        StressThreads ctl = new StressThreads(60, TimeUnit.SECONDS);
        Log ownerLog = new Log(n);
        List<Log> thiefLogs = new ArrayList<>();
        AtomicBoolean finished = new AtomicBoolean();      // set by the owner after its last pop

        CountDownLatch startGate = new CountDownLatch(1 + thieves);
        ctl.start("owner", c -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            startGate.countDown();
            startGate.await();
            int next = 0;
            while (next < n && !c.expired()) {
                int burst = 1 + rnd.nextInt(48);
                for (int k = 0; k < burst && next < n; k++) {
                    if (deque.offer(next)) {
                        if ((++next & 1023) == 0) {
                            Thread.yield();          // on a busy machine, let the thieves run
                        }
                    } else {
                        Integer x = deque.pop();     // make room; a thief may have done so already
                        if (x != null) {
                            ownerLog.add(x);
                        }
                    }
                }
                // Usually pop a few; now and then pop until empty, racing the thieves for the
                // last element.
                int pops = rnd.nextInt(8) == 0 ? Integer.MAX_VALUE : rnd.nextInt(burst + 1) / 3;
                for (int k = 0; k < pops; k++) {
                    Integer x = deque.pop();
                    if (x == null) {
                        break;
                    }
                    ownerLog.add(x);
                }
            }
            for (Integer x; (x = deque.pop()) != null; ) {   // race the thieves for the rest
                ownerLog.add(x);
            }
            finished.set(true);
        });

        for (int t = 0; t < thieves; t++) {
            Log log = new Log(n);
            thiefLogs.add(log);
            long thiefSeed = seed * 31 + t;
            ctl.start("thief-" + t, c -> {
                SplittableRandom rnd = new SplittableRandom(thiefSeed);
                WorkStealingDeque<Integer> own = new WorkStealingDeque<>(2, 16);
                startGate.countDown();
                startGate.await();
                int lastFromVictim = -1;
                while (!c.expired()) {
                    boolean ownerDone = finished.get();
                    Integer first;
                    switch (rnd.nextInt(3)) {
                        case 0 -> {
                            StealResult<Integer> r;
                            do {
                                r = deque.steal();
                            } while (r.isRetry());
                            first = r.valueOrNull();
                        }
                        case 1 -> first = deque.stealOrNull();
                        default -> {
                            int before = own.size();
                            first = deque.stealBatchOrNull(own, 1 + rnd.nextInt(12));
                            if (first == null && own.size() != before) {
                                throw new AssertionError("batch moved elements but returned null");
                            }
                        }
                    }
                    if (first != null) {
                        if (first <= lastFromVictim) {
                            throw new AssertionError("thief took " + first + " after " + lastFromVictim);
                        }
                        lastFromVictim = first;
                        log.add(first);
                    }
                    // Run part of what the batches moved, newest first, as a worker would.
                    int keep = rnd.nextInt(12);
                    while (own.size() > keep) {
                        log.add(own.pop());
                    }
                    if (first == null && ownerDone && deque.isEmpty()) {
                        break;
                    }
                }
                for (Integer x; (x = own.pop()) != null; ) {
                    log.add(x);
                }
            });
        }
        ctl.joinAll();

        assertThat(deque.isEmpty()).isTrue();
        assertThat(deque.pop()).isNull();
        assertThat(deque.steal().isEmpty()).isTrue();

        int[] count = new int[n];
        List<Log> all = new ArrayList<>(thiefLogs);
        all.add(ownerLog);
        long stolen = 0;
        for (Log log : all) {
            for (int i = 0; i < log.n; i++) {
                count[log.values[i]]++;
            }
        }
        for (Log log : thiefLogs) {
            stolen += log.n;
        }
        List<String> bad = new ArrayList<>();
        for (int v = 0; v < n && bad.size() < 10; v++) {
            if (count[v] != 1) {
                bad.add(v + " taken " + count[v] + " times");
            }
        }
        assertThat(bad).as("seed %d, %d thieves", seed, thieves).isEmpty();
        assertThat(deque.stolenCount()).as("stolenCount").isEqualTo(stolen);
    }
}
