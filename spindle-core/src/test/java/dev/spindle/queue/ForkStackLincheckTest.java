/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck model checking of {@link ForkStack} with self-claiming elements, as a scheduler uses
 * it: the owner's {@code push} (a full stack of capacity 2 hands back its oldest, which goes to a
 * stand-in for the deque), {@code pop} and {@code removeOldest}, each running what it took if it
 * wins the element's claim, in one thread (the {@code "owner"} non-parallel group), against
 * thieves that {@code peekOldest} and run what they claim.
 *
 * <p>A reader is relaxed by contract (it may return a newer or older element than the oldest, or
 * none, when the owner moves the stack under it), so a thief's answer has no sequential
 * specification and its operation returns nothing; the owner's answers (which element it pushed
 * out or took) depend on the owner alone. The check is {@link #exactlyOnce}, after each part of
 * a scenario: every element pushed has run at most once, and one that has not run is still
 * where its owner will find it (in the stack or the deque): none is lost, none runs twice,
 * whatever the interleaving of the ring's wrap-around, the hand-back of a full stack and the
 * readers. The jcstress tests {@code ForkStackTests} cover the memory-model side (publication of
 * an element through its cell) for one owner operation against one reader; this covers the
 * mixes, two readers, and the ring reused.
 *
 * <p>Shown to fail (by temporarily editing the class) when a full stack's {@code push} moves
 * {@code base} up without handing the oldest element back ("element 1 LOST").
 */
public class ForkStackLincheckTest {

    /** An element with its own claim, as a fork task's start CAS. */
    static final class Element {
        final int id;
        final AtomicBoolean claimed = new AtomicBoolean();
        final AtomicInteger runs = new AtomicInteger();

        Element(int id) {
            this.id = id;
        }

        boolean isNew() {
            return !claimed.get();
        }

        void runIfClaimed() {
            if (claimed.compareAndSet(false, true)) {
                runs.incrementAndGet();
            }
        }
    }

    private final ForkStack<Element> stack = newStack();
    /** The stack under test; {@link ForkStackRenewingLincheckTest} renews its array. */
    ForkStack<Element> newStack() {
        return new ForkStack<>(2, Element::isNew);
    }

    /** Written by the owner only; read by the check while no operation runs. */
    private final List<Element> pushed = new ArrayList<>();
    /** The owner's deque, where elements a full stack hands back go; owner only. */
    private final List<Element> deque = new ArrayList<>();

    @Operation(nonParallelGroup = "owner")
    public int push() {
        return pushOne();
    }

    /** Two pushes, so that scenarios fill the stack (and wrap the ring) often. */
    @Operation(nonParallelGroup = "owner")
    public int pushTwo() {
        int first = pushOne();
        return first * 100 + pushOne();
    }

    private int pushOne() {
        Element e = new Element(pushed.size() + 1);
        pushed.add(e);
        Element displaced = stack.push(e);
        if (displaced == null) {
            return 0;
        }
        deque.add(displaced);
        return displaced.id;
    }

    @Operation(nonParallelGroup = "owner")
    public int pop() {
        Element e = stack.pop();
        if (e == null) {
            return 0;
        }
        e.runIfClaimed();
        return e.id;
    }

    @Operation(nonParallelGroup = "owner")
    public int removeOldest() {
        Element e = stack.removeOldest();
        if (e == null) {
            return 0;
        }
        e.runIfClaimed();
        return e.id;
    }

    @Operation(nonParallelGroup = "owner")
    public int runFromDeque() {
        if (deque.isEmpty()) {
            return 0;
        }
        Element e = deque.remove(deque.size() - 1);
        e.runIfClaimed();
        return e.id;
    }

    @Operation
    public void steal() {
        Element e = stack.peekOldest();
        if (e != null) {
            if (!pushedContains(e)) {
                throw new AssertionError("a reader got element " + e.id + ", never pushed");
            }
            e.runIfClaimed();
        }
    }

    private boolean pushedContains(Element e) {
        return e.id >= 1 && e.id <= pushed.size();
    }

    @Validate
    public void exactlyOnce() {
        for (Element e : pushed) {
            int runs = e.runs.get();
            if (runs > 1) {
                throw new AssertionError("element " + e.id + " ran " + runs + " times");
            }
            if (runs == 0 && !stack.holds(e) && !deque.contains(e)) {
                throw new AssertionError("element " + e.id + " LOST: not run, not in the stack nor the deque");
            }
        }
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(10)
                .invocationsPerIteration(500)
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(getClass());
    }
}
