/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * What the worker's side of every transport between JVMs does the same way: it holds the
 * {@link WorkerNode} that frames are for, hands it a task whose function arrived as bytes (or
 * reports the task failed if the function is refused), turns the node's reports into their wire
 * form ({@link #toScheduler}: a result as bytes, a failure as text, since neither the value's nor
 * the exception's class need pass the coordinator's allow-list; a result that cannot travel fails
 * its task instead of vanishing), checks that a fetched value answers the fetch that was asked
 * (key and holder) before reading it, and counts the bytes fetched. A worker never sends to
 * workers nor declares them lost: only the coordinator does. A subclass adds the wire: the
 * records that carry a result and a failure, how reports reach the coordinator, how a fetch
 * reaches the holder, which frames it accepts from whom.
 *
 * <p>Before {@link #attachNode} and after {@link #close}, {@link #node()} is {@code null} and
 * frames for the node are ignored. Thread-safe.
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public abstract class WorkerTransportSupport implements Transport {

    /**
     * What {@link WorkerNode#valueOrDefault} returns to a transport answering a fetch for a key
     * its node does not hold: told apart from a held {@code null}, which travels as a value.
     */
    protected static final Object NOT_HELD = new Object();

    private static final System.Logger LOG = System.getLogger(WorkerTransportSupport.class.getName());

    /** This worker's id. */
    protected final int id;
    private final Function<Object, byte[]> serializer;
    private final AtomicLong bytes = new AtomicLong();
    private volatile WorkerNode node;

    /**
     * For subclasses: the transport of worker {@code id}.
     *
     * @param serializer serialises a result's value for the wire, or throws
     *        {@link IllegalArgumentException} if it cannot travel (not serialisable, or too large)
     * @param id the worker's id
     * @throws NullPointerException if {@code serializer} is null
     */
    protected WorkerTransportSupport(int id, Function<Object, byte[]> serializer) {
        this.id = id;
        this.serializer = Objects.requireNonNull(serializer, "serializer");
    }

    /**
     * Sends a result, its value already serialised, to the coordinator.
     *
     * @param finished the report; its value field is not to be sent
     * @param value the value, serialised
     */
    protected abstract void sendFinished(Message.TaskFinished finished, byte[] value);

    /**
     * Sends a task's failure to the coordinator as text: the exception's class name, message
     * (may be null) and stack trace (may be null).
     *
     * @param worker this worker's id
     * @param key the task's key
     * @param attempt the attempt that failed
     * @param errorClass the exception's class name
     * @param message the exception's message, or {@code null}
     * @param trace the exception's stack trace, or {@code null}
     * @param nanos how long the task ran, in nanoseconds
     */
    protected abstract void sendErred(int worker, String key, long attempt, String errorClass, String message,
                                      StackTraceElement[] trace, long nanos);

    /**
     * Sends any other report (steal response, data missing or added) to the coordinator as it is.
     *
     * @param message the report
     */
    protected abstract void sendOther(Message.ToScheduler message);

    /**
     * Sends {@code bodies} to the coordinator as one frame, in order. Called by
     * {@link #sendWithinFrameLimit}, which handles a frame over the limit.
     *
     * @param bodies the wire forms of the reports, in order; not empty
     * @throws IllegalArgumentException if the frame would be over the transport's frame limit
     *         (nothing is sent then)
     */
    protected abstract void sendFrame(List<Object> bodies);

    /**
     * Sends a batch of reports to the coordinator through {@link #sendFrame}, so that none is
     * refused on arrival for its size: a batch over the frame limit goes as one frame per
     * report; a result too large for a frame alone becomes its task's failure (the task errs
     * instead of hanging); a failure too large alone goes without its message and stack trace.
     * A report that is still too large after that (its keys, and a failure's class name, longer
     * than a frame) is handed to {@link #cannotReport}.
     *
     * @param bodies the wire forms of the reports, in order
     */
    protected final void sendWithinFrameLimit(List<Object> bodies) {
        if (bodies.isEmpty()) {
            return;
        }
        try {
            sendFrame(bodies);
        } catch (IllegalArgumentException tooLarge) {
            if (bodies.size() > 1) {
                for (Object body : bodies) {
                    sendWithinFrameLimit(List.of(body));
                }
                return;
            }
            Object body = bodies.get(0);
            Object shorter = body instanceof WireMessage.Finished f
                    ? new WireMessage.Erred(f.worker(), f.key(), f.attempt(), IllegalArgumentException.class.getName(),
                            "result message " + tooLarge.getMessage(), null, f.nanos())
                    : body instanceof WireMessage.Erred e && (e.trace() != null || e.message() != null)
                    ? new WireMessage.Erred(e.worker(), e.key(), e.attempt(), e.errorClass(), null, null, e.nanos())
                    : null;
            if (shorter != null) {
                sendWithinFrameLimit(List.of(shorter));
            } else {
                cannotReport(body, tooLarge);
            }
        }
    }

    /**
     * Handles a report that {@link #sendWithinFrameLimit} could not make small enough for a
     * frame: the coordinator will never hear of it (a finished or failed task's caller would wait
     * for good), so a transport that can make the coordinator notice (by having this worker leave,
     * so that its tasks are placed again) overrides this. This one logs it, as an error. It must
     * not throw: it runs within the sending of a batch, whose later reports still go.
     *
     * @param body the wire form of the report that was not sent
     * @param why why it could not be sent
     */
    protected void cannotReport(Object body, IllegalArgumentException why) {
        LOG.log(System.Logger.Level.ERROR, "worker {0} cannot send {1}: {2}", id, body.getClass().getSimpleName(),
                why.getMessage());
    }

    /**
     * Sends the node's report to the coordinator: a result with its value serialised, or, if the
     * value cannot travel (the serializer refuses it, or its serialisation throws a
     * {@link RuntimeException} or an {@link Error}), the task's failure; a failure as text;
     * anything else as it is.
     */
    @Override
    public final void toScheduler(Message.ToScheduler message) {
        if (message instanceof Message.TaskFinished f) {
            byte[] value;
            try {
                value = serializer.apply(f.value());
            } catch (IllegalArgumentException cannotTravel) {
                // a value that is not serialisable or too large: the task errs rather than vanish
                sendErred(f.worker(), f.key(), f.attempt(), IllegalArgumentException.class.getName(),
                        "result of '" + f.key() + "' " + cannotTravel.getMessage(), null, f.nanos());
                return;
            } catch (RuntimeException | Error thrown) {
                // the value's own serialisation threw: a Sized value is measured without being
                // serialised, so this is its first (a chain deep enough to overflow the stack, a
                // writeObject that throws, a class it needs that cannot be linked, an
                // OutOfMemoryError for a value whose bytes do not fit one array or the heap).
                // Escaping, it would leave the finished task unreported on the worker's thread
                // and its caller waiting for good
                sendErred(f.worker(), f.key(), f.attempt(), IllegalArgumentException.class.getName(),
                        "result of '" + f.key() + "' cannot be serialised: " + Failures.describe(thrown), null, f.nanos());
                return;
            }
            sendFinished(f, value);
        } else if (message instanceof Message.TaskErred e) {
            Throwable t = e.error();
            sendErred(e.worker(), e.key(), e.attempt(), t.getClass().getName(), Failures.messageOf(t), t.getStackTrace(),
                    e.nanos());
        } else {
            sendOther(message);
        }
    }

    /**
     * Starts handing frames to {@code node}.
     *
     * @param node the worker the incoming frames are for
     */
    protected final void attachNode(WorkerNode node) {
        this.node = node;
    }

    /**
     * The node frames are for, or {@code null} before {@link #attachNode} and after {@link #close}.
     *
     * @return the attached node, or {@code null}
     */
    protected final WorkerNode node() {
        return node;
    }

    /**
     * Reads a task's function with {@code reader} and hands the task to {@code node}; if the
     * reader refuses the function ({@link SecurityException}) or it is not a {@link TaskFunction},
     * reports the task failed with the reason instead.
     *
     * @param node the worker to run the task
     * @param key the task's key
     * @param attempt the attempt number of this assignment
     * @param function the task's function, serialised
     * @param dependencies the keys of the task's arguments, in order
     * @param holders for each dependency the worker is missing, the ids of the workers holding it
     * @param priority the task's priority
     * @param releases the releases sent to the worker before this task ({@link Message.Compute#releases})
     * @param reader deserialises {@code function} through the allow-list
     */
    protected final void receiveCompute(WorkerNode node, String key, long attempt, byte[] function,
                                        List<String> dependencies, Map<String, List<Integer>> holders, int priority,
                                        long releases, Function<byte[], Object> reader) {
        Object read;
        try {
            read = reader.apply(function);
        } catch (SecurityException e) {
            refuseFunction(key, attempt, e.getMessage());
            return;
        }
        if (!(read instanceof TaskFunction<?> f)) {
            refuseFunction(key, attempt, "a " + (read == null ? "null" : read.getClass().getName())
                    + " is not a task function");
            return;
        }
        node.receive(new Message.Compute(key, attempt, f, dependencies, holders, priority, releases));
    }

    /**
     * Hands one message of a verified frame from the coordinator to {@code node}: a task through
     * {@link #receiveCompute}, anything else for a worker as it is; false (nothing done) for a
     * body that is not a message for a worker.
     *
     * @param node the worker to hand the message to
     * @param body a body read from the coordinator's frame
     * @param reader deserialises a task's function through the allow-list, throwing
     *        {@link SecurityException} for a refused class (the task is then reported failed)
     * @return {@code true} if {@code body} was a {@link WireMessage.Compute} or a
     *         {@link Message.ToWorker} and has been handled, {@code false} otherwise
     */
    protected final boolean receiveMessage(WorkerNode node, Object body, Function<byte[], Object> reader) {
        if (body instanceof WireMessage.Compute c) {
            receiveCompute(node, c.key(), c.attempt(), c.function(), c.dependencies(), c.holders(), c.priority(), c.releases(),
                    reader);
        } else if (body instanceof Message.ToWorker m) {
            node.receive(m);
        } else {
            return false;
        }
        return true;
    }

    private void refuseFunction(String key, long attempt, String why) {
        sendErred(id, key, attempt, SecurityException.class.getName(), "function of task '" + key + "' refused: " + why,
                null, 0);
    }

    /**
     * The value of a fetch reply, read by {@code reader} once the reply is shown to answer the
     * fetch of {@code key} from {@code holder}; its bytes are counted in {@link #bytesTransferred}.
     *
     * @param key the key this worker asked for
     * @param holder the worker it asked
     * @param replyKey the key the reply says it answers
     * @param replyHolder the worker the reply says it comes from
     * @param value the value, serialised; {@code null} if the holder lacks the key
     * @param reader deserialises {@code value} through the allow-list
     * @return the value read
     * @throws SecurityException if the reply answers another fetch, or the reader refuses the value
     * @throws IllegalStateException if the holder does not hold the key ({@code value} null)
     */
    protected final Object fetched(String key, int holder, String replyKey, int replyHolder, byte[] value,
                                   Function<byte[], Object> reader) {
        if (!replyKey.equals(key) || replyHolder != holder) {
            throw new SecurityException("reply for '" + replyKey + "' from " + replyHolder + " answers another fetch");
        }
        if (value == null) {
            throw new IllegalStateException("worker " + holder + " does not hold '" + key + "'");
        }
        Object read = reader.apply(value);
        bytes.addAndGet(value.length);
        return read;
    }

    /** Not supported: a worker does not send to workers. */
    @Override
    public final void toWorker(int worker, Message.ToWorker message) {
        throw new UnsupportedOperationException("a worker does not send to workers");
    }

    /** Not supported: only the coordinator declares workers lost. */
    @Override
    public final void workerLost(int worker) {
        throw new UnsupportedOperationException("only the coordinator declares workers lost");
    }

    /** Bytes of values fetched from other workers so far. */
    @Override
    public final long bytesTransferred() {
        return bytes.get();
    }

    /** Stops handing frames to the node. */
    @Override
    public void close() {
        node = null;
    }
}
