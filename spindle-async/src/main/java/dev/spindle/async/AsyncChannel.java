/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.Objects;

/**
 * A bounded multi-producer, multi-consumer channel for async tasks.
 *
 * <pre>{@code
 * AsyncChannel<Integer> ch = new AsyncChannel<>(16);
 * AsyncTask<Void> producer = Async.then(ch.send(1), x -> ch.send(2));
 * AsyncTask<Integer> consumer = Async.then(ch.receive(), a -> Async.map(ch.receive(), b -> a + b));
 * // run both on a runtime; consumer completes with 3
 * }</pre>
 *
 * <p><b>Semantics.</b> {@link #send} waits (pending) while the channel holds {@code capacity}
 * values, {@link #receive} waits while it is empty. Each value is received exactly once, in the
 * order in which sends were accepted. Waiting senders and receivers are served first come, first
 * served: a value sent while receivers wait goes straight to the oldest one, and a receive that
 * makes room moves the oldest waiting sender's value into the buffer; so a newcomer never
 * overtakes a waiter. Each task returned is one operation: poll it until ready, do not reuse it.
 *
 * <p><b>Closing.</b> After {@link #close()}, sends fail with {@link ChannelClosedException}
 * (waiting senders too: their values are not delivered), and receives return what is still
 * buffered, then fail with {@link ChannelClosedException}. A value handed to a waiting receive
 * before the close but not yet returned by it counts as still in the channel until that
 * receive returns it or is cancelled: until then, receives of the closed, empty channel wait
 * (a cancelled receive's value goes to them, see below) rather than fail. A value given back
 * after the closed channel ran empty (see <i>Values nobody received</i>) is received after all,
 * by the receives that come after it.
 *
 * <p><b>Budget.</b> Starting an operation takes one unit of the poll's budget; when it is spent,
 * the operation wakes its task and returns pending without touching the channel.
 *
 * <p><b>Cancellation.</b> {@link Async#cancel} of a waiting operation takes it out of the wait
 * queue; a runtime calls it when the task awaiting the operation is cancelled through its
 * {@link JoinHandle} or the runtime shuts down. A receive cancelled after a value was handed to it but before it returned the value
 * passes the value on to the next waiting receiver or puts it back ahead of the buffered values,
 * in the order the values were accepted (the channel may then hold more than {@code capacity}
 * for a while): nothing is lost, and the values given back are received in the order the channel
 * accepted them, before anything buffered. (A value handed to a receive that has not yet
 * returned it nor been cancelled is not waited for: if two receives holding values are cancelled
 * latest first, the later value may be received before the earlier one is given back.) So does a receive whose task's
 * {@link JoinHandle} was cancelled during the poll that would return the value (the runtime
 * drops what that poll returns): the receive stays pending, and the runtime cancels it when it
 * retires the task. A send cancelled after the channel accepted its value has sent it.
 *
 * <p><b>Values nobody received.</b> A receive that returned its value to a combinator that then
 * drops it unreceived (an {@link Async#all} that fails or is cancelled, a list, selection or
 * value the runtime drops because its task's handle was cancelled during the poll that
 * returned it, a poll whose {@link Poll} could not be allocated) puts the value back, as a
 * cancelled receive does: to the oldest waiting receiver, else ahead of everything buffered, in
 * the order the channel accepted the values given back (each value taken gets the next number
 * in that order, and one given back returns to its place among the others given back). A
 * channel filled up meanwhile holds it beyond its capacity for a while rather than drop it, and
 * a closed channel takes it back too: its next receive gets it rather than fail, though a
 * receive that already failed on the closed, empty channel has missed it. The message is thus
 * received once, by someone; never silently lost. {@link Async#all} and {@link Async#select}
 * say where the runtime can tell a value came from a receive (a value a function was given, a
 * map's, is that function's, and so is one in a selection or list a function was given).
 *
 * <p><b>Implementation.</b> One lock guards the buffer and the two wait queues; wakers are
 * collected under the lock and woken after it is released (the operations that a close, or the
 * end of a closed channel's last value, fails are detached as their whole queue and woken from
 * it: nothing is allocated, see {@link #wakeAllFailed}). A waiting operation is
 * completed by the thread that serves it (under the lock) before its waker fires, and a poll
 * reads its state under the same lock, so no wake-up is lost. A poll asks a runtime's own context for the budget
 * (and a served receive's waker whether it expired) under the lock, just before it takes a
 * value, so that a cancel of the task's handle during the poll is seen as late as can be; it
 * asks any other context before the lock ({@code ContextAsks}): a context may be the
 * caller's own, polling by hand, and look at the channel, which would then wait for good for the
 * lock its own poll holds. (A runtime's waker under such a context is still asked under the lock
 * whether it expired, and refused the budget if so, as the runtime's context would refuse it.)
 *
 * <p><b>The lock</b> is a word in the channel itself, not a {@code ReentrantLock}: taken with
 * one CAS (0 to 1, which has acquire semantics) and released with a release store of 0, so an
 * uncontended operation pays one atomic instruction and no fence (a {@code ReentrantLock}'s
 * release is a volatile store, a full fence on x86, besides its owner-thread bookkeeping), and a
 * channel is 48 bytes smaller. Each release happens-before the CAS that next takes the word, so
 * everything written under the lock is seen by the next holder: mutual exclusion and visibility
 * as with any lock. A contended taker spins briefly, then yields its thread until the word is
 * free. That is bounded because no critical section blocks, calls user code or wakes anyone
 * (every waker fires after the release), and none re-enters the channel: a holder is only ever
 * delayed by being descheduled, and yielding gives it the core back. ({@code
 * ChannelLincheckTest} finds two holders at once when the CAS is made a read and a write.)
 *
 * @param <T> the type of the values (non-null)
 */
