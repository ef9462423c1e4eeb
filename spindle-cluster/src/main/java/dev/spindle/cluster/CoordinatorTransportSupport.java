/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What the coordinator's side of every transport between JVMs does the same way: it holds the
 * scheduler's inbox, turns a worker's serialised result back into {@link Message.TaskFinished}
 * (or, if the allow-list refuses it, into a {@link RemoteTaskException} for that task only), fails
 * a task whose function cannot travel instead of letting it hang, and has nothing to fetch (the
 * coordinator holds no values). A subclass adds the wire: how {@link #toWorker} reaches a worker,
 * which frames it accepts from whom, and how {@link #workerLost} cuts a worker off.
 *
 * <p>Before {@link #attachScheduler} and after {@link #close} messages for the scheduler are
 * dropped: nothing is delivered once the scheduler has stopped, as {@link Transport} requires.
 * Thread-safe: the scheduler's inbox is a volatile reference.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public abstract class CoordinatorTransportSupport implements Transport {

    private static final System.Logger LOG = System.getLogger(CoordinatorTransportSupport.class.getName());

    private final ConcurrentHashMap<Integer, AtomicLong> finished = new ConcurrentHashMap<>();
    private volatile Consumer<Message.ToScheduler> scheduler = m -> { };

    /** For subclasses. */
    protected CoordinatorTransportSupport() {
    }

    /**
     * Starts handing messages to {@code scheduler}.
     *
     * @param scheduler the scheduler's inbox, usually {@code coordinator::receive}
     */
    protected final void attachScheduler(Consumer<Message.ToScheduler> scheduler) {
        this.scheduler = scheduler;
    }

    /**
     * Results received from worker {@code id} and handed to the scheduler.
     *
     * @param id the worker's id
     * @return the number of results from that worker handed over so far, 0 for an unknown id
     */
    public final long finishedOn(int id) {
        AtomicLong n = finished.get(id);
        return n == null ? 0 : n.get();
    }

    /**
     * Hands a worker's result to the scheduler: the value read by {@code reader}, or, if the
     * reader refuses it with a {@link SecurityException}, the task's failure with the reason.
     *
     * @param worker the id of the worker that ran the task
     * @param key the task's key
     * @param attempt the attempt the result is for (stale attempts are ignored by the scheduler)
     * @param value the result as serialised by the worker
     * @param bytes the result's measured size in bytes, for the scheduler's transfer estimates
     * @param nanos how long the task ran, in nanoseconds
     * @param reader deserialises {@code value} through the allow-list, throwing
     *     {@link SecurityException} for a refused class
     */
    protected final void deliverFinished(int worker, String key, long attempt, byte[] value, long bytes, long nanos,
                                         Function<byte[], Object> reader) {
        Message.ToScheduler m;
        try {
            m = new Message.TaskFinished(worker, key, attempt, reader.apply(value), bytes, nanos);
            finished.computeIfAbsent(worker, k -> new AtomicLong()).incrementAndGet();
        } catch (SecurityException e) {
            m = new Message.TaskErred(worker, key, attempt, new RemoteTaskException(SecurityException.class.getName(),
                    "result of task '" + key + "' refused: " + e.getMessage(), null), nanos);
        }
        scheduler.accept(m);
    }

    /**
     * Hands one report of a verified frame to the scheduler: a result through
     * {@link #deliverFinished}, a failure as a {@link RemoteTaskException}, any other report as it
     * is. The caller has checked that the report is about its sender
     * ({@link WireMessage#reportedWorker}).
     *
     * @param body a report read from a worker's frame: a {@link WireMessage.Finished}, a
     *        {@link WireMessage.Erred} or a {@link Message.ToScheduler}
     * @param reader deserialises a result's value through the allow-list, throwing
     *     {@link SecurityException} for a refused class (see {@link #deliverFinished})
     * @throws ClassCastException if {@code body} is none of these
     */
    protected final void deliverReport(Object body, Function<byte[], Object> reader) {
        if (body instanceof WireMessage.Finished w) {
            deliverFinished(w.worker(), w.key(), w.attempt(), w.value(), w.bytes(), w.nanos(), reader);
        } else if (body instanceof WireMessage.Erred e) {
            scheduler.accept(e.toMessage());
        } else {
            scheduler.accept((Message.ToScheduler) body);
        }
    }

    /**
     * The wire forms of a batch of messages for {@code worker}, in order: a task with its function
     * as bytes written by {@code serializer}, any other message as it is. A task whose function
     * cannot travel is left out and failed instead ({@link #cannotSend}).
     *
     * @param worker the id of the worker the messages are for
     * @param messages the messages, in order; a {@link Message.Compute} among them is replaced by
     *        its {@link WireMessage.Compute}
     * @param serializer serialises a task's function, throwing {@link IllegalArgumentException}
     *     if it cannot travel (not serialisable, or too large); a {@link RuntimeException} or
     *     {@link Error} (a {@link StackOverflowError}, a {@link LinkageError}, an
     *     {@link OutOfMemoryError}) the function's own serialisation throws fails its task the
     *     same way (the caller, a batch's sender, must not throw: the batch would be lost)
     * @return a new list of the wire forms, in order, without the tasks that cannot travel (so
     *         it may be shorter than {@code messages}, or empty)
     */
    protected final List<Object> wireForms(int worker, List<Object> messages, Function<Object, byte[]> serializer) {
        List<Object> out = new ArrayList<>(messages.size());
        for (Object m : messages) {
            if (m instanceof Message.Compute c) {
                try {
                    out.add(new WireMessage.Compute(c.key(), c.attempt(), serializer.apply(c.function()),
                            c.dependencies(), c.holders(), c.priority(), c.releases()));
                } catch (IllegalArgumentException cannotTravel) {
                    cannotSend(worker, c, cannotTravel);
                } catch (RuntimeException | Error thrown) {
                    // the function's own serialisation threw (a captured collection modified
                    // meanwhile, a chain deep enough to overflow the stack, a class its writeObject
                    // needs that cannot be linked, a captured array too large for the heap): escaping,
                    // it would take the whole batch with it, this task and the releases counted before
                    // later ones (Message.Compute#releases), so the worker would hold back its later
                    // tasks for good
                    cannotSend(worker, c, new IllegalArgumentException("its serialisation threw: " + Failures.messageOrDescription(thrown),
                            thrown));
                }
            } else {
                out.add(m);
            }
        }
        return out;
    }

    /**
     * Sends {@code bodies} to worker {@code worker} as one frame, in order. Called by
     * {@link #sendWithinFrameLimit}, which handles a frame over the limit.
     *
     * @param worker the id of the worker the messages are for
     * @param bodies the wire forms of the messages, in order; not empty
     * @throws IllegalArgumentException if the frame would be over the transport's frame limit
     *         (nothing is sent then)
     */
    protected abstract void sendFrame(int worker, List<Object> bodies);

    /**
     * Sends a batch of messages to worker {@code worker} through {@link #sendFrame}, so that none
     * is refused on arrival for its size: a batch over the frame limit goes as one frame per
     * message, and a task too large for a frame alone fails ({@link #cannotSend}) instead of
     * hanging. A release too large alone goes as a release of the empty key (see the code: the
     * worker counts releases). Any other message too large alone (keys longer than a frame) is
     * dropped, and logged.
     *
     * @param worker the id of the worker the messages are for
     * @param bodies the wire forms of the messages, in order (see {@link #wireForms}); may be
     *        empty, when every task in the batch failed to travel
     */
    protected final void sendWithinFrameLimit(int worker, List<Object> bodies) {
        if (bodies.isEmpty()) {
            return;
        }
        try {
            sendFrame(worker, bodies);
        } catch (IllegalArgumentException tooLarge) {
            if (bodies.size() > 1) {
                for (Object body : bodies) {
                    sendWithinFrameLimit(worker, List.of(body));
                }
            } else if (bodies.get(0) instanceof WireMessage.Compute c) {
                cannotSend(worker, c.key(), c.attempt(), tooLarge);   // the whole message cannot travel
            } else if (bodies.get(0) instanceof Message.ReleaseKey r && !r.key().isEmpty()) {
                // The worker never received this key: whatever would have given it the key (a task,
                // a copy) carried it and more, and could not travel either. But the worker counts the
                // releases it handles, and holds back each task until it has handled those sent
                // before it (Message.Compute#releases): dropped, this one would hold back every later
                // task for good. A release of the empty key, which no task has, counts the same.
                sendWithinFrameLimit(worker, List.of(new Message.ReleaseKey("", r.index())));
            } else {
                LOG.log(System.Logger.Level.ERROR, "cannot send {0} to worker {1}: {2}",
                        bodies.get(0).getClass().getSimpleName(), worker, tooLarge.getMessage());
            }
        }
    }

    /**
     * Fails the task of {@code compute}, whose function (or whole message) cannot be sent to
     * {@code worker}: the task errs, after its retries, instead of hanging.
     *
     * @param worker the worker the task was meant for
     * @param compute the message that could not be sent
     * @param why what made it unsendable (its message becomes part of the task's failure)
     */
    protected final void cannotSend(int worker, Message.Compute compute, IllegalArgumentException why) {
        cannotSend(worker, compute.key(), compute.attempt(), why);
    }

    /**
     * Fails attempt {@code attempt} of task {@code key}, which cannot be sent to {@code worker},
     * as above: the scheduler receives a {@link Message.TaskErred} whose error is an
     * {@link IllegalArgumentException} with {@code why} as its cause (and a duration of 0).
     *
     * @param worker the worker the task was meant for
     * @param key the task's key
     * @param attempt the attempt that could not be sent
     * @param why what made it unsendable (its message becomes part of the task's failure)
     */
    protected final void cannotSend(int worker, String key, long attempt, RuntimeException why) {
        scheduler.accept(new Message.TaskErred(worker, key, attempt, new IllegalArgumentException(
                "task '" + key + "' cannot be sent: " + Failures.messageOrDescription(why), why), 0));
    }

    /** Hands {@code message} to the scheduler. */
    @Override
    public final void toScheduler(Message.ToScheduler message) {
        scheduler.accept(message);
    }

    /** Not supported: workers fetch from each other; the coordinator holds no values. */
    @Override
    public final CompletableFuture<Object> fetch(String key, int holder, int requester) {
        throw new UnsupportedOperationException("workers fetch from each other; the coordinator holds no values");
    }

    /** Zero: the coordinator moves no values. */
    @Override
    public final long bytesTransferred() {
        return 0;
    }

    /** Stops handing messages to the scheduler. */
    @Override
    public void close() {
        scheduler = m -> { };
    }
}
