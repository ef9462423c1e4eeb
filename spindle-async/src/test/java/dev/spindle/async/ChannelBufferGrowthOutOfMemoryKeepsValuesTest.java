/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A channel buffers the values after its oldest in a deque that grows as it fills. The JDK's
 * {@code ArrayDeque.addLast} stores the element first and grows only when that filled its
 * array; an {@link OutOfMemoryError} from that growth left the deque with its head equal to its
 * tail, which {@code size()} reads as empty while {@code poll()} still returns what it holds:
 * the value whose send threw was delivered all the same (so a retry sent it twice), and the
 * next value added overwrote the oldest buffered one, lost. ({@code ChannelGrowthErrorTest}
 * throws from a hook before the add, which the JDK's growth does not.) The growth must come
 * before anything is stored, so that a failed send leaves the channel as it was.
 *
 * <p>A real {@code OutOfMemoryError} needs a full heap, so the sends run in a child JVM
 * ({@link FullHeapChild}), which fills its heap once the buffer exists, sends until one fails,
 * then frees the heap, sends that value again and receives what the channel holds: each value
 * once, in order.
 */
@Timeout(120)
class ChannelBufferGrowthOutOfMemoryKeepsValuesTest {

    /** Values the child sends at most (the buffer grows at 1,025 values after the oldest). */
    static final int VALUES = 3000;
    /** Values sent before the heap is filled: the buffer exists and has room left. */
    static final int BEFORE_FILL = 600;

    @Test
    void aSendWhoseBufferGrowthRunsOutOfMemoryLosesNoBufferedValue() throws Exception {
        assertThat(FullHeapChild.result(Child.class)).startsWith("RESULT ok");
    }

    /** The sends under a full heap; prints "RESULT ok ..." or "RESULT lost ...". */
    public static final class Child {
        public static void main(String[] args) {
            FullHeapChild.HandContext cx = new FullHeapChild.HandContext();
            AsyncChannel<Integer> ch = new AsyncChannel<>(Integer.MAX_VALUE);
            Integer[] values = new Integer[VALUES];
            List<AsyncTask<Void>> sends = new ArrayList<>(VALUES);
            for (int i = 0; i < VALUES; i++) {
                values[i] = Integer.valueOf(100_000 + i);   // beyond the Integer cache: each its own
                sends.add(ch.send(values[i]));
            }
            // warm the paths the full heap must not allocate on (class loading allocates)
            AsyncChannel<Integer> warm = new AsyncChannel<>(4);
            for (int i = 0; i < 3; i++) {
                warm.send(values[i]).poll(cx);
            }
            warm.receive().poll(cx);
            for (int i = 0; i < BEFORE_FILL; i++) {
                if (!sends.get(i).poll(cx).isReady()) {
                    System.out.println("RESULT setup: send " + i + " pending");
                    return;
                }
            }
            FullHeapChild.fill();
            int accepted = BEFORE_FILL;
            boolean threw = false;
            for (int i = BEFORE_FILL; i < VALUES; i++) {
                try {
                    sends.get(i).poll(cx);
                    accepted++;
                } catch (OutOfMemoryError e) {
                    threw = true;
                    break;
                }
            }
            FullHeapChild.free();
            if (!threw) {
                System.out.println("RESULT setup: no send ran out of memory (" + accepted + " accepted)");
                return;
            }
            // the send failed, so its sender tries again: the channel now holds each value once
            if (!ch.send(values[accepted]).poll(cx).isReady()) {
                System.out.println("RESULT lost: the retried send is pending");
                return;
            }
            int expected = accepted + 1;
            List<Integer> got = new ArrayList<>();
            for (;;) {
                Poll<Integer> p = ch.receive().poll(cx);
                if (p.isPending()) {
                    break;
                }
                got.add(p.value());
            }
            for (int i = 0; i < got.size(); i++) {
                if (i >= expected || got.get(i) != values[i]) {
                    System.out.println("RESULT lost: receive " + i + " got " + got.get(i) + " instead of "
                            + (i < expected ? values[i] : "nothing") + " (" + got.size() + " received, "
                            + expected + " sent)");
                    return;
                }
            }
            System.out.println((got.size() == expected ? "RESULT ok " : "RESULT lost ") + "sent " + accepted
                    + " before the send that ran out of memory and that one again, received " + got.size());
        }
    }
}
