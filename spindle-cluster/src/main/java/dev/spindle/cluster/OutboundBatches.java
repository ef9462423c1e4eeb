/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The messages a transport between JVMs has yet to send, per destination, sent as batches: each
 * batch travels as one frame, so its per-frame costs (the transport's invocation and response, a
 * signature, a sequence number check) are paid once for the batch, not once per message.
 *
 * <h2>Implementation overview</h2>
 *
 * <p>Each destination has a lane: a lock-free FIFO queue of bodies, a count of them, and a
 * {@code flushing} flag. {@link #add} appends to the queue (and flushes at once if the lane holds
 * a full batch); {@link #flush} sends what is queued. A flush is done by whichever thread wins the
 * lane's flag: it takes batches off the head of the queue (at most {@code maxCount} bodies and,
 * by {@link MessageCodec#estimatedBytes}, at most {@code maxBytes}, though a single larger body
 * goes alone) and hands each to the {@link Sender}, until the queue is empty; then it clears the
 * flag and looks at the count again, taking the flag back if a body arrived meanwhile. So:
 * <ul>
 *   <li><b>Nothing is stranded.</b> A body is counted after it is queued; a thread that finds the
 *       flag taken leaves its body to the flusher, which re-reads the count after clearing the
 *       flag, so one of the two sends it.
 *   <li><b>Order per destination.</b> Only the flag holder takes bodies, from the head of a FIFO
 *       queue, and hands over one batch at a time: batches leave in the order their bodies were
 *       added.
 *   <li><b>No added latency.</b> A sender that calls {@link #send} alone (nobody flushing) sends
 *       its body at once, in a batch of one. Bodies batch up only while a frame is being sent:
 *       the more a destination is behind, the larger its next frame (group commit).
 *   <li><b>A sender that produces in bursts</b> (the scheduler, which may send many messages
 *       while handling one event) {@link #add}s them and calls {@link #flush()} when its own queue
 *       of work runs dry, so a burst leaves as a few frames. Given an executor, the batches are
 *       encoded and sent there, beside the sender, which then only queues; a lane has at most
 *       one flush queued on it at a time ({@code scheduled}, cleared when that flush starts, so
 *       a body added after the clear is either taken by that flush or queues another).
 *   <li><b>A discard drops only what was queued before it.</b> It empties the queue under the
 *       lane's lock, and the flusher takes each body under that lock too, and only while it is
 *       still the head it looked at (and sized): a body added once a discard has returned is
 *       never taken unseen in the place of one the discard dropped, and dropped with it. The
 *       lock is never held while a batch is sent.
 * </ul>
 * Thread-safe. A {@link Sender} must not throw: a body it cannot send is its to report.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public final class OutboundBatches {

    /** Sends one batch (at least one body) to a destination as one frame. */
    @FunctionalInterface
    public interface Sender {
        /**
         * Sends {@code bodies}, in order, to {@code destination}; must not throw. Called by one
         * thread at a time per destination, possibly a different thread each time (a flusher's,
         * or whichever thread flushed).
         *
         * @param destination the destination's id, as given to {@link #add} or {@link #send}
         * @param bodies the batch: 1 to {@code maxCount} bodies, in the order they were added; a
         *        new list the sender may keep
         */
        void send(int destination, List<Object> bodies);
    }

    private static final class Lane {
        final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();
        final AtomicInteger pending = new AtomicInteger();
        final AtomicBoolean flushing = new AtomicBoolean();
        /** A flush of this lane is queued on the flusher and has not started. */
        final AtomicBoolean scheduled = new AtomicBoolean();
    }

    private final int maxCount;
    private final long maxBytes;
    private final Sender sender;
    /** Where flushes run; {@code null}: on the calling thread. */
    private final Executor flusher;
    private final ConcurrentHashMap<Integer, Lane> lanes = new ConcurrentHashMap<>();

    /**
     * Run, if set, by a flush between its look at a lane's head and its take of it: a seam for
     * tests, which run a {@link #discard} there. Read once per batch taken, never by an add.
     */
    static volatile Runnable beforeTake;

    /**
     * Batches of at most {@code maxCount} bodies and about {@code maxBytes} bytes, flushed on
     * the calling thread.
     *
     * @param maxCount the most bodies in one batch, 1..{@link MessageCodec#MAX_BATCH}; a lane
     *        holding this many is flushed by {@link #add}
     * @param maxBytes the most bytes of one batch, by {@link MessageCodec#estimatedBytes}; a
     *        single body over it is still sent, alone
     * @param sender sends each batch, not {@code null}
     * @throws NullPointerException if {@code sender} is {@code null}
     * @throws IllegalArgumentException if {@code maxCount} is not in 1..{@link MessageCodec#MAX_BATCH}
     *         or {@code maxBytes} is not positive
     */
    public OutboundBatches(int maxCount, long maxBytes, Sender sender) {
        this(maxCount, maxBytes, sender, null);
    }

    /**
     * Batches as above whose {@link #flush()} and full batches are sent on {@code flusher}, not
     * on the thread that adds: a sender whose own thread is the bottleneck (the scheduler) only
     * queues, and the encoding, signing and sending of its frames run beside it. A flush is
     * queued on the flusher at most once per lane at a time; {@link #send} and
     * {@link #flush(int)} still send on the calling thread. If the flusher rejects a flush
     * ({@link RejectedExecutionException}, the transport closing), the bodies stay queued until
     * a later flush or {@link #discard}.
     *
     * @param maxCount the most bodies in one batch, 1..{@link MessageCodec#MAX_BATCH}; a lane
     *        holding this many is flushed by {@link #add}
     * @param maxBytes the most bytes of one batch, by {@link MessageCodec#estimatedBytes}; a
     *        single body over it is still sent, alone
     * @param sender sends each batch, not {@code null}
     * @param flusher runs the flushes, or {@code null} to run them on the calling thread
     * @throws NullPointerException if {@code sender} is {@code null}
     * @throws IllegalArgumentException if {@code maxCount} is not in 1..{@link MessageCodec#MAX_BATCH}
     *         or {@code maxBytes} is not positive
     */
    public OutboundBatches(int maxCount, long maxBytes, Sender sender, Executor flusher) {
        if (maxCount < 1 || maxCount > MessageCodec.MAX_BATCH) {
            throw new IllegalArgumentException("maxCount must be in 1.." + MessageCodec.MAX_BATCH + ", got " + maxCount);
        }
        if (maxBytes < 1) {
            throw new IllegalArgumentException("maxBytes must be positive, got " + maxBytes);
        }
        this.maxCount = maxCount;
        this.maxBytes = maxBytes;
        this.sender = Objects.requireNonNull(sender, "sender");
        this.flusher = flusher;
    }

    private Lane lane(int destination) {
        Lane l = lanes.get(destination);
        return l != null ? l : lanes.computeIfAbsent(destination, d -> new Lane());
    }

    /**
     * Queues {@code body} for {@code destination}; sends at once if a full batch is queued
     * (on the calling thread, or on the flusher if there is one). Otherwise the body waits for
     * the next flush of its destination.
     *
     * @param destination the destination's id (any {@code int}: a lane is made for a new one)
     * @param body the message, not {@code null}: whatever the {@link Sender} turns into a frame
     *        (the transports take {@link Message}s and their own bodies, and encode them when
     *        the batch is sent)
     * @throws NullPointerException if {@code body} is {@code null}
     */
    public void add(int destination, Object body) {
        Objects.requireNonNull(body, "body");
        Lane l = lane(destination);
        l.queue.add(body);
        if (l.pending.incrementAndGet() >= maxCount) {
            requestFlush(destination, l);
        }
    }

    /**
     * Queues {@code body} and flushes its destination: sent at once if no other thread is sending
     * to it, else in the batch that thread sends next. The flush runs on the calling thread even
     * if there is a flusher; it does not wait for another thread's flush.
     *
     * @param destination the destination's id
     * @param body the message, not {@code null}: whatever the {@link Sender} turns into a frame
     *        (the transports take {@link Message}s and their own bodies, and encode them when
     *        the batch is sent)
     * @throws NullPointerException if {@code body} is {@code null}
     */
    public void send(int destination, Object body) {
        add(destination, body);
        flush(destination, lane(destination));
    }

    /** Sends everything queued, to every destination (on the flusher, if there is one). */
    public void flush() {
        lanes.forEach((d, l) -> {
            if (l.pending.get() > 0) {
                requestFlush(d, l);
            }
        });
    }

    /**
     * Sends everything queued for {@code destination} on the calling thread, and returns once
     * none of it is left to send, a flush running elsewhere included (before the destination is
     * cut off, say). While another thread's flush of the destination is running this spins
     * ({@link Thread#onSpinWait}), so it blocks as long as that thread's {@link Sender} does.
     *
     * @param destination the destination's id; nothing happens for one never added to
     */
    public void flush(int destination) {
        Lane l = lanes.get(destination);
        if (l == null) {
            return;
        }
        flush(destination, l);
        while (l.pending.get() > 0 || l.flushing.get()) {
            flush(destination, l);            // the other flusher finishes its batch, or left one behind
            Thread.onSpinWait();
        }
    }

    private void requestFlush(int destination, Lane l) {
        if (flusher == null) {
            flush(destination, l);
        } else if (l.scheduled.compareAndSet(false, true)) {
            try {
                flusher.execute(() -> {
                    // cleared first: a body added from now on either is taken below or schedules anew
                    l.scheduled.set(false);
                    flush(destination, l);
                });
            } catch (RejectedExecutionException closed) {
                l.scheduled.set(false);       // the transport is closing: what is queued is dropped
            }
        }
    }

    /**
     * Drops what is queued for {@code destination} and not being sent: it is gone, and a process
     * that later takes its id must not receive its predecessor's messages. A batch already taken
     * by a flush is still sent.
     *
     * @param destination the destination's id; nothing happens for one never added to
     */
    public void discard(int destination) {
        Lane l = lanes.get(destination);
        if (l != null) {
            drop(l);
        }
    }

    /**
     * Drops what is queued for {@code destination}, as {@link #discard} does, and forgets its lane:
     * for a destination that is gone for good (a transport that never reuses an id, one per
     * process, say), whose lane would otherwise be kept, and looked at by every {@link #flush()},
     * for as long as this object lives. A batch already taken by a flush is still sent; a later
     * {@link #add} for the destination makes it a new lane; a body added while this runs may be
     * left in the forgotten lane, never sent: only for a destination whose messages may be
     * dropped.
     *
     * @param destination the destination's id; nothing happens for one without a lane
     */
    public void remove(int destination) {
        Lane l = lanes.remove(destination);
        if (l != null) {
            drop(l);
        }
    }

    /**
     * Empties {@code l}'s queue, under the lane's lock: a flush takes a body only while it is
     * still the head it looked at ({@link #take}), so what it finds there once this returns was
     * added after, and is sent.
     */
    private static void drop(Lane l) {
        synchronized (l) {
            while (l.queue.poll() != null) {
                l.pending.decrementAndGet();
            }
        }
    }

    /**
     * Bodies queued for {@code destination} and not sent yet.
     *
     * @param destination the destination's id
     * @return the number of bodies queued and not yet taken into a batch (a snapshot, which
     *         other threads may change at once); 0 for a destination never added to
     */
    public int pending(int destination) {
        Lane l = lanes.get(destination);
        return l == null ? 0 : l.pending.get();
    }

    private void flush(int destination, Lane l) {
        while (l.pending.get() > 0 && l.flushing.compareAndSet(false, true)) {
            try {
                for (List<Object> batch = take(l); !batch.isEmpty(); batch = take(l)) {
                    sender.send(destination, batch);
                }
            } finally {
                l.flushing.set(false);
            }
        }
    }

    /** The next batch off the lane's head; only the flag holder calls this. */
    private List<Object> take(Lane l) {
        List<Object> batch = new ArrayList<>(Math.min(maxCount, Math.max(1, l.pending.get())));
        long bytes = 0;
        Runnable hook = beforeTake;
        for (Object head; batch.size() < maxCount && (head = l.queue.peek()) != null; ) {
            long size = MessageCodec.estimatedBytes(head);
            if (!batch.isEmpty() && bytes + size > maxBytes) {
                break;
            }
            if (hook != null) {
                hook.run();
            }
            // only the head looked at is taken, under the lock a discard drains the queue under: a
            // head gone meanwhile was the discard's, and what is at the head now was added after
            // the discard had emptied the queue (a rejoined worker's first task), to be looked at
            // afresh; taken unseen in the head's place (a plain poll), it was dropped, never sent
            boolean taken;
            synchronized (l) {
                taken = l.queue.peek() == head && l.queue.poll() != null;
            }
            if (!taken) {
                continue;
            }
            l.pending.decrementAndGet();
            batch.add(head);
            bytes += size;
        }
        return batch;
    }
}
