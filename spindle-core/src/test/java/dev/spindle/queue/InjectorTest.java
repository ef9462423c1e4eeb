package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Single-threaded contract tests for {@link Injector}. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class InjectorTest {

    private static final int SEG = Injector.SEGMENT_SIZE;

    private static List<Integer> stealAll(WorkStealingDeque<Integer> d) {
        List<Integer> out = new ArrayList<>();
        for (Integer x; (x = d.stealOrNull()) != null; ) {
            out.add(x);
        }
        return out;
    }

    @Test
    void emptyInjector() {
        Injector<Integer> q = new Injector<>();
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.size()).isZero();
        assertThat(q.poll()).isNull();
        assertThat(q.pollBatch(new WorkStealingDeque<>(), 8)).isNull();
        assertThat(q.drain(x -> { throw new AssertionError("drained " + x); })).isZero();
        assertThat(q.toString()).contains("0");
    }

    @ParameterizedTest(name = "{0} elements")
    @ValueSource(ints = {1, SEG - 1, SEG, SEG + 1, 3 * SEG + 17, 5 * SEG})
    void fifoAcrossSegments(int n) {
        Injector<Integer> q = new Injector<>();
        for (int i = 0; i < n; i++) {
            q.offer(i);
            assertThat(q.size()).isEqualTo(i + 1);
        }
        assertThat(q.isEmpty()).isFalse();
        for (int i = 0; i < n; i++) {
            assertThat(q.poll()).isEqualTo(i);
            assertThat(q.size()).isEqualTo(n - i - 1);
            assertThat(q.isEmpty()).isEqualTo(i == n - 1);
        }
        assertThat(q.poll()).isNull();
        assertThat(q.isEmpty()).isTrue();
    }

    @Test
    void interleavedOfferAndPollAcrossSegments() {
        // Keep a window of about 700 elements while streaming 4 segments' worth through.
        Injector<Integer> q = new Injector<>();
        int offered = 0;
        int polled = 0;
        while (offered < 4 * SEG + 300) {
            for (int k = 0; k < 3; k++) {
                q.offer(offered++);
            }
            if (offered > 700) {
                for (int k = 0; k < 2; k++) {
                    assertThat(q.poll()).isEqualTo(polled++);
                }
            }
            assertThat(q.size()).isEqualTo(offered - polled);
            assertThat(q.isEmpty()).isFalse();
        }
        while (polled < offered) {
            assertThat(q.poll()).isEqualTo(polled++);
        }
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.size()).isZero();
        // Still usable after being emptied mid-segment.
        q.offer(-1);
        assertThat(q.size()).isEqualTo(1);
        assertThat(q.poll()).isEqualTo(-1);
    }

    @Test
    void emptiedAtSegmentBoundaryThenRefilled() {
        Injector<Integer> q = new Injector<>();
        for (int i = 0; i < SEG; i++) {
            q.offer(i);
        }
        for (int i = 0; i < SEG; i++) {
            assertThat(q.poll()).isEqualTo(i);
        }
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.size()).isZero();
        assertThat(q.poll()).isNull();
        q.offer(SEG);                         // goes into a fresh segment
        assertThat(q.isEmpty()).isFalse();
        assertThat(q.size()).isEqualTo(1);
        assertThat(q.poll()).isEqualTo(SEG);
        assertThat(q.poll()).isNull();
        assertThat(q.isEmpty()).isTrue();
    }

    // ---------------------------------------------------------------- pollBatch

    @ParameterizedTest(name = "queued={0} max={1} destFree={2} -> takes {3}")
    @CsvSource({
        // queued, max, free slots in dest, expected number taken
        "10, 4, 16, 4",
        "3, 8, 16, 3",
        "10, 1, 16, 1",
        "10, 8, 3, 4",    // the returned element needs no room in dest
        "10, 8, 0, 1",
        "20, 16, 16, 16",
    })
    void pollBatchRespectsMaxAndDestCapacityAndOrder(int queued, int max, int destFree, int expected) {
        Injector<Integer> q = new Injector<>();
        for (int i = 0; i < queued; i++) {
            q.offer(i);
        }
        WorkStealingDeque<Integer> dest = new WorkStealingDeque<>(2, 16);
        for (int i = 0; i < 16 - destFree; i++) {
            dest.push(-1 - i);
        }
        assertThat(q.pollBatch(dest, max)).isEqualTo(0);
        assertThat(dest.size()).isEqualTo(16 - destFree + expected - 1);
        assertThat(q.size()).isEqualTo(queued - expected);
        // The rest arrive in dest oldest first, above what it already held.
        List<Integer> inDest = stealAll(dest);
        List<Integer> want = new ArrayList<>();
        for (int i = 0; i < 16 - destFree; i++) {
            want.add(-1 - i);
        }
        for (int i = 1; i < expected; i++) {
            want.add(i);
        }
        assertThat(inDest).containsExactlyElementsOf(want);
        for (int i = expected; i < queued; i++) {
            assertThat(q.poll()).isEqualTo(i);
        }
        assertThat(q.isEmpty()).isTrue();
    }

    @Test
    void pollBatchStopsAtSegmentEndAndContinuesInTheNext() {
        Injector<Integer> q = new Injector<>();
        for (int i = 0; i < SEG + 10; i++) {
            q.offer(i);
        }
        for (int i = 0; i < SEG - 3; i++) {
            q.poll();
        }
        WorkStealingDeque<Integer> dest = new WorkStealingDeque<>();
        List<Integer> got = new ArrayList<>();
        while (true) {
            Integer first = q.pollBatch(dest, 8);
            if (first == null) {
                break;
            }
            got.add(first);
            got.addAll(stealAll(dest));
            assertThat(q.size()).isEqualTo(SEG + 10 - (SEG - 3) - got.size());
        }
        List<Integer> want = new ArrayList<>();
        for (int i = SEG - 3; i < SEG + 10; i++) {
            want.add(i);
        }
        assertThat(got).containsExactlyElementsOf(want);
        assertThat(q.isEmpty()).isTrue();
    }

    @Test
    void pollBatchRejectsBadArguments() {
        Injector<Integer> q = new Injector<>();
        q.offer(1);
        assertThatThrownBy(() -> q.pollBatch(new WorkStealingDeque<>(), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max");
        assertThatNullPointerException().isThrownBy(() -> q.pollBatch((WorkStealingDeque<Integer>) null, 4));
        assertThatNullPointerException().isThrownBy(() -> q.pollBatch((OwnerFifo<Integer>) null, 4));
        assertThat(q.size()).isEqualTo(1);
        assertThat(q.poll()).isEqualTo(1);
    }

    // ---------------------------------------------------------------- pollShare

    @ParameterizedTest(name = "queued={0} consumers={1} destCapacity={2} -> takes {3}")
    @CsvSource({
        // queued, consumers, dest's max capacity, expected number taken
        "10, 2, 64, 5",     // half
        "11, 2, 64, 6",     // rounded up
        "10, 3, 64, 4",
        "1, 8, 64, 1",      // at least one
        "10, 1, 64, 10",    // a single consumer takes everything its deque can hold
        "100, 1, 16, 8",    // but no more than half the deque's capacity
        "100, 2, 16, 8",
    })
    void pollShareTakesAFairShareOfTheOldest(int queued, int consumers, int destCapacity, int expected) {
        Injector<Integer> q = new Injector<>();
        for (int i = 0; i < queued; i++) {
            q.offer(i);
        }
        WorkStealingDeque<Integer> dest = new WorkStealingDeque<>(2, destCapacity);
        assertThat(q.pollShare(dest, consumers)).isEqualTo(0);
        List<Integer> want = new ArrayList<>();
        for (int i = 1; i < expected; i++) {
            want.add(i);
        }
        assertThat(stealAll(dest)).containsExactlyElementsOf(want);  // a run, oldest first
        assertThat(q.size()).isEqualTo(queued - expected);
        assertThat(q.poll()).isEqualTo(queued == expected ? null : expected);
    }

    @Test
    void pollShareOfAnEmptyQueueTakesNothing() {
        Injector<Integer> q = new Injector<>();
        WorkStealingDeque<Integer> dest = new WorkStealingDeque<>();
        assertThat(q.pollShare(dest, 2)).isNull();
        assertThat(dest.isEmpty()).isTrue();
    }

    @Test
    void pollShareRejectsBadArguments() {
        Injector<Integer> q = new Injector<>();
        q.offer(1);
        assertThatThrownBy(() -> q.pollShare(new WorkStealingDeque<>(), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("consumers");
        assertThatNullPointerException().isThrownBy(() -> q.pollShare((WorkStealingDeque<Integer>) null, 2))
                .withMessageContaining("dest");
        assertThatThrownBy(() -> q.pollShare(new OwnerFifo<>(4), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("consumers");
        assertThatNullPointerException().isThrownBy(() -> q.pollShare((OwnerFifo<Integer>) null, 2))
                .withMessageContaining("dest");
        assertThatThrownBy(() -> q.pollBatch(new OwnerFifo<>(4), 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max");
        assertThat(q.poll()).isEqualTo(1);
    }

    @ParameterizedTest(name = "queued={0} consumers={1} fifoCapacity={2} -> takes {3}")
    @CsvSource({
        "10, 2, 64, 5",
        "11, 2, 64, 6",
        "1, 8, 64, 1",
        "10, 1, 64, 10",
        "100, 1, 16, 8",    // no more than half the queue's capacity
    })
    void pollShareIntoAnOwnerFifoKeepsTheRunInOrder(int queued, int consumers, int capacity, int expected) {
        Injector<Integer> q = new Injector<>();
        for (int i = 0; i < queued; i++) {
            q.offer(i);
        }
        OwnerFifo<Integer> dest = new OwnerFifo<>(capacity);
        assertThat(q.pollShare(dest, consumers)).isEqualTo(0);
        for (int i = 1; i < expected; i++) {
            assertThat(dest.poll()).isEqualTo(i);  // oldest first: FIFO, unlike the deque's pop
        }
        assertThat(dest.poll()).isNull();
        assertThat(q.size()).isEqualTo(queued - expected);
    }

    @Test
    void pollBatchIntoAnOwnerFifoTakesNoMoreThanItsRoom() {
        Injector<Integer> q = new Injector<>();
        for (int i = 0; i < 10; i++) {
            q.offer(i);
        }
        OwnerFifo<Integer> dest = new OwnerFifo<>(4);
        dest.offer(-1);
        dest.offer(-2);
        assertThat(dest.remainingCapacity()).isEqualTo(2);
        assertThat(q.pollBatch(dest, 8)).isEqualTo(0);    // the returned one needs no room
        assertThat(dest.remainingCapacity()).isZero();
        assertThat(List.of(dest.poll(), dest.poll(), dest.poll(), dest.poll())).containsExactly(-1, -2, 1, 2);
        assertThat(q.poll()).isEqualTo(3);
    }

    // ---------------------------------------------------------------- drain, nulls, GC

    @Test
    void drainRemovesEverythingInOrder() {
        Injector<Integer> q = new Injector<>();
        int n = 2 * SEG + 5;
        for (int i = 0; i < n; i++) {
            q.offer(i);
        }
        q.poll();
        List<Integer> drained = new ArrayList<>();
        assertThat(q.drain(drained::add)).isEqualTo(n - 1);
        assertThat(drained).hasSize(n - 1);
        for (int i = 0; i < n - 1; i++) {
            assertThat(drained.get(i)).isEqualTo(i + 1);
        }
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.size()).isZero();
        assertThat(q.drain(drained::add)).isZero();
    }

    @Test
    void nullsAreRejected() {
        Injector<Integer> q = new Injector<>();
        assertThatNullPointerException().isThrownBy(() -> q.offer(null));
        assertThatNullPointerException().isThrownBy(() -> q.drain(null));
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.size()).isZero();
    }

    private static WeakReference<Object> offerAndPoll(Injector<Object> q) {
        q.offer(new Object());
        return new WeakReference<>(q.poll());
    }

    @Test
    void polledElementIsNotRetained() throws InterruptedException {
        Injector<Object> q = new Injector<>();
        q.offer("stays");
        q.poll();
        WeakReference<Object> ref = offerAndPoll(q);
        q.offer("keeps the segment alive");
        assertThat(Gc.collected(ref)).as("polled element collected").isTrue();
        assertThat(q.poll()).isEqualTo("keeps the segment alive");
    }
}
