/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A batch move into the caller's own {@link WorkStealingDeque} ({@link WorkStealingDeque#stealBatch}
 * from a victim, {@link Injector#pollBatch} from an injector) took its elements first and offered
 * them to the destination one by one; an offer that had to grow the destination's ring and could
 * not (an {@link OutOfMemoryError} allocating it) threw with the element in hand, and the oldest
 * one taken (the result) went with it: both were in no queue any more, lost, and from the
 * injector so was every element the batch had claimed after them. The room is now made before
 * anything is taken, so such a failure leaves every element where it was.
 */
class BatchMoveIntoADequeThatCannotGrowTest {

    private static final OutOfMemoryError NO_ROOM =
            new OutOfMemoryError("no room for a bigger ring (thrown by the test)");

    @AfterEach
    void clearSeam() {
        WorkStealingDeque.beforeGrow = null;
    }

    /** Before: 1 and 4 were in neither deque (found: 10, 9, 8, 7, 6, 5, 3, 2). */
    @Test
    void aBatchStealWhoseDestinationCannotGrowLosesNothing() {
        WorkStealingDeque<Integer> victim = new WorkStealingDeque<>();
        for (int i = 1; i <= 10; i++) {
            victim.push(i);
        }
        WorkStealingDeque<Integer> dest = new WorkStealingDeque<>(2, 64);
        WorkStealingDeque.beforeGrow = () -> {
            throw NO_ROOM;
        };

        List<Integer> found = new ArrayList<>();
        Throwable thrown = catchThrowable(() -> {
            Integer first = victim.stealBatchOrNull(dest, 8);
            if (first != null) {
                found.add(first);
            }
        });

        assertThat(thrown).isSameAs(NO_ROOM);
        for (Integer x; (x = victim.pop()) != null; ) {
            found.add(x);
        }
        for (Integer x; (x = dest.pop()) != null; ) {
            found.add(x);
        }
        assertThat(found).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    }

    /**
     * Before: 1 and 4 were lost, and 5 to 8, claimed by the batch, were never seen again (found:
     * 9, 10, 3, 2).
     */
    @Test
    void aBatchPollWhoseDestinationCannotGrowLosesNothing() {
        Injector<Integer> injector = new Injector<>();
        for (int i = 1; i <= 10; i++) {
            injector.offer(i);
        }
        WorkStealingDeque<Integer> dest = new WorkStealingDeque<>(2, 64);
        WorkStealingDeque.beforeGrow = () -> {
            throw NO_ROOM;
        };

        List<Integer> found = new ArrayList<>();
        Throwable thrown = catchThrowable(() -> {
            Integer first = injector.pollBatch(dest, 8);
            if (first != null) {
                found.add(first);
            }
        });

        assertThat(thrown).isSameAs(NO_ROOM);
        injector.drain(found::add);
        for (Integer x; (x = dest.pop()) != null; ) {
            found.add(x);
        }
        assertThat(found).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6, 7, 8, 9, 10);
    }

    /** With room to grow, a batch still moves as many as it did. */
    @Test
    void aBatchThatGrowsTheDestinationMovesTheSameElements() {
        WorkStealingDeque<Integer> victim = new WorkStealingDeque<>();
        for (int i = 1; i <= 10; i++) {
            victim.push(i);
        }
        WorkStealingDeque<Integer> dest = new WorkStealingDeque<>(2, 64);
        assertThat(victim.stealBatchOrNull(dest, 8)).isEqualTo(1);
        assertThat(dest.size()).isEqualTo(4);
        assertThat(dest.pop()).isEqualTo(5);

        Injector<Integer> injector = new Injector<>();
        for (int i = 1; i <= 10; i++) {
            injector.offer(i);
        }
        WorkStealingDeque<Integer> dest2 = new WorkStealingDeque<>(2, 64);
        assertThat(injector.pollBatch(dest2, 8)).isEqualTo(1);
        assertThat(dest2.size()).isEqualTo(7);
        assertThat(dest2.pop()).isEqualTo(8);
    }
}
