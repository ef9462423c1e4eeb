package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import dev.spindle.testkit.Gc;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Single-threaded behaviour of {@link OwnerFifo}; concurrency is in the Lincheck and stress tests. */
class OwnerFifoTest {

    @Test
    void emptyQueue() {
        OwnerFifo<Integer> q = new OwnerFifo<>(4);
        assertThat(q.poll()).isNull();
        assertThat(q.steal()).isNull();
        assertThat(q.isEmpty()).isTrue();
        assertThat(q.size()).isZero();
        assertThat(q.capacity()).isEqualTo(4);
        assertThat(q.toString()).contains("size~0", "capacity 4");
    }

    @ParameterizedTest(name = "{0} elements through a ring of 8")
    @ValueSource(ints = {1, 7, 8, 9, 100})
    void fifoAcrossWrapAround(int n) {
        OwnerFifo<Integer> q = new OwnerFifo<>(8);
        List<Integer> got = new ArrayList<>();
        int next = 0;
        // keep up to 5 queued while streaming n through, alternating owner polls and steals
        while (got.size() < n) {
            while (next < n && q.size() < 5) {
                assertThat(q.offer(next++)).isTrue();
            }
            got.add(got.size() % 2 == 0 ? q.poll() : q.steal());
        }
        List<Integer> want = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            want.add(i);
        }
        assertThat(got).containsExactlyElementsOf(want);
        assertThat(q.isEmpty()).isTrue();
    }

    @Test
    void offerFailsWhenFullAndSucceedsAgainOnceTaken() {
        OwnerFifo<Integer> q = new OwnerFifo<>(4);
        for (int i = 0; i < 4; i++) {
            assertThat(q.offer(i)).isTrue();
        }
        assertThat(q.size()).isEqualTo(4);
        assertThat(q.offer(99)).as("full").isFalse();
        assertThat(q.steal()).isEqualTo(0);
        assertThat(q.offer(4)).isTrue();
        assertThat(q.offer(99)).as("full again").isFalse();
        for (int i = 1; i <= 4; i++) {
            assertThat(q.poll()).isEqualTo(i);
        }
        assertThat(q.poll()).isNull();
    }

    @Test
    void rejectsBadArguments() {
        assertThatIllegalArgumentException().isThrownBy(() -> new OwnerFifo<>(3)).withMessageContaining("power of two");
        assertThatIllegalArgumentException().isThrownBy(() -> new OwnerFifo<>(1)).withMessageContaining("capacity");
        assertThatIllegalArgumentException().isThrownBy(() -> new OwnerFifo<>(OwnerFifo.MAX_CAPACITY * 2));
        OwnerFifo<Integer> q = new OwnerFifo<>(2);
        assertThatNullPointerException().isThrownBy(() -> q.offer(null)).withMessageContaining("element");
        assertThat(q.isEmpty()).isTrue();
    }

    private static WeakReference<Object> offerWeakly(OwnerFifo<Object> q) {
        Object x = new Object();
        q.offer(x);
        return new WeakReference<>(x);
    }

    private static WeakReference<Object> offerAndTake(OwnerFifo<Object> q, boolean steal) {
        q.offer(new Object());
        return new WeakReference<>(steal ? q.steal() : q.poll());
    }

    @ParameterizedTest(name = "taken by steal: {0}")
    @ValueSource(booleans = {false, true})
    void takenElementIsNotRetained(boolean steal) throws InterruptedException {
        OwnerFifo<Object> q = new OwnerFifo<>(4);
        WeakReference<Object> ref = offerAndTake(q, steal);
        q.offer("the owner's next offer clears what thieves took");
        assertThat(Gc.collected(ref)).as("taken element collected").isTrue();
        assertThat(q.poll()).isEqualTo("the owner's next offer clears what thieves took");
    }

    @Test
    void stolenElementIsNotRetainedOnceThievesAreTheClearLagPastIt() throws InterruptedException {
        int lag = WorkStealingDeque.CLEAR_LAG;
        OwnerFifo<Object> q = new OwnerFifo<>(4 * lag);
        WeakReference<Object> ref = offerWeakly(q);
        for (int i = 0; i < lag + 1; i++) {
            q.offer(i);
        }
        assertThat(q.steal()).isSameAs(ref.get());
        for (int i = 0; i < lag; i++) {
            assertThat(q.steal()).isEqualTo(i);
        }
        q.offer("not empty: this offer clears up to the lag below head");
        assertThat(Gc.collected(ref)).as("stolen element collected").isTrue();
        assertThat(q.poll()).isEqualTo(lag);
        assertThat(q.poll()).isEqualTo("not empty: this offer clears up to the lag below head");
    }

    @ParameterizedTest(name = "capacity {0}")
    @ValueSource(ints = {4, 8, 64, 256})
    void lazyClearingNeverTouchesALiveElementAcrossManyWrapArounds(int capacity) {
        OwnerFifo<Integer> q = new OwnerFifo<>(capacity);
        java.util.ArrayDeque<Integer> model = new java.util.ArrayDeque<>();
        java.util.Random random = new java.util.Random(capacity);
        int next = 0;
        for (int op = 0; op < 200_000; op++) {
            int r = random.nextInt(10);
            if (r < 5) {                        // offers outnumber takes: the queue stays non-empty and wraps
                boolean added = q.offer(next);
                assertThat(added).as("offer at size %d", model.size()).isEqualTo(model.size() < capacity);
                if (added) {
                    model.add(next++);
                }
            } else {
                Integer got = r < 8 ? q.steal() : q.poll();
                assertThat(got).as("take %d", op).isEqualTo(model.poll());
            }
        }
    }
}
