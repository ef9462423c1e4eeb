/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.stress;

import dev.spindle.queue.ForkStack;
import dev.spindle.queue.WorkStealingDeque;
import java.lang.reflect.Constructor;
import java.util.function.Predicate;

/**
 * A {@link WorkStealingDeque} and a {@link ForkStack} that renew their arrays ("a young ring",
 * "a young array" in their overviews) at every chance, built through their package-private test
 * constructors: a renewal otherwise comes once per hundreds of pushes, too rarely for a race
 * with it to be met in a jcstress run. Reflection, because these tests live outside the queue
 * package and the interval is no knob for users; the tests run on the class path, where the
 * constructors can be opened.
 */
final class Renewing {

    private static final Constructor<?> DEQUE;
    private static final Constructor<?> STACK;

    static {
        try {
            DEQUE = WorkStealingDeque.class.getDeclaredConstructor(int.class, int.class, int.class);
            DEQUE.setAccessible(true);
            STACK = ForkStack.class.getDeclaredConstructor(int.class, Predicate.class, int.class);
            STACK.setAccessible(true);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Renewing() {
    }

    /** A deque that renews its ring at every push that reads {@code top} afresh. */
    @SuppressWarnings("unchecked")
    static WorkStealingDeque<Object> deque(int initialCapacity, int maxCapacity) {
        try {
            return (WorkStealingDeque<Object>) DEQUE.newInstance(initialCapacity, maxCapacity, 1);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the deque's test constructor", e);
        }
    }

    /** A fork stack that renews its array at every push. */
    @SuppressWarnings("unchecked")
    static <T> ForkStack<T> stack(int capacity, Predicate<? super T> unclaimed) {
        try {
            return (ForkStack<T>) STACK.newInstance(capacity, unclaimed, 1);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("the fork stack's test constructor", e);
        }
    }
}
