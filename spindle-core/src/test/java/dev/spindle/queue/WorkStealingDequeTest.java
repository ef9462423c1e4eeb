package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Single-threaded contract tests for {@link WorkStealingDeque}. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WorkStealingDequeTest {

    private static WorkStealingDeque<Integer> dequeOf(int initial, int max, int... values) {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(initial, max);
        for (int v : values) {
            d.push(v);
        }
        return d;
    }

    private static List<Integer> popAll(WorkStealingDeque<Integer> d) {
        List<Integer> out = new ArrayList<>();
        for (Integer x; (x = d.pop()) != null; ) {
            out.add(x);
        }
        return out;
    }

    private static List<Integer> stealAll(WorkStealingDeque<Integer> d) {
        List<Integer> out = new ArrayList<>();
        for (;;) {
            StealResult<Integer> r = d.steal();
            assertThat(r.isRetry()).as("retry without contention").isFalse();
            if (r.isEmpty()) {
                return out;
            }
            out.add(r.value());
        }
    }

    // ---------------------------------------------------------------- order (property W3)

    @Test
    void holdsWhatIsQueuedAndNothingTakenOrStolen() {
        Integer[] v = new Integer[200];
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(4, 256);
        for (int i = 0; i < v.length; i++) {
            v[i] = Integer.valueOf(1000 + i);      // distinct objects, compared by identity
            d.push(v[i]);                          // grows the ring on the way
        }
        assertThat(d.holds(v[0])).isTrue();
        assertThat(d.holds(v[199])).isTrue();
        assertThat(d.holds(Integer.valueOf(5000))).isFalse();
        assertThat(d.steal().value()).isSameAs(v[0]);
        assertThat(d.holds(v[0])).as("stolen").isFalse();
        assertThat(d.pop()).isSameAs(v[199]);
        assertThat(d.holds(v[199])).as("popped").isFalse();
        assertThat(d.holds(v[100])).isTrue();
    }

    /**
     * "A young ring": the owner moves its elements into a new ring of the same size every
     * {@link WorkStealingDeque#RENEW_INTERVAL}th push that reads top afresh (so that G1's write
     * barrier finds the ring young), their order kept for the owner and for thieves. Here each
     * push lands on index 64, a multiple of the clearing lag, so each reads top afresh.
     */
    @Test
    void renewsItsRingEveryRenewIntervalFreshReadsKeepingItsElements() {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(128, 1024);
        for (int i = 0; i < 64; i++) {
            d.push(i);
        }
        Object[] first = d.ring;
        for (int i = 0; i < WorkStealingDeque.RENEW_INTERVAL; i++) {
            d.push(1000 + i);
            assertThat(d.pop()).isEqualTo(1000 + i);
        }
        assertThat(d.ring).as("renewed").isNotSameAs(first).hasSameSizeAs(first);
        assertThat(d.size()).isEqualTo(64);
        assertThat(d.steal().valueOrNull()).isEqualTo(0);
        for (int i = 63; i >= 1; i--) {
            assertThat(d.pop()).isEqualTo(i);
        }
        assertThat(d.pop()).isNull();
    }

    @Test
    void ownerPopsNewestFirst() {
        WorkStealingDeque<Integer> d = dequeOf(4, 64, 1, 2, 3, 4, 5);
        assertThat(d.peekBottom()).isEqualTo(5);
        assertThat(popAll(d)).containsExactly(5, 4, 3, 2, 1);
        assertThat(d.pop()).isNull();
        assertThat(d.peekBottom()).isNull();
        assertThat(d.isEmpty()).isTrue();
    }

    @Test
    void thievesStealOldestFirst() {
        WorkStealingDeque<Integer> d = dequeOf(4, 64, 1, 2, 3, 4, 5);
        assertThat(stealAll(d)).containsExactly(1, 2, 3, 4, 5);
        assertThat(d.steal().isEmpty()).isTrue();
        assertThat(d.stealOrNull()).isNull();
    }

    @Test
    void ownerAndThiefMeetInTheMiddle() {
        WorkStealingDeque<Integer> d = dequeOf(2, 64, 1, 2, 3, 4, 5, 6);
        assertThat(d.stealOrNull()).isEqualTo(1);
        assertThat(d.pop()).isEqualTo(6);
        assertThat(d.steal().value()).isEqualTo(2);
        assertThat(d.pop()).isEqualTo(5);
        d.push(7);
        assertThat(d.stealOrNull()).isEqualTo(3);
        assertThat(d.pop()).isEqualTo(7);
        assertThat(d.pop()).isEqualTo(4);
        assertThat(d.pop()).isNull();
        assertThat(d.steal().isEmpty()).isTrue();
        // The deque is usable again after being emptied from both ends.
        d.push(8);
        assertThat(d.size()).isEqualTo(1);
        assertThat(d.stealOrNull()).isEqualTo(8);
        assertThat(d.isEmpty()).isTrue();
    }

    @Test
    void growthPastInitialCapacityKeepsOrder() {
        // Start tiny, with the window [top, bottom) wrapped around the ring before each growth.
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(2, 1 << 12);
        int next = 0;
        List<Integer> stolen = new ArrayList<>();
        for (int round = 0; round < 10; round++) {
            d.push(next++);
            d.push(next++);
            stolen.add(d.stealOrNull());       // top moves so the live window wraps the ring
        }
        for (int i = 0; i < 1000; i++) {
            d.push(next++);
        }
        assertThat(d.size()).isEqualTo(next - stolen.size());
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < next; i++) {
            expected.add(i);
        }
        List<Integer> all = new ArrayList<>(stolen);
        List<Integer> stealHalf = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            stealHalf.add(d.stealOrNull());
        }
        all.addAll(stealHalf);
        List<Integer> rest = popAll(d);
        java.util.Collections.reverse(rest);
        all.addAll(rest);
        assertThat(stolen).isSorted();
        assertThat(all).containsExactlyElementsOf(expected);
    }

    // ---------------------------------------------------------------- capacity

    @Test
    void offerReturnsFalseAtMaxCapacityAndLeavesContentsUnchanged() {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(2, 8);
        assertThat(d.maxCapacity()).isEqualTo(8);
        for (int i = 0; i < 8; i++) {
            assertThat(d.offer(i)).as("offer %d", i).isTrue();
        }
        assertThat(d.offer(99)).isFalse();
        assertThat(d.offer(100)).isFalse();
        assertThat(d.size()).isEqualTo(8);
        assertThat(d.peekBottom()).isEqualTo(7);
        // Room again once one element is gone, from either end.
        assertThat(d.stealOrNull()).isEqualTo(0);
        assertThat(d.offer(8)).isTrue();
        assertThat(d.offer(9)).isFalse();
        assertThat(stealAll(d)).containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
    }

    @Test
    void pushThrowsWhenFullAndLeavesContentsUnchanged() {
        WorkStealingDeque<Integer> d = dequeOf(2, 4, 1, 2, 3, 4);
        assertThatThrownBy(() -> d.push(5))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("4");
        assertThat(popAll(d)).containsExactly(4, 3, 2, 1);
    }

    @Test
    void capacitiesAreRoundedUpToPowersOfTwo() {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(3, 5);
        assertThat(d.maxCapacity()).isEqualTo(8);
        for (int i = 0; i < 8; i++) {
            d.push(i);
        }
        assertThat(d.offer(8)).isFalse();
        assertThat(new WorkStealingDeque<Integer>().maxCapacity()).isEqualTo(WorkStealingDeque.MAX_CAPACITY);
    }

    @ParameterizedTest(name = "new WorkStealingDeque({0}, {1}) names {2}")
    @CsvSource({
        "1, 16, initialCapacity",
        "0, 16, initialCapacity",
        "-4, 16, initialCapacity",
        "1073741825, 1073741824, initialCapacity",
        "2, 1, maxCapacity",
        "2, -1, maxCapacity",
        "2, 1073741825, maxCapacity",
        "32, 16, initialCapacity",
    })
    void constructorRejectsBadCapacities(int initial, int max, String parameter) {
        assertThatThrownBy(() -> new WorkStealingDeque<Integer>(initial, max))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(parameter)
                .hasMessageContaining(String.valueOf(parameter.equals("initialCapacity") ? initial : max));
    }

    @Test
    void constructorAcceptsBoundaryCapacities() {
        assertThat(new WorkStealingDeque<Integer>(2, 2).maxCapacity()).isEqualTo(2);
        assertThat(new WorkStealingDeque<Integer>(16, 16).maxCapacity()).isEqualTo(16);
        assertThat(new WorkStealingDeque<Integer>(2, WorkStealingDeque.MAX_CAPACITY).maxCapacity())
                .isEqualTo(WorkStealingDeque.MAX_CAPACITY);
    }

    @Test
    void nullsAreRejected() {
        WorkStealingDeque<Integer> d = dequeOf(2, 8, 1);
        assertThatNullPointerException().isThrownBy(() -> d.push(null));
        assertThatNullPointerException().isThrownBy(() -> d.offer(null));
        assertThat(popAll(d)).containsExactly(1);
    }

    // ---------------------------------------------------------------- steal results

    @Test
    void stealResultKinds() {
        WorkStealingDeque<Integer> d = dequeOf(2, 8, 42);
        StealResult<Integer> empty = new WorkStealingDeque<Integer>().steal();
        assertThat(empty.isEmpty()).isTrue();
        assertThat(empty.isSuccess()).isFalse();
        assertThat(empty.isRetry()).isFalse();
        assertThat(empty.valueOrNull()).isNull();
        assertThatThrownBy(empty::value).isInstanceOf(NoSuchElementException.class);

        StealResult<Integer> ok = d.steal();
        assertThat(ok.isSuccess()).isTrue();
        assertThat(ok.isEmpty()).isFalse();
        assertThat(ok.isRetry()).isFalse();
        assertThat(ok.value()).isEqualTo(42);
        assertThat(ok.valueOrNull()).isEqualTo(42);

        StealResult<Integer> retry = StealResult.retry();
        assertThat(retry.isRetry()).isTrue();
        assertThat(retry.isEmpty()).isFalse();
        assertThatThrownBy(retry::value).isInstanceOf(NoSuchElementException.class);
    }

    // ---------------------------------------------------------------- batch steals

    @ParameterizedTest(name = "size={0} limit={1} destFree={2} -> takes {3}")
    @CsvSource({
        // size, limit, dest free slots, expected number taken (half rounded up, capped)
        "1, 8, 8, 1",
        "2, 8, 8, 1",
        "3, 8, 8, 2",
        "10, 8, 8, 5",
        "11, 8, 8, 6",
        "20, 4, 8, 4",
        "20, 1, 8, 1",
        "20, 8, 2, 3",   // the returned element needs no room in dest
        "20, 8, 0, 1",
    })
    void stealBatchTakesAboutHalfOldestFirst(int size, int limit, int destFree, int expected) {
        WorkStealingDeque<Integer> victim = new WorkStealingDeque<>(2, 64);
        for (int i = 0; i < size; i++) {
            victim.push(i);
        }
        WorkStealingDeque<Integer> dest = new WorkStealingDeque<>(2, 8);
        for (int i = 0; i < 8 - destFree; i++) {
            dest.push(-1 - i);
        }
        StealResult<Integer> r = victim.stealBatch(dest, limit);

        assertThat(r.isSuccess()).isTrue();
        assertThat(r.value()).isEqualTo(0);
        assertThat(victim.size()).isEqualTo(size - expected);
        assertThat(dest.size()).isEqualTo(8 - destFree + expected - 1);
        assertThat(victim.stolenCount()).isEqualTo(expected);
        // dest got 1 .. expected-1 pushed oldest first, above what it already held.
        List<Integer> moved = new ArrayList<>();
        for (int i = 0; i < expected - 1; i++) {
            moved.add(dest.pop());
        }
        List<Integer> want = new ArrayList<>();
        for (int i = expected - 1; i >= 1; i--) {
            want.add(i);
        }
        assertThat(moved).containsExactlyElementsOf(want);
        // The victim keeps the rest, still in order.
        List<Integer> left = stealAll(victim);
        assertThat(left).hasSize(size - expected);
        for (int i = 0; i < left.size(); i++) {
            assertThat(left.get(i)).isEqualTo(expected + i);
        }
    }

    @Test
    void stealBatchOnEmptyDeque() {
        WorkStealingDeque<Integer> victim = new WorkStealingDeque<>();
        WorkStealingDeque<Integer> dest = new WorkStealingDeque<>();
        assertThat(victim.stealBatch(dest, 4).isEmpty()).isTrue();
        assertThat(victim.stealBatchOrNull(dest, 4)).isNull();
        assertThat(dest.isEmpty()).isTrue();
        victim.push(1);
        victim.pop();
        assertThat(victim.stealBatch(dest, 4).isEmpty()).isTrue();
    }

    @Test
    void stealBatchOrNullReturnsOldestAndMovesTheRest() {
        WorkStealingDeque<Integer> victim = dequeOf(2, 64, 10, 11, 12, 13, 14, 15, 16, 17);
        WorkStealingDeque<Integer> dest = new WorkStealingDeque<>();
        assertThat(victim.stealBatchOrNull(dest, 3)).isEqualTo(10);
        assertThat(stealAll(dest)).containsExactly(11, 12);
        assertThat(stealAll(victim)).containsExactly(13, 14, 15, 16, 17);
    }

    @Test
    void stealBatchRejectsBadArguments() {
        WorkStealingDeque<Integer> d = dequeOf(2, 8, 1, 2);
        WorkStealingDeque<Integer> dest = new WorkStealingDeque<>();
        assertThatThrownBy(() -> d.stealBatch(dest, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
        assertThatThrownBy(() -> d.stealBatchOrNull(dest, -1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("limit");
        assertThatThrownBy(() -> d.stealBatch(d, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThat(d.size()).isEqualTo(2);
        assertThat(dest.isEmpty()).isTrue();
    }

    // ---------------------------------------------------------------- stolenCount

    @Test
    void stolenCountCountsThiefTakesOnly() {
        WorkStealingDeque<Integer> d = dequeOf(2, 64, 1, 2, 3, 4, 5, 6, 7, 8);
        assertThat(d.stolenCount()).isZero();
        d.stealOrNull();
        d.steal();
        assertThat(d.stolenCount()).isEqualTo(2);
        d.stealBatch(new WorkStealingDeque<>(), 2);        // takes 2 (of 6)
        assertThat(d.stolenCount()).isEqualTo(4);
        assertThat(d.pop()).isEqualTo(8);
        assertThat(d.pop()).isEqualTo(7);
        assertThat(d.pop()).isEqualTo(6);
        // The last element is taken by the owner through a CAS on top; still not a steal.
        assertThat(d.pop()).isEqualTo(5);
        assertThat(d.pop()).isNull();
        assertThat(d.stolenCount()).isEqualTo(4);
        d.push(9);
        assertThat(d.pop()).isEqualTo(9);
        d.push(10);
        d.stealOrNull();
        assertThat(d.stolenCount()).isEqualTo(5);
        d.stealOrNull();                                     // empty: no change
        assertThat(d.stolenCount()).isEqualTo(5);
    }

    // ---------------------------------------------------------------- garbage collection

    /** Boxes a fresh object so that nothing else can keep it reachable. */
    private static final class Payload {
        final int id;

        Payload(int id) {
            this.id = id;
        }
    }


    private static WeakReference<Payload> pushAndPop(WorkStealingDeque<Payload> d) {
        d.push(new Payload(2));
        Payload p = d.pop();
        assertThat(p.id).isEqualTo(2);
        return new WeakReference<>(p);
    }

    private static WeakReference<Payload> steal(WorkStealingDeque<Payload> d) {
        Payload p = d.steal().value();
        return new WeakReference<>(p);
    }

    @Test
    void poppedElementIsNotRetained() throws InterruptedException {
        WorkStealingDeque<Payload> d = new WorkStealingDeque<>(4, 16);
        d.push(new Payload(1));
        WeakReference<Payload> popped = pushAndPop(d);
        assertThat(Gc.collected(popped)).as("popped element collected").isTrue();
        assertThat(d.size()).isEqualTo(1);
        assertThat(d.peekBottom().id).isEqualTo(1);
    }

    @Test
    void stolenElementIsNotRetainedAfterThePushIntoTheEmptiedDeque() throws InterruptedException {
        WorkStealingDeque<Payload> d = new WorkStealingDeque<>(4, 16);
        d.push(new Payload(1));
        d.push(new Payload(2));
        WeakReference<Payload> stolen = steal(d);
        assertThat(stolen.get().id).isEqualTo(1);
        assertThat(d.pop().id).isEqualTo(2);
        d.push(new Payload(3));                 // empty: the owner clears every stolen slot here
        assertThat(Gc.collected(stolen)).as("stolen element collected").isTrue();
        assertThat(d.size()).isEqualTo(1);
    }

    @Test
    void stolenElementIsNotRetainedOnceThievesAreTheClearLagPastItWithinClearLagPushes() throws InterruptedException {
        // An owner that only pushes reads top again at every CLEAR_LAG-th index, so what thieves
        // took is cleared at the latest CLEAR_LAG pushes later, even though no pop refreshed it.
        int lag = WorkStealingDeque.CLEAR_LAG;
        WorkStealingDeque<Payload> d = new WorkStealingDeque<>(4 * lag, 8 * lag);  // never looks full
        for (int i = 0; i < lag + 2; i++) {
            d.push(new Payload(i));
        }
        WeakReference<Payload> stolen = steal(d);
        assertThat(stolen.get().id).isZero();
        for (int i = 1; i <= lag; i++) {
            assertThat(d.steal().value().id).isEqualTo(i);
        }
        for (int i = 0; i < lag; i++) {
            d.push(new Payload(1000 + i));
        }
        assertThat(Gc.collected(stolen)).as("stolen element collected").isTrue();
        assertThat(d.size()).isEqualTo(1 + lag);
        assertThat(d.steal().value().id).isEqualTo(lag + 1);
    }

    @Test
    void batchStolenElementsAreNotRetainedAfterThePushIntoTheEmptiedDeque() throws InterruptedException {
        WorkStealingDeque<Payload> d = new WorkStealingDeque<>(4, 16);
        for (int i = 0; i < 4; i++) {
            d.push(new Payload(i));
        }
        WorkStealingDeque<Payload> dest = new WorkStealingDeque<>();
        WeakReference<Payload> first = new WeakReference<>(d.stealBatchOrNull(dest, 4));
        WeakReference<Payload> second = new WeakReference<>(dest.pop());
        assertThat(dest.isEmpty()).isTrue();
        assertThat(d.size()).isEqualTo(2);
        d.pop();
        d.pop();
        d.push(new Payload(9));                 // into the emptied deque: every stolen slot is cleared
        assertThat(Gc.collected(first)).as("first batch element collected").isTrue();
        assertThat(Gc.collected(second)).as("second batch element collected").isTrue();
        assertThat(d.size()).isEqualTo(1);
    }

    @Test
    void anOfferAtFullCapacityReReadsTopBeforeRefusing() {
        WorkStealingDeque<Integer> d = dequeOf(4, 4, 1, 2, 3, 4);
        assertThat(d.offer(5)).as("full").isFalse();
        assertThat(d.steal().value()).isEqualTo(1);  // room again, which only a fresh read of top shows
        assertThat(d.steal().value()).isEqualTo(2);
        assertThat(d.offer(5)).as("room after two steals").isTrue();
        assertThat(d.offer(6)).isTrue();
        assertThat(d.offer(7)).as("full again").isFalse();
        assertThat(popAll(d)).containsExactly(6, 5, 4, 3);
    }
}