public final class AsyncChannel<T> {

    private static final int NEW = 0;
    private static final int WAITING = 1;
    private static final int DONE = 2;      // send: accepted; receive: value handed over
    private static final int CLOSED = 3;    // failed by close()
    private static final int FINISHED = 4;  // threw, was cancelled, or a send returned ready
    /** A receive that returned its value: the caller's, unless nobody receives it (giveBackUnreceived). */
    private static final int RETURNED = 5;

    private static final VarHandle LOCK;
    /** Contended takers spin this many times before they yield the thread between tries. */
    private static final int SPINS = 64;

    static {
        try {
            LOCK = MethodHandles.lookup().findVarHandle(AsyncChannel.class, "locked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The lock word: 1 while held; see the overview. Accessed through {@link #LOCK} only. */
    @SuppressWarnings("unused")
    private int locked;
    private final int capacity;
    /**
     * The oldest buffered value, or {@code null} when nothing is buffered (values are non-null).
     * Held in a field, not a queue: most channels are one-shots or capacity 1, and an
     * {@code ArrayDeque} with its array was 48 bytes a buffered send (a third of ping_pong's
     * channel bytes).
     */
    private T first;
    /**
     * The buffered values after {@link #first}, oldest first; created when a second value must
     * wait (capacity 2 or more). Empty whenever {@code first} is {@code null}.
     */
    private ArrayDeque<T> rest;
    /**
     * The values {@link #rest} holds without growing: the room it was made with
     * ({@code new ArrayDeque<>(n)} holds n). {@link #buffer} makes a roomier one before it adds to
     * a full one, so the deque never grows itself: {@code ArrayDeque.addLast} stores the value
     * first and grows only when that filled its array, and an {@link OutOfMemoryError} from that
     * growth left its head equal to its tail. It then read as empty to {@code size()} while
     * {@code poll()} still returned what it held: the send that threw had its value delivered all
     * the same (a retry sent it twice), and the next value added overwrote the oldest buffered one.
     */
    private int restRoom;
    /** For tests: run under the lock just before a value is added to {@link #rest} (which has room for it). */
    Runnable beforeRestAdd;
    // The wait queues link the waiting operations themselves (WaitingOp) in a circular list,
    // and the channel holds only the oldest: a channel is often made for a single exchange (a
    // one-shot), and two ArrayDeques with their 16-slot arrays were most of its bytes, then a
    // queue object with a head and a tail 24 bytes of every channel that had a waiter. Linking
    // also makes a cancelled waiter's removal O(1).
    /** The oldest waiting send, or {@code null}; the newest is {@code sendHead.prev}. */
    private SendOp sendHead;
    /** The oldest waiting receive, or {@code null}; the newest is {@code receiveHead.prev}. */
    private ReceiveOp receiveHead;
    /**
     * Values given back: handed to receives that were cancelled before returning them, or
     * returned by receives whose value nobody received ({@link ReceiveOp#giveBackUnreceived}),
     * by their number ({@link #taken}). They were accepted before everything buffered (they
     * left the channel before it), so receives take them first. The oldest such receive, or {@code null};
     * they are linked in a circular list, as the wait queues, through their own links, free since
     * a sender served them ({@link #giveBack}).
     */
    private ReceiveOp returned;
    /**
     * Values taken so far, numbering them in the order the channel accepted them: each value
     * handed to a waiting receive and each taken from the buffer gets the next number (a value
     * given back keeps its own). Values leave in that order: the buffer is FIFO, and a hand-over
     * happens only while nothing is buffered or given back. An {@code int} that may wrap,
     * compared by difference ({@link ReceiveOp#seq}).
     */
    private int taken;
    /**
     * Values handed to waiting receives that have neither returned them nor been cancelled.
     * While there are any, a closed and empty channel is not yet drained: such a receive may
     * still be cancelled and give its value back, and the receivers then waiting must get it
     * (a receiver failed by the close had already been told "closed and empty", and a consumer
     * that receives until the channel is closed would never see the value).
     */
    private int inFlight;
    private boolean closed;

    /**
     * A channel holding at most {@code capacity} values.
     *
     * @param capacity the most values buffered without a waiting sender, at least 1
     * @throws IllegalArgumentException if {@code capacity < 1}
     */
    public AsyncChannel(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1: " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * The most values the channel holds without a waiting sender.
     *
     * @return the capacity given to the constructor
     */
    public int capacity() {
        return capacity;
    }

    /**
     * Values buffered now.
     *
     * @return the values held now and not yet received, from 0 to the capacity (briefly more after
     *     a cancelled receive, or one whose value nobody received, gave its value back); a
     *     snapshot that may be stale at once
     */
    public int size() {
        lock();
        try {
            int n = buffered();
            for (ReceiveOp r = returned; r != null; r = r.next == returned ? null : r.next) {
                n++;
            }
            return n;
        } finally {
            unlock();
        }
    }

    /**
     * Whether {@link #close()} was called.
     *
     * @return {@code true} once {@link #close()} has been called
     */
    public boolean isClosed() {
        lock();
        try {
            return closed;
        } finally {
            unlock();
        }
    }

    /**
     * A task that sends {@code value}: ready once the channel accepted it, pending while the
     * channel is full; throws {@link ChannelClosedException} if the channel is or gets closed
     * first.
     *
     * @param value the value to send
     * @return a one-shot task for this send, ready with {@code null}
     * @throws NullPointerException if {@code value} is null
     */
    public AsyncTask<Void> send(T value) {
        return new SendOp(Objects.requireNonNull(value, "value"));
    }

    /**
     * A task that receives the next value: pending while the channel is empty; throws
     * {@link ChannelClosedException} once the channel is closed and empty.
     *
     * @return a one-shot task for this receive, ready with the value
     */
    public AsyncTask<T> receive() {
        return new ReceiveOp();
    }

    /**
     * Closes the channel: waiting senders are woken and fail; buffered values can still be
     * received. Waiting receivers are woken and fail, at once unless values handed to other
     * receives are still in flight (see the class comment), else once those are settled.
     * Idempotent.
     */
    public void close() {
        SendOp senders;
        ReceiveOp receivers;
        lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            senders = sendHead;
            sendHead = null;
            failAll(senders);
            receivers = failReceiversIfDrained();
        } finally {
            unlock();
        }
        wakeAllFailed(senders);
        wakeAllFailed(receivers);
    }

    /**
     * Under the lock: once the channel is closed and nothing is left to receive (buffered, given
     * back, or in flight to a receive), fails the waiting receivers and detaches their queue,
     * whose oldest this returns (else {@code null}), for the caller to wake after the unlock
     * ({@link #wakeAllFailed}).
     */
    private ReceiveOp failReceiversIfDrained() {
        if (!closed || inFlight != 0 || buffered() != 0 || returned != null) {
            return null;
        }
        ReceiveOp receivers = receiveHead;
        receiveHead = null;
        failAll(receivers);
        return receivers;
    }

    /** Under the lock: fails every operation of the queue whose oldest is {@code head}, if any. */
    private static <O extends ChannelOp<O, ?>> void failAll(O head) {
        if (head != null) {
            O op = head;
            do {
                op.state = CLOSED;
                op = op.next;
            } while (op != head);
        }
    }

    /**
     * After the unlock: unlinks and wakes every operation of the queue whose oldest is
     * {@code head} (if any), which {@link #failAll} failed and which was detached whole under the
     * lock. Detaching the queue, rather than collecting the wakers in a list there, allocates
     * nothing: growing such a list past 16 waiters could throw an {@link OutOfMemoryError} after
     * some operations were failed and unlinked, which were then never woken (their tasks waited
     * for good), and the receive that had taken the last value in flight lost it with the error.
     * Nobody else touches a failed operation's links: it is never queued again, and its cancel
     * and its poll unlink only a waiting one.
     */
    private static <O extends ChannelOp<O, ?>> void wakeAllFailed(O head) {
        if (head != null) {
            O op = head;
            do {
                O next = op.next;
                op.prev = null;                // a caller that keeps one op keeps none of the others
                op.next = null;
                WaitingOp.wakeServed(op.waker);
                op = next;
            } while (op != head);
        }
    }

    /** What a send and a receive share: their state and the waker of their last poll. */
    private abstract static class ChannelOp<O extends ChannelOp<O, V>, V> extends WaitingOp<O, V> {
        int state = NEW;  // guarded by lock
        Waker waker;      // guarded by lock
    }

    private int buffered() { // under the lock
        return first == null ? 0 : 1 + (rest == null ? 0 : rest.size());
    }

    private void buffer(T value) { // under the lock
        if (first == null) {
            first = value;                 // rest is empty: first is null only then
        } else {
            if (rest == null || rest.size() >= restRoom) {
                growRest();                // may throw: nothing is changed until it returns
            }
            Runnable hook = beforeRestAdd;
            if (hook != null) {
                hook.run();
            }
            rest.add(value);               // has room: the deque does not grow (see restRoom)
        }
    }

    /**
     * Under the lock: replaces {@link #rest} with a deque of about half as much room again (the
     * first with room for {@code capacity - 1} values, up to 1,024), holding the same values. The
     * new deque is made and filled before it replaces the old, so an {@link OutOfMemoryError}
     * leaves the buffer as it was. {@code rest} never holds more than {@code capacity} values (a
     * receive making room for a waiting sender adds its value to a full buffer, then takes one).
     */
    private void growRest() {
        ArrayDeque<T> old = rest;
        int room = old == null
                ? Math.max(1, Math.min(capacity - 1, 1024))
                : (int) Math.min(capacity, restRoom + Math.max(1L, restRoom >> 1));
        ArrayDeque<T> grown = new ArrayDeque<>(room);
        if (old != null) {
            grown.addAll(old);             // room for all of them and one more: no growth
        }
        rest = grown;
        restRoom = room;
    }

    private T unbuffer() { // under the lock; null if nothing is buffered
        T v = first;
        if (v != null) {
            first = rest == null ? null : rest.poll();
        }
        return v;
    }

    /**
     * Under the lock: links {@code op}, a receive cancelled while holding a value, into
     * {@link #returned} in hand-over order. It allocates nothing, so it cannot fail: it used to
     * add {@code op} to a list, and an {@link OutOfMemoryError} growing the list, after the value
     * had left the in-flight count, lost the value for good (a closed channel then failed its
     * receivers as empty).
     */
    private void giveBack(ReceiveOp op) {
        ReceiveOp oldest = returned;
        if (oldest == null) {
            returned = WaitingOp.append(null, op);
            return;
        }
        ReceiveOp at = oldest.prev;            // the newest: values mostly come back in order
        while (at.seq - op.seq > 0 && at != oldest) {
            at = at.prev;
        }
        if (at.seq - op.seq > 0) {             // handed over before all of them: the new oldest
            WaitingOp.append(oldest, op);      // (linked between the newest and the oldest)
            returned = op;
        } else {
            WaitingOp.append(at.next, op);     // linked just after at
        }
    }

    private SendOp nextSender() { // under the lock
        SendOp s = sendHead;
        if (s != null) {
            sendHead = WaitingOp.unlink(s, s);
        }
        return s;
    }

    private ReceiveOp nextReceiver() { // under the lock
        ReceiveOp r = receiveHead;
        if (r != null) {
            receiveHead = WaitingOp.unlink(r, r);
        }
        return r;
    }

    private void lock() {
        if (!LOCK.compareAndSet(this, 0, 1)) {
            lockContended();
        }
    }

    private void lockContended() {
        for (int tries = 0; ; tries++) {
            if ((int) LOCK.getOpaque(this) == 0 && LOCK.compareAndSet(this, 0, 1)) {
                return;
            }
            if (tries < SPINS) {
                Thread.onSpinWait();
            } else {
                Thread.yield();            // the holder was likely descheduled: let it run
            }
        }
    }

    private void unlock() {
        LOCK.setRelease(this, 0);
    }

    private final class SendOp extends ChannelOp<SendOp, Void> implements Cancellable {
        private final T value;

        SendOp(T value) {
            this.value = value;
        }

        @Override
        public Poll<Void> poll(Context cx) {
            Waker toWake = null;       // a waiter this operation served
            Waker self = null;         // this task's own waker: out of budget, poll again
            // a context not the runtime's is asked before the lock (see the overview)
            Waker w = cx.waker();
            int asked = ContextAsks.beforeLock(cx, w, state == NEW, false);
            lock();
            try {
                switch (state) {
                    case DONE:
                        state = FINISHED;
                        return Poll.ready(null);
                    case WAITING:
                        waker = WaitingOp.toWaitWith(w, "a send");
                        return Poll.pending();
                    case CLOSED:
                        state = FINISHED;
                        throw new ChannelClosedException("send: the channel was closed while the send waited");
                    case FINISHED:
                        throw new IllegalStateException("this send already completed");
                    default:
                        break;
                }
                if (closed) {
                    state = FINISHED;
                    throw new ChannelClosedException("send: the channel is closed");
                }
                if (ContextAsks.refusedUnderLock(asked, cx, w)) {
                    self = WaitingOp.toWaitWith(w, "a send");
                    return Poll.pending();
                }
                ReceiveOp r = nextReceiver();
                if (r != null) { // the buffer is empty: hand over directly
                    r.value = value;
                    r.seq = taken++;
                    r.state = DONE;
                    inFlight++;
                    toWake = r.waker;
                    state = FINISHED;
                    return Poll.ready(null);
                }
                if (buffered() < capacity) {
                    buffer(value);
                    state = FINISHED;
                    return Poll.ready(null);
                }
                waker = WaitingOp.toWaitWith(w, "a send");
                state = WAITING;
                sendHead = WaitingOp.append(sendHead, this);
                return Poll.pending();
            } finally {
                unlock();
                if (toWake != null) {
                    WaitingOp.wakeServed(toWake);  // this operation completed: a throw must not undo it
                }
                if (self != null) {
                    self.wake();
                }
            }
        }

        /** A send's value is {@code null}; its {@code poll} answers the shared ready-null. */
        @Override
        Object pollDirect(Context cx) {
            return poll(cx).isPending() ? DirectTask.PENDING : null;
        }

        @Override
        public void cancel() {
            lock();
            try {
                withdraw();
            } finally {
                unlock();
            }
        }

        /**
         * A send whose value a receiver has taken ({@code DONE}) cannot be undone: it stays
         * complete for its next poll.
         */
        @Override
        public boolean cancelUnlessDone() {
            lock();
            try {
                if (state == DONE) {
                    return false;
                }
                withdraw();
                return true;
            } finally {
                unlock();
            }
        }

        private void withdraw() {   // holds the lock
            if (state == WAITING) {
                sendHead = WaitingOp.unlink(sendHead, this);
            }
            state = FINISHED;
        }
    }

    private final class ReceiveOp extends ChannelOp<ReceiveOp, T> implements Cancellable {
        private T value;         // guarded by lock
        /**
         * The number of {@link #value} in the order the channel accepted its values
         * ({@code taken}), guarded by the lock; set when a value is handed to this receive or
         * taken by it, so that a value given back goes to its place. It wraps: two are compared
         * by their difference, which is right while fewer than 2^31 values were taken between
         * those that wait in {@code returned} (a value an {@code all} holds while the channel
         * passes 2^31 others on may be given back out of order, never lost).
         */
        private int seq;

        /**
         * The value received, or {@link DirectTask#PENDING}: a receive awaited by a combinator of
         * {@link Async} costs no {@link Poll} object (see {@link DirectTask}); its {@code poll}
         * wraps this.
         */
        @Override
        Object pollDirect(Context cx) {
            Waker toWake = null;       // a waiter this operation served
            Waker self = null;         // this task's own waker: out of budget, poll again
            ReceiveOp closedOut = null;  // receivers failed once the last value in flight is taken
            // a context not the runtime's is asked before the lock (see the overview); a sender
            // may have served this receive since its last poll
            Waker w = cx.waker();
            int asked = ContextAsks.beforeLock(cx, w, state == NEW, true);
            lock();
            try {
                switch (state) {
                    case DONE:
                        if (ContextAsks.expiredUnderLock(asked, w)) {
                            return DirectTask.PENDING;  // its task was cancelled: see the class comment
                        }
                        T v = value;
                        value = null;
                        state = RETURNED;
                        // never woken again; the list or selection that keeps this receive, to
                        // give its value back should nobody receive it, must not keep its task
                        waker = null;
                        inFlight--;
                        closedOut = failReceiversIfDrained();
                        return v;
                    case WAITING:
                        waker = WaitingOp.toWaitWith(w, "a receive");
                        return DirectTask.PENDING;
                    case CLOSED:
                        state = FINISHED;
                        throw new ChannelClosedException("receive: the channel was closed and is empty");
                    case FINISHED:
                    case RETURNED:
                        throw new IllegalStateException("this receive already completed");
                    default:
                        break;
                }
                if (returned != null) {
                    if (ContextAsks.refusedUnderLock(asked, cx, w)) {
                        self = WaitingOp.toWaitWith(w, "a receive");
                        return DirectTask.PENDING;
                    }
                    state = RETURNED;
                    ReceiveOp given = returned;
                    returned = WaitingOp.unlink(given, given);
                    T v = given.value;
                    given.value = null;        // taken: the cancelled receive, which its owner may keep, lets go of it
                    seq = given.seq;           // its place, should it be given back (giveBackUnreceived)
                    return v;
                }
                if (closed && buffered() == 0 && inFlight == 0) {
                    state = FINISHED;
                    throw new ChannelClosedException("receive: the channel is closed and empty");
                }
                if (ContextAsks.refusedUnderLock(asked, cx, w)) {
                    self = WaitingOp.toWaitWith(w, "a receive");
                    return DirectTask.PENDING;
                }
                if (first != null) {
                    SendOp s = sendHead;
                    if (s != null) { // make room for the oldest waiting sender
                        // buffered first, as the last, before anything is taken: the buffer may
                        // grow, and an OutOfMemoryError from the growth then leaves the channel
                        // as it was. Taken first, the value was lost with this failed receive,
                        // and the sender, unlinked but never served, waited for good
                        buffer(s.value);
                        nextSender();
                        s.state = DONE;
                        toWake = s.waker;
                    }
                    T v = unbuffer();
                    state = RETURNED;
                    seq = taken++;             // its place, should it be given back (giveBackUnreceived)
                    return v;
                }
                waker = WaitingOp.toWaitWith(w, "a receive");
                state = WAITING;
                receiveHead = WaitingOp.append(receiveHead, this);
                return DirectTask.PENDING;
            } finally {
                unlock();
                if (toWake != null) {
                    WaitingOp.wakeServed(toWake);  // this operation completed: a throw must not undo it
                }
                wakeAllFailed(closedOut);
                if (self != null) {
                    self.wake();
                }
            }
        }

        /**
         * {@link #pollDirect}'s value wrapped in a {@link Poll}, for a receive polled by hand (a
         * combinator reads the value directly). The wrapper is allocated once the value is taken;
         * an {@link OutOfMemoryError} there made this poll throw with the value out of the
         * channel and in nobody's hands, lost. It is given back first
         * ({@link #giveBackUnreceived}), so the next receive gets it.
         */
        @Override
        public Poll<T> poll(Context cx) {
            Object v = pollDirect(cx);
            if (v == DirectTask.PENDING) {
                return Poll.pending();
            }
            try {
                return DirectTask.ready(this, v);
            } catch (Throwable t) {
                giveBackUnreceived(v);         // allocates nothing
                throw t;
            }
        }

        @Override
        boolean takes() {
            return true;
        }

        /**
         * Puts {@code v}, the value this receive returned and nobody received, back into the
         * channel, as a receive cancelled while holding a value gives it back: to the oldest
         * waiting receiver, or into {@code returned} at its place ({@link #seq}, its number in
         * the order the channel accepted its values), ahead of everything buffered, so the next
         * receive gets it. Beyond the capacity if the channel filled up meanwhile (a full
         * channel holds more for a while, as for a cancelled receive's value: dropped, the
         * message was lost), and into a closed channel too, whose next receive then gets it
         * rather than fail (a receive that failed before, the channel then empty, has missed
         * it). Once: a receive not {@link #RETURNED} is left as it is.
         */
        @Override
        @SuppressWarnings("unchecked")
        void giveBackUnreceived(Object v) {
            lock();
            try {
                if (state != RETURNED) {
                    return;
                }
                value = (T) v;                 // held again, as a served receive holds it
                state = DONE;
                inFlight++;                    // which cancel counts out again
            } finally {
                unlock();
            }
            cancel();                          // allocates nothing
        }

        @Override
        public void cancel() {
            Waker toWake = null;
            lock();
            try {
                if (state == WAITING) {
                    receiveHead = WaitingOp.unlink(receiveHead, this);
                } else if (state == DONE) { // a value was handed to us: pass it on
                    ReceiveOp next = nextReceiver();
                    if (next != null) {
                        next.value = value;
                        next.seq = seq;
                        next.state = DONE;
                        toWake = next.waker;
                        value = null;
                    } else { // keep it (this op, holding value and seq) in hand-over order
                        inFlight--;            // back in the channel: receivable, no longer in flight
                        // but not the waker of its last poll: it reaches the cancelled task (an
                        // all's results, say), which the channel kept until the next receive
                        waker = null;
                        giveBack(this);
                    }
                }
                state = FINISHED;
            } finally {
                unlock();
            }
            if (toWake != null) {
                WaitingOp.wakeServed(toWake);
            }
        }
    }
}
