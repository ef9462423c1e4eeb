package dev.spindle.queue;

/**
 * {@link WorkStealingDequeLincheckTest} on a deque that renews its ring at every fresh read of
 * {@code top} (see "a young ring" in {@link WorkStealingDeque}): every push into a deque that
 * looks empty or full, or at a multiple of the clearing lag, then copies the live elements into
 * a new ring while thieves may be reading the old one, and the model checker looks for an
 * interleaving where that loses, duplicates or reorders an element.
 */
public class WorkStealingDequeRenewingLincheckTest extends WorkStealingDequeLincheckTest {

    @Override
    WorkStealingDeque<Integer> newDeque() {
        return new WorkStealingDeque<>(2, 4, 1);
    }
}
