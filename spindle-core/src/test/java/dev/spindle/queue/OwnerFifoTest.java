package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatNullPointerException;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (ref.get() != null && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(ref.get()).as("taken element collected").isNull();
        assertThat(q.poll()).isEqualTo("the owner's next offer clears what thieves took");
    }
}
