package dev.spindle.queue;

import static dev.spindle.testkit.Threads.runAll;

import java.util.Arrays;

/**
 * Small producer/consumer programs on an {@link Injector} with their own exactly-once and
 * ordering checks, for Lincheck's {@code runConcurrentTest} to explore. The checks use plain
 * Java so that the model checker has little besides the injector to instrument.
 */
final class InjectorScenarios {

    private InjectorScenarios() {}

    /** Values taken by one consumer, in the order it took them. */
    private static final class Log {
        final int[] values = new int[16];
        int n;

        void add(Integer v) {
            if (v != null) {
                values[n++] = v;
            }
        }

        @Override
        public String toString() {
            return Arrays.toString(Arrays.copyOf(values, n));
        }
    }

    private static void fail(String message, Log... logs) {
        throw new AssertionError(message + " " + Arrays.toString(logs));
    }

    /**
     * An injector in the state that {@code SEGMENT_SIZE - free} offer/poll pairs leave behind:
     * both claim counters of the first segment at {@code SEGMENT_SIZE - free}. The counters are
     * set directly rather than by running the pairs, because Lincheck explores far fewer
     * interleavings of code that the test thread has already run many times before starting
     * the threads (observed with Lincheck 3.7: a planted lost-element bug went unnoticed). The
     * consumed slots hold {@code null} instead of the taken marker, which no operation reads:
     * producers and consumers only claim indices at or above the counters.
     */
    static Injector<Integer> nearSegmentEnd(int free) {
        Injector<Integer> q = new Injector<>();
        int used = Injector.SEGMENT_SIZE - free;
        q.head.enq = used;
        q.head.deq = used;
        return q;
    }

    /**
     * {@code free} slots are left in the first segment (with 2, producers must append a second
     * segment while consumers cross into it). Producer A offers 1, 2, 3 and producer B offers
     * 11, 12. Consumer C batch-polls (max 3) into its own deque,
     * takes the batch out oldest first, then polls once; consumer D polls twice. The test thread
     * then drains the rest.
     *
     * <p>Checks: every value taken exactly once; each consumer sees each producer's values in
     * the order they were offered; the batch is no larger than its max.
     */
    static void twoProducersBatchAndPollConsumers(int free) {
        Injector<Integer> q = nearSegmentEnd(free);
        Log c = new Log();
        Log d = new Log();
        Log rest = new Log();
        int[] batchSize = new int[1];
        Thread pa = new Thread(() -> {
            q.offer(1);
            q.offer(2);
            q.offer(3);
        });
        Thread pb = new Thread(() -> {
            q.offer(11);
            q.offer(12);
        });
        Thread cc = new Thread(() -> {
            WorkStealingDeque<Integer> dest = new WorkStealingDeque<>(2, 4);
            Integer first = q.pollBatch(dest, 3);
            c.add(first);
            int before = c.n;
            for (Integer x; (x = dest.stealOrNull()) != null; ) {
                c.add(x);
            }
            batchSize[0] = first == null ? 0 : 1 + c.n - before;
            c.add(q.poll());
        });
        Thread cd = new Thread(() -> {
            d.add(q.poll());
            d.add(q.poll());
        });
        runAll(pa, pb, cc, cd);
        for (Integer x; (x = q.poll()) != null; ) {
            rest.add(x);
        }

        int[] seen = new int[13];
        for (Log l : new Log[] {c, d, rest}) {
            for (int i = 0; i < l.n; i++) {
                int v = l.values[i];
                if (v != 1 && v != 2 && v != 3 && v != 11 && v != 12) {
                    fail("unexpected value " + v, c, d, rest);
                }
                seen[v]++;
            }
            int lastA = 0;
            int lastB = 0;
            for (int i = 0; i < l.n; i++) {
                int v = l.values[i];
                if (v < 10) {
                    if (v < lastA) {
                        fail("producer A's values out of order for one consumer", c, d, rest);
                    }
                    lastA = v;
                } else {
                    if (v < lastB) {
                        fail("producer B's values out of order for one consumer", c, d, rest);
                    }
                    lastB = v;
                }
            }
        }
        for (int v : new int[] {1, 2, 3, 11, 12}) {
            if (seen[v] != 1) {
                fail("value " + v + " taken " + seen[v] + " times; C, D, rest:", c, d, rest);
            }
        }
        if (batchSize[0] > 3) {
            fail("batch larger than its max", c);
        }
    }
}
