/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A HYBRID worker fills its hot queue from its wake channel, a cell at a time: it takes the cell
 * from the channel, then adds it. The queue grew as it filled (64 cells, then 128, then 256): an
 * {@link OutOfMemoryError} from that growth came after the cell had left the channel, and the
 * task was lost; one between the copies of its three arrays left them of different lengths, and
 * every later fill threw. The queue now has room for a whole batch from the start, so filling it
 * allocates nothing (a failure that needs an allocation cannot happen there).
 */
class HotQueueFillAllocatesNothingTest {

    private static final int BATCH = 256;

    @Test
    void fillingTheHotQueueWithAWholeBatchAllocatesNothing() throws Throwable {
        MethodHandle allocated = AllocationCounter.forCurrentThread();
        assumeThat(allocated).as("this JVM counts a thread's allocations").isNotNull();
        List<TaskCell<?>> cells = new ArrayList<>();
        for (int i = 0; i < BATCH; i++) {
            cells.add(new TaskCell<>(null, cx -> Poll.ready(null)));
        }
        long warm = (long) allocated.invokeExact();          // links the call before it is measured
        HotQueue q = new HotQueue(BATCH);
        long before = (long) allocated.invokeExact();
        for (int i = 0; i < BATCH && !q.isFull(); i++) {
            q.add(cells.get(i));
        }
        long used = (long) allocated.invokeExact() - before;
        assertThat(q.size()).isEqualTo(BATCH);
        assertThat(q.isFull()).isTrue();
        assertThat(used).as("bytes allocated filling a new queue with %d cells (%d before)", BATCH, warm).isZero();
        for (int i = 0; i < BATCH; i++) {
            assertThat(q.poll()).isSameAs(cells.get(i));         // equal wake counts: FIFO
        }
        assertThat(q.poll()).isNull();
    }

    @Test
    void aQueueOfNoRoomIsRefused() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException().isThrownBy(() -> new HotQueue(0))
                .withMessageContaining("capacity");
    }
}
