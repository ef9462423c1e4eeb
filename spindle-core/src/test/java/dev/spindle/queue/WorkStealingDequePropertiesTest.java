package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Random single-threaded operation sequences on a {@link WorkStealingDeque}, checked step by step
 * against an {@link ArrayDeque} model whose last element is the owner's end (bottom) and whose
 * first element is the thieves' end (top). Small maximum capacities make the full path common.
 */
class WorkStealingDequePropertiesTest {

    sealed interface Op permits Push, Offer, Pop, Steal, StealOrNull, StealBatch {}

    record Push() implements Op {}

    record Offer() implements Op {}

    record Pop() implements Op {}

    record Steal() implements Op {}

    record StealOrNull() implements Op {}

    /** Batch steal into a fresh destination of capacity {@code destMax} already holding {@code destFill}. */
    record StealBatch(int limit, int destMax, int destFill) implements Op {}

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> batch = Combinators.combine(
                        Arbitraries.integers().between(1, 10),
                        Arbitraries.of(2, 4, 8),
                        Arbitraries.integers().between(0, 8))
                .as((limit, destMax, fill) -> new StealBatch(limit, destMax, Math.min(fill, destMax)));
        Arbitrary<Op> op = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.just(new Push())),
                net.jqwik.api.Tuple.of(4, Arbitraries.just(new Offer())),
                net.jqwik.api.Tuple.of(4, Arbitraries.just(new Pop())),
                net.jqwik.api.Tuple.of(3, Arbitraries.just(new Steal())),
                net.jqwik.api.Tuple.of(2, Arbitraries.just(new StealOrNull())),
                net.jqwik.api.Tuple.of(2, batch));
        return op.list().ofMinSize(1).ofMaxSize(200);
    }

    @Property(tries = 400)
    void matchesArrayDequeModel(
            @ForAll @IntRange(min = 1, max = 5) int initialLog,
            @ForAll @IntRange(min = 1, max = 5) int extraLog,
            @ForAll("ops") @Size(min = 1) List<Op> ops) {
        int initial = 1 << initialLog;
        int max = initial << (extraLog - 1);
        WorkStealingDeque<Integer> deque = new WorkStealingDeque<>(initial, max);
        assertThat(deque.maxCapacity()).isEqualTo(max);
        ArrayDeque<Integer> model = new ArrayDeque<>();
        long stolen = 0;
        int next = 0;

        for (Op op : ops) {
            if (op instanceof Push) {
                int v = next++;
                if (model.size() == max) {
                    assertThatThrownBy(() -> deque.push(v)).isInstanceOf(IllegalStateException.class);
                } else {
                    deque.push(v);
                    model.addLast(v);
                }
            } else if (op instanceof Offer) {
                int v = next++;
                boolean room = model.size() < max;
                assertThat(deque.offer(v)).as("offer with %d of %d", model.size(), max).isEqualTo(room);
                if (room) {
                    model.addLast(v);
                }
            } else if (op instanceof Pop) {
                assertThat(deque.pop()).isEqualTo(model.pollLast());
            } else if (op instanceof Steal) {
                StealResult<Integer> r = deque.steal();
                Integer expected = model.pollFirst();
                assertThat(r.isRetry()).as("retry without contention").isFalse();
                assertThat(r.isEmpty()).isEqualTo(expected == null);
                assertThat(r.valueOrNull()).isEqualTo(expected);
                if (expected != null) {
                    stolen++;
                }
            } else if (op instanceof StealOrNull) {
                Integer expected = model.pollFirst();
                assertThat(deque.stealOrNull()).isEqualTo(expected);
                if (expected != null) {
                    stolen++;
                }
            } else if (op instanceof StealBatch b) {
                WorkStealingDeque<Integer> dest = new WorkStealingDeque<>(2, b.destMax());
                for (int i = 0; i < b.destFill(); i++) {
                    dest.push(-1 - i);
                }
                int n = model.size();
                int take = Math.min(Math.min((n + 1) / 2, b.limit()), 1 + b.destMax() - b.destFill());
                StealResult<Integer> r = deque.stealBatch(dest, b.limit());
                assertThat(r.isRetry()).as("retry without contention").isFalse();
                if (n == 0) {
                    assertThat(r.isEmpty()).isTrue();
                    assertThat(dest.size()).isEqualTo(b.destFill());
                } else {
                    List<Integer> expected = new ArrayList<>();
                    for (int i = 0; i < take; i++) {
                        expected.add(model.pollFirst());
                    }
                    stolen += take;
                    List<Integer> got = new ArrayList<>();
                    got.add(r.value());
                    List<Integer> destContents = new ArrayList<>();
                    for (Integer x; (x = dest.stealOrNull()) != null; ) {
                        destContents.add(x);
                    }
                    assertThat(destContents.subList(0, b.destFill())).allMatch(x -> x < 0);
                    got.addAll(destContents.subList(b.destFill(), destContents.size()));
                    assertThat(got).as("batch of %d from %d, limit %d", take, n, b.limit())
                            .containsExactlyElementsOf(expected);
                }
            }
            assertThat(deque.size()).isEqualTo(model.size());
            assertThat(deque.isEmpty()).isEqualTo(model.isEmpty());
            assertThat(deque.peekBottom()).isEqualTo(model.peekLast());
            assertThat(deque.stolenCount()).isEqualTo(stolen);
        }

        // Whatever is left comes out newest first from the owner's end.
        List<Integer> rest = new ArrayList<>();
        for (Integer x; (x = deque.pop()) != null; ) {
            rest.add(x);
        }
        List<Integer> expectedRest = new ArrayList<>(model);
        java.util.Collections.reverse(expectedRest);
        assertThat(rest).containsExactlyElementsOf(expectedRest);
    }
}
