/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A one-element slot that one thread, the owner, fills and empties, and that other threads may
 * empty (steal from) but never fill. A scheduler puts there the task that the running task has
 * just woken or spawned, so that it runs next on the same thread, ahead of every queue, while a
 * searching peer can still take it if the owner is held up.
 *
 * <pre>{@code
 * LifoSlot<Task> slot = new LifoSlot<>();
 * Task displaced = slot.put(task);           // owner: the previous occupant, or null
 * if (displaced != null) queue.offer(displaced);
 * Task next = slot.take();                   // owner
 * Task stolen = slot.steal();                // any thread
 * }</pre>
 *
 * <h2>Implementation overview</h2>
 *
 * <p>One reference, {@code element}. Every element leaves the slot through exactly one atomic
 * operation that empties it: the owner's exchange in {@link #put} (of a full slot) or
 * {@link #take}, or a compare-and-set in {@link #steal} or {@link #remove}. Of two threads racing
 * for the same element only one of those can succeed, so each element put in is handed out
 * exactly once, by whichever call emptied the slot.
 *
 * <p><b>Filling an empty slot needs no atomic instruction.</b> Only the owner stores a non-null
 * reference, and a thief only ever replaces a non-null reference by {@code null}. So when the
 * owner reads {@code null}, nobody else can change the slot before the owner's own store: the
 * read-then-store cannot lose an element, and a release store suffices (it publishes the
 * element's fields to the thief's acquire read before the thief's CAS). This is the common case
 * in a scheduler, where the task being run came out of the slot: filling it again costs a plain
 * store on x86 where an exchange costs a locked instruction. A full slot is replaced with an
 * exchange, since a thief may be emptying it at the same moment. {@code ForkJoinPool} has no
 * such slot; Tokio's LIFO slot is not stealable at all, which this one is (a thief pays one
 * CAS).
 *
 * <p>The jcstress tests {@code LifoSlotTests} in spindle-stress drive this class: an element is
 * never lost or handed out twice when the owner's put or take races a thief's steal, and an
 * element put into an empty slot is seen fully constructed by the thief that steals it.
 *
 * @param <T> the element type
 */
public final class LifoSlot<T> {

    private static final VarHandle ELEMENT;

    static {
        try {
            ELEMENT = MethodHandles.lookup().findVarHandle(LifoSlot.class, "element", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")                // accessed through ELEMENT
    private volatile Object element;

    /** Creates an empty slot. */
    public LifoSlot() {
    }

    /**
     * Puts {@code e} in the slot. Owner only.
     *
     * @param e the element
     * @return the element the slot held before, which the caller must place elsewhere, or
     *     {@code null} if the slot was empty (or a thief emptied it first)
     * @throws NullPointerException if {@code e} is null
     */
    @SuppressWarnings("unchecked")
    public T put(T e) {
        Objects.requireNonNull(e, "element");
        if (element == null) {
            ELEMENT.setRelease(this, e);       // nobody else fills the slot: see the overview
            return null;
        }
        return (T) ELEMENT.getAndSet(this, e);
    }

    /**
     * Empties the slot. Owner only.
     *
     * @return the element it held, or {@code null} if it was empty (or a thief emptied it first)
     */
    @SuppressWarnings("unchecked")
    public T take() {
        return element == null ? null : (T) ELEMENT.getAndSet(this, null);
    }

    /**
     * Takes the element if there is one. Any thread.
     *
     * @return the element, or {@code null} if the slot was empty or another thread emptied it
     *     first
     */
    @SuppressWarnings("unchecked")
    public T steal() {
        Object e = ELEMENT.getAcquire(this);
        return e != null && ELEMENT.compareAndSet(this, e, null) ? (T) e : null;
    }

    /**
     * Takes {@code e} out of the slot if the slot holds it. Any thread; the owner uses it to take
     * a particular element out of turn.
     *
     * <pre>{@code
     * if (slot.remove(awaited)) run(awaited);   // the slot's entry was awaited's: now ours
     * }</pre>
     *
     * @param e the element, compared by identity
     * @return {@code true} if this call emptied the slot of {@code e}; {@code false} if the slot
     *     held something else or nothing, or another thread took {@code e} first
     */
    public boolean remove(T e) {
        return e != null && element == e && ELEMENT.compareAndSet(this, e, null);
    }

    /**
     * Whether the slot looks empty; a racy snapshot for any thread.
     *
     * @return {@code true} if no element was seen
     */
    public boolean isEmpty() {
        return element == null;
    }
}
