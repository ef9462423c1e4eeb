package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Exactly-once and per-producer FIFO stress test of {@link Injector}: producers offer distinct
 * values ({@code producer * PER_PRODUCER + sequence}) while consumers poll and batch-poll into
 * deques of their own. Each consumer logs what it took, in the order the injector handed it
 * over, into its own array. Afterwards every value must have been taken exactly once, and each
 * consumer must have seen each producer's values in increasing sequence order.
 *
 * <p>A consumer's deque holds at most 16 and permanently keeps a few placeholder values, so
 * batch sizes are bounded both by the requested maximum and by the room left in the deque. The
 * consumer takes a batch back out of its deque newest first and logs it reversed, which is the
 * order in which the injector released it.
 *
 * <p>Producers spend a little time between offers so that consumers keep up with them and
 * sometimes claim a slot whose producer has not written it yet (the slot is then skipped and the
 * producer claims another); a few hundred such races happen per run.
 *
 * <p>There are no timing assertions; the deadline only turns a hang into a failure.
 *
 * <p>Shown to fail (by temporarily editing the injector) when a producer checks the slot and then
 * writes it instead of using a CAS. A consumer that reads the slot and then marks it taken, in
 * two steps, is not caught here (its window is a few instructions wide); the Lincheck tests
 * catch that one.
 */
class InjectorStressTest {

    private static final int TOTAL = 2_100_000;

    /** Values taken by one consumer, in injector order. */
    private static final class Log {
        final int[] values = new int[TOTAL];
        int n;

        void add(int v) {
            values[n++] = v;
        }
    }

    @ParameterizedTest(name = "{0} producers, {1} consumers")
    @CsvSource({"2, 2", "3, 2", "2, 3"})
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void everyElementIsTakenExactlyOnceInProducerOrder(int producers, int consumers)
            throws InterruptedException {
        int perProducer = TOTAL / producers;
        int total = perProducer * producers;
        Injector<Integer> q = new Injector<>();
        StressThreads ctl = new StressThreads(60, TimeUnit.SECONDS);
        CountDownLatch startGate = new CountDownLatch(producers + consumers);
        AtomicBoolean producersDone = new AtomicBoolean();
        List<Log> logs = new ArrayList<>();
        AtomicInteger sink = new AtomicInteger();

        List<Thread> producerThreads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int base = p * perProducer;
            producerThreads.add(ctl.start("producer-" + p, c -> {
                startGate.countDown();
                startGate.await();
                int x = base | 1;
                for (int i = 0; i < perProducer; i++) {
                    q.offer(base + i);
                    // Make up the next "task" so that consumers keep up and often claim slots
                    // that producers have claimed but not yet written.
                    for (int k = (i * 31) & 63; k >= 0; k--) {
                        x ^= x << 13;
                        x ^= x >>> 17;
                        x ^= x << 5;
                    }
                    if ((i & 4095) == 0 && c.expired()) {
                        return;
                    }
                }
                sink.addAndGet(x);
            }));
        }
        for (int k = 0; k < consumers; k++) {
            Log log = new Log();
            logs.add(log);
            long seed = 7919L * k + producers;
            ctl.start("consumer-" + k, c -> {
                SplittableRandom rnd = new SplittableRandom(seed);
                int placeholders = rnd.nextInt(12);
                WorkStealingDeque<Integer> own = new WorkStealingDeque<>(2, 16);
                for (int i = 0; i < placeholders; i++) {
                    own.push(-1);
                }
                int[] batch = new int[16];
                startGate.countDown();
                startGate.await();
                while (!c.expired()) {
                    boolean done = producersDone.get();
                    Integer first;
                    if (rnd.nextBoolean()) {
                        first = q.poll();
                        if (first != null) {
                            log.add(first);
                        }
                    } else {
                        int max = 1 + rnd.nextInt(24);
                        first = q.pollBatch(own, max);
                        int moved = own.size() - placeholders;
                        if (first == null ? moved != 0 : moved < 0 || moved > max - 1) {
                            throw new AssertionError("batch of max " + max + " moved " + moved
                                    + " with " + placeholders + " placeholders");
                        }
                        if (first != null) {
                            log.add(first);
                            for (int i = 0; i < moved; i++) {
                                batch[i] = own.pop();
                            }
                            for (int i = moved - 1; i >= 0; i--) {
                                log.add(batch[i]);
                            }
                        }
                    }
                    if (first == null && done && q.isEmpty()) {
                        return;
                    }
                }
            });
        }
        for (Thread t : producerThreads) {
            ctl.join(t);
        }
        producersDone.set(true);
        ctl.joinAll();

        assertThat(q.poll()).isNull();
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.size()).isZero();

        int[] count = new int[total];
        List<String> bad = new ArrayList<>();
        for (int k = 0; k < logs.size(); k++) {
            Log log = logs.get(k);
            int[] last = new int[producers];
            java.util.Arrays.fill(last, -1);
            for (int i = 0; i < log.n; i++) {
                int v = log.values[i];
                count[v]++;
                int p = v / perProducer;
                int seq = v % perProducer;
                if (seq <= last[p] && bad.size() < 10) {
                    bad.add("consumer " + k + " saw producer " + p + "'s " + seq + " after " + last[p]);
                }
                last[p] = seq;
            }
        }
        for (int v = 0; v < total && bad.size() < 20; v++) {
            if (count[v] != 1) {
                bad.add(v + " taken " + count[v] + " times");
            }
        }
        assertThat(bad).isEmpty();
    }
}
