package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * Random single-threaded operation sequences on an {@link Injector}, checked step by step against
 * an {@link ArrayDeque} FIFO model. Bulk offers and polls move the window across segment
 * boundaries ({@value Injector#SEGMENT_SIZE} slots each).
 */
class InjectorPropertiesTest {

    sealed interface Op permits Offer, OfferMany, Poll, PollMany, PollBatch, Drain {}

    record Offer() implements Op {}

    record OfferMany(int count) implements Op {}

    record Poll() implements Op {}

    record PollMany(int count) implements Op {}

    /** Batch poll into a fresh destination of capacity {@code destMax} already holding {@code destFill}. */
    record PollBatch(int max, int destMax, int destFill) implements Op {}

    record Drain() implements Op {}

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> batch = Combinators.combine(
                        Arbitraries.integers().between(1, 40),
                        Arbitraries.of(2, 8, 64),
                        Arbitraries.integers().between(0, 64))
                .as((max, destMax, fill) -> new PollBatch(max, destMax, Math.min(fill, destMax)));
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.just(new Offer())),
                Tuple.of(2, Arbitraries.integers().between(1, 1500).map(OfferMany::new)),
                Tuple.of(5, Arbitraries.just(new Poll())),
                Tuple.of(2, Arbitraries.integers().between(1, 1500).map(PollMany::new)),
                Tuple.of(4, batch),
                Tuple.of(1, Arbitraries.just(new Drain())));
        return op.list().ofMinSize(1).ofMaxSize(60);
    }

    @Property(tries = 300)
    void matchesFifoModel(@ForAll("ops") List<Op> ops) {
        Injector<Integer> q = new Injector<>();
        ArrayDeque<Integer> model = new ArrayDeque<>();
        int next = 0;
        long taken = 0;
        for (Op op : ops) {
            if (op instanceof Offer) {
                q.offer(next);
                model.addLast(next++);
            } else if (op instanceof OfferMany m) {
                for (int i = 0; i < m.count(); i++) {
                    q.offer(next);
                    model.addLast(next++);
                }
            } else if (op instanceof Poll) {
                Integer expected = model.pollFirst();
                assertThat(q.poll()).isEqualTo(expected);
                taken += expected == null ? 0 : 1;
            } else if (op instanceof PollMany m) {
                for (int i = 0; i < m.count(); i++) {
                    Integer expected = model.pollFirst();
                    assertThat(q.poll()).isEqualTo(expected);
                    taken += expected == null ? 0 : 1;
                }
            } else if (op instanceof PollBatch b) {
                WorkStealingDeque<Integer> dest = new WorkStealingDeque<>(2, b.destMax());
                for (int i = 0; i < b.destFill(); i++) {
                    dest.push(-1 - i);
                }
                // Without contention a batch takes min(queued, max, 1 + room in dest) but stops at
                // the end of the head segment; global slot index == number of elements taken.
                int inSegment = Injector.SEGMENT_SIZE - (int) (taken % Injector.SEGMENT_SIZE);
                int take = Math.min(Math.min(model.size(), inSegment),
                        Math.min(b.max(), 1 + b.destMax() - b.destFill()));
                Integer first = q.pollBatch(dest, b.max());
                if (model.isEmpty()) {
                    assertThat(first).isNull();
                    assertThat(dest.size()).isEqualTo(b.destFill());
                } else {
                    List<Integer> got = new ArrayList<>();
                    got.add(first);
                    List<Integer> destContents = new ArrayList<>();
                    for (Integer x; (x = dest.stealOrNull()) != null; ) {
                        destContents.add(x);
                    }
                    assertThat(destContents.subList(0, b.destFill())).allMatch(x -> x < 0);
                    got.addAll(destContents.subList(b.destFill(), destContents.size()));
                    List<Integer> expected = new ArrayList<>();
                    for (int i = 0; i < take; i++) {
                        expected.add(model.pollFirst());
                    }
                    taken += take;
                    assertThat(got).containsExactlyElementsOf(expected);
                }
            } else if (op instanceof Drain) {
                List<Integer> drained = new ArrayList<>();
                assertThat(q.drain(drained::add)).isEqualTo(model.size());
                taken += model.size();
                assertThat(drained).containsExactlyElementsOf(model);
                model.clear();
            }
            assertThat(q.size()).isEqualTo(model.size());
            assertThat(q.isEmpty()).isEqualTo(model.isEmpty());
        }
        List<Integer> rest = new ArrayList<>();
        q.drain(rest::add);
        assertThat(rest).containsExactlyElementsOf(model);
    }
}
