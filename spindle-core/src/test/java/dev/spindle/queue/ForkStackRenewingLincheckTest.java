package dev.spindle.queue;

/**
 * {@link ForkStackLincheckTest} on a stack that renews its array at every push (see "a young
 * array" in {@link ForkStack}): readers may then hold the old array while the owner pushes and
 * pops in the new one, and the model checker looks for an interleaving where an element is run
 * twice, never, or found by a reader although it was never in the stack.
 */
public class ForkStackRenewingLincheckTest extends ForkStackLincheckTest {

    @Override
    ForkStack<Element> newStack() {
        return new ForkStack<>(2, Element::isNew, 1);
    }
}
