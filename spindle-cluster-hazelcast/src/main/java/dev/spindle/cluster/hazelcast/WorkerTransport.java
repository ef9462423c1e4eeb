/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.LogText;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.OutboundBatches;
import dev.spindle.cluster.WireMessage;
import dev.spindle.cluster.WorkerNode;
import dev.spindle.cluster.WorkerTransportSupport;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The worker member's side of the wire: it opens the coordinator's frames for its
 * {@link WorkerNode}, sends the node's reports to the coordinator, fetches dependencies from the
 * holder member and serves its own values to other workers. Results travel to the coordinator
 * with {@link Message.TaskFinished} (the client's future needs the value) and stay in the
 * worker's store for dependents.
 *
 * <p>Nothing is accepted before the coordinator has proved itself ({@link Enrolment}); then only
 * frames of its session, from it or from a worker it vouched for ({@link Wire.Members}), each
 * sequence number once ({@link Session}). Such a frame of the coordinator's whose bodies cannot be
 * read fails its delivery ({@link #refuseUnread}), so that the coordinator handles this worker as
 * lost rather than take the frame for delivered.
 *
 * <p>A batch of reports that cannot be sent ({@link Outbox#send} false: Hazelcast refused the
 * invocation, or this member or the coordinator is leaving; its invocation failed after Hazelcast
 * accepted it, while the coordinator stayed; or an {@link Error} sealing it, an
 * {@code OutOfMemoryError} on a large result, say) cannot be sent again in order, and the
 * coordinator would never hear of it: a finished task's caller would wait for good. So this
 * worker leaves the cluster instead ({@link #onReportsUnsent}): the coordinator handles it as
 * lost, as it does a worker its own batch could not reach, and places its tasks again. A frame
 * that could not be sent because the coordinator has left (this member's view of the cluster no
 * longer has it, though the membership event that says so may not have been handled yet) has the
 * worker leave for the coordinator's loss instead ({@link Roster#coordinatorGone}), as that event
 * would: leaving for unsent reports, the worker said it could not reach a coordinator that was
 * gone, and {@link WorkerMain} gave the wrong reason.
 */
final class WorkerTransport extends WorkerTransportSupport implements Endpoint {

    private static final System.Logger LOG = System.getLogger(WorkerTransport.class.getName());

    private final FrameCodec codec;
    private final Roster roster;
    private final Outbox outbox;
    private final Session session;
    private final Enrolment enrolment;
    private final OutboundBatches batches;
    private final ConcurrentLinkedQueue<Object> held = new ConcurrentLinkedQueue<>();
    /** Fetch requests per holder, sent as batches ({@link #fetch}). */
    private final OutboundBatches fetches;
    /** Whether this thread is handling a frame from the coordinator: its fetches wait for the frame's end. */
    private static final ThreadLocal<Boolean> HANDLING_FRAME = ThreadLocal.withInitial(() -> Boolean.FALSE);
    /** Fetch request frames sent, and the fetches in them (for tests: how well they batch). */
    private final AtomicLong fetchFrames = new AtomicLong();
    private final AtomicLong fetchesSent = new AtomicLong();
    private final AtomicBoolean loseRetired = new AtomicBoolean();
    /**
     * Run when a fetch failed while one of this member's executors is shut down and the member runs
     * ({@link HazelcastConfigs#executorShutDown}): the worker leaves the cluster.
     */
    private volatile Runnable onExecutorShutDown = () -> { };
    /** Run when a batch of reports could not be sent to the coordinator: the worker leaves the cluster. */
    private volatile Runnable onReportsUnsent = () -> { };
    /** Run when the coordinator says it cut this process off ({@link Wire.CutOff}): the worker leaves the cluster. */
    private volatile Runnable onCutOff = () -> { };
    /** The most fetches in one request frame; a holder refuses a frame with more. */
    static final int FETCH_BATCH = 64;
    /**
     * The most value bytes a holder puts in the reply to a batch of several fetches; over it, it
     * refuses the batch and the requester asks for each value alone (a single fetch is answered
     * whatever its size, within the frame limit: no reply over it is sent or read).
     */
    static final long MAX_BATCH_REPLY_BYTES = 16L << 20;
    /** The frame limit, the same on every member: no reply over it is sent, and none is read ({@link FrameReply}). */
    private final int maxFrameBytes;

    WorkerTransport(int id, FrameCodec codec, Roster roster, int maxFrameBytes) {
        super(id, value -> codec.serialize(value, maxFrameBytes));   // no frame carries more
        this.maxFrameBytes = maxFrameBytes;
        this.codec = codec;
        this.roster = roster;
        this.session = new Session(id, Incarnations.newIncarnation(), roster.offences());
        this.outbox = new Outbox(codec, session, maxFrameBytes);
        this.batches = new OutboundBatches(CoordinatorTransport.BATCH_COUNT, CoordinatorTransport.BATCH_BYTES,
                (coordinator, bodies) -> sendReports(bodies));
        this.fetches = new OutboundBatches(FETCH_BATCH, CoordinatorTransport.BATCH_BYTES, this::sendFetches);
        this.enrolment = new Enrolment(id, codec, roster, session, this::flushHeld);
    }

    void attach(WorkerNode node, HazelcastInstance instance) {
        attachNode(node);
        outbox.attach(instance);
        enrolment.attach(instance.getCluster());
    }

    /**
     * Sets what runs (on the fetching or callback thread; it must not block) when a fetch fails
     * while one of this member's executors is shut down and the member runs: every later fetch
     * would be refused too, so the worker leaves the cluster.
     */
    void onExecutorShutDown(Runnable callback) {
        this.onExecutorShutDown = callback;
    }

    /**
     * Sets what runs (on the reporting thread; it must not block) when a batch of reports could
     * not be sent to the coordinator: the worker leaves the cluster, so that the coordinator
     * handles it as lost (see the class comment).
     */
    void onReportsUnsent(Runnable callback) {
        this.onReportsUnsent = callback;
    }

    /**
     * Sets what runs (on the delivery thread; it must not block) when the coordinator says it
     * cut this process off ({@link Wire.CutOff}, in a frame of its session to this incarnation):
     * the worker leaves the cluster, since nothing it sends is accepted any more.
     */
    void onCutOff(Runnable callback) {
        this.onCutOff = callback;
    }

    @Override
    public byte[] onHandshake(byte[] message) {
        return enrolment.onMessage(message);
    }

    // ---- inbound ---------------------------------------------------------------------------

    @Override
    public void onFrame(byte[] frame) {
        WorkerNode n = node();
        Wire.Frame f;
        try {
            f = codec.open(frame);
        } catch (FrameCodec.UnreadableBodies e) {
            refuseUnread(n, e.envelope(), e.getMessage());
            return;
        } catch (SecurityException e) {
            return;                           // counted and logged (once per kind) by the codec
        }
        if (n == null || f.sender() != Wire.COORDINATOR
                || !session.accept(f, Wire.COORDINATOR_INCARNATION)) {
            return;
        }
        HANDLING_FRAME.set(Boolean.TRUE);
        try {
            for (Object body : f.bodies()) {
                if (body instanceof Message.Retired && loseRetired.getAndSet(false)) {
                    continue;                 // a test's lost frame
                }
                if (body instanceof Wire.CutOff c) {
                    if (c.worker() == id) {
                        LOG.log(Level.ERROR, "worker {0}: the coordinator cut this worker off; leaving the cluster", id);
                        onCutOff.run();
                    }
                    continue;
                }
                receiveMessage(n, body, codec::deserialize);
            }
        } finally {
            HANDLING_FRAME.set(Boolean.FALSE);
            fetches.flush();                  // the frame's fetches, one batch per holder
        }
    }

    /**
     * Fails the delivery of a frame of the coordinator's whose bodies this member cannot read
     * (counted and logged by the codec), if it is one this worker would have acted on: signed, of
     * its session, for this process, new. The tasks and releases it carried are lost here, and,
     * returned from quietly, nothing told: the coordinator took the frame as delivered, and frames
     * overtake each other, so no gap in their numbers shows the loss. So the frame's invocation
     * fails, as for a frame the coordinator could not deliver: it handles this worker as lost,
     * places its tasks again, and tells this process it is cut off, whereupon it leaves the cluster
     * ({@link #onCutOff}). The coordinator does the same with a worker's frame it cannot read
     * ({@code CoordinatorTransport#loseUnread}). A frame that would have been refused anyway (a
     * replay, another session or process, before the node is attached or after it is closed) is
     * dropped, as it is when it reads.
     *
     * @throws IllegalStateException for a frame this worker would have acted on
     */
    private void refuseUnread(WorkerNode n, Wire.Frame envelope, String why) {
        if (n == null || envelope.sender() != Wire.COORDINATOR || !session.accept(envelope, Wire.COORDINATOR_INCARNATION)) {
            return;
        }
        // why may name a class read from the frame: the sender's text
        LOG.log(Level.ERROR, "worker {0}: a frame from the coordinator could not be read ({1}); its delivery fails, so "
                + "that the coordinator places this worker''s tasks again", id,
                LogText.printable(why, Offences.MAX_DETAIL));
        throw new IllegalStateException("worker " + id + " cannot read a frame of the coordinator's: " + why);
    }

    /** For tests: the next {@link Message.Retired} that arrives is dropped, as if its frame were lost. */
    void loseNextRetiredForTests() {
        loseRetired.set(true);
    }

    @Override
    public byte[] onFetch(byte[] frame) {
        WorkerNode n = node();
        Wire.Frame f = open(frame);
        if (f == null || n == null || !fromProven(f) || !session.accept(f, roster.incarnation(f.sender()))) {
            return null;
        }
        Object body = f.bodies().size() == 1 ? f.bodies().get(0) : null;
        if (f.sender() == Wire.COORDINATOR && body instanceof Wire.Members m) {
            // the coordinator's list of proven workers, which also shows it that this worker knows
            // it; unanswered while this member's list lacks one of them, so the coordinator asks again
            if (!roster.adopt(m, f.session(), f.seq(), outbox.cluster())) {
                return null;
            }
            return codec.seal(session.frame(Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION,
                    new WireMessage.FetchReply("", id, null)));
        }
        List<WireMessage.FetchRequest> requests = fetchRequests(f.bodies(), id, f.sender());
        if (requests == null) {
            return null;
        }
        List<Object> replies = new ArrayList<>(requests.size());
        long bytes = 0;
        for (WireMessage.FetchRequest r : requests) {
            Object value = n.valueOrDefault(r.key(), NOT_HELD);
            byte[] encoded = value == NOT_HELD ? null : fetchedBytes(r.key(), value);   // a held null travels
            bytes += encoded == null ? 0 : encoded.length;
            if (bytes > MAX_BATCH_REPLY_BYTES && requests.size() > 1) {
                return null;                  // too much for one reply: the requester asks for each alone
            }
            replies.add(new WireMessage.FetchReply(r.key(), id, encoded));
        }
        byte[] sealed = codec.seal(session.frame(f.sender(), f.incarnation(), replies));
        // the requester reads no reply over the frame limit (FrameReply): a batch is asked for
        // again a value at a time, a single value fails its fetch as refused
        return sealed.length > maxFrameBytes ? null : sealed;
    }

    /**
     * The bytes of a value this worker holds, for a fetch reply; {@code null}, answered as not held
     * (the requester reports the dependency missing and the scheduler computes it again), if it
     * cannot travel or its serialisation throws (a collection it holds modified meanwhile, a chain
     * deep enough to overflow the stack), as the Pekko transport's holder answers. Escaping, the
     * exception failed the fetch call here and went back to the requester, where Hazelcast reads
     * only a few exception classes ({@link HazelcastConfigs#HAZELCAST_SERIAL_CLASSES}): the call of
     * a {@code ConcurrentModificationException} was answered only when Hazelcast timed it out,
     * about two minutes later, and the task that needed the value waited as long.
     */
    private byte[] fetchedBytes(String key, Object value) {
        try {
            return codec.serialize(value, maxFrameBytes);
        } catch (IllegalArgumentException cannotTravel) {
            LOG.log(Level.WARNING, "worker {0} cannot send ''{1}'': {2}", id, LogText.printable(key, Offences.MAX_NAME),
                    LogText.printable(cannotTravel.getMessage(), Offences.MAX_DETAIL));
        } catch (RuntimeException | StackOverflowError thrown) {
            LOG.log(Level.WARNING, "worker {0} cannot send ''{1}'': its serialisation threw {2}", id,
                    LogText.printable(key, Offences.MAX_NAME), LogText.printable(thrown, Offences.MAX_DETAIL));
        }
        return null;
    }

    /**
     * The fetch requests of a verified frame, if it is a batch of them that {@code holder} may
     * answer: every body a request for {@code holder} from the frame's {@code sender}. One body
     * that is anything else refuses the whole frame (null), so a holder of the secret cannot
     * slip another worker's request or a message into a batch; so does a batch of more than
     * {@value #FETCH_BATCH} requests, more than an honest requester sends, so that one frame
     * cannot ask for many copies of a large value ({@link #MAX_BATCH_REPLY_BYTES} bounds the
     * reply as well).
     */
    static List<WireMessage.FetchRequest> fetchRequests(List<Object> bodies, int holder, int sender) {
        if (bodies.isEmpty() || bodies.size() > FETCH_BATCH) {
            return null;
        }
        List<WireMessage.FetchRequest> requests = new ArrayList<>(bodies.size());
        for (Object b : bodies) {
            if (!(b instanceof WireMessage.FetchRequest r) || r.holder() != holder || r.requester() != sender) {
                return null;
            }
            requests.add(r);
        }
        return requests;
    }

    /** Whether the frame's sender is this worker's coordinator or a worker it vouched for. */
    private boolean fromProven(Wire.Frame f) {
        return f.sender() == Wire.COORDINATOR ? roster.coordinator() != null : roster.worker(f.sender()) != null;
    }

    /** The verified frame, or {@code null} (counted and logged by the codec). */
    private Wire.Frame open(byte[] frame) {
        try {
            return codec.open(frame);
        } catch (SecurityException e) {
            return null;
        }
    }

    // ---- outbound --------------------------------------------------------------------------

    @Override
    protected void sendFinished(Message.TaskFinished f, byte[] value) {
        report(new WireMessage.Finished(f.worker(), f.key(), f.attempt(), value, f.bytes(), f.nanos()));
    }

    /** As text; the coordinator rebuilds it as a {@link dev.spindle.cluster.RemoteTaskException}. */
    @Override
    protected void sendErred(int worker, String key, long attempt, String errorClass, String message,
                             StackTraceElement[] trace, long nanos) {
        report(new WireMessage.Erred(worker, key, attempt, errorClass, message, trace, nanos));
    }

    @Override
    protected void sendOther(Message.ToScheduler message) {
        report(message);
    }

    private void report(Object body) {
        if (roster.coordinator() == null) {
            // hold the report until the coordinator has proved itself rather than lose a result
            held.add(body);
            LOG.log(Level.DEBUG, "worker {0}: coordinator not known yet, holding {1}", id, body.getClass().getSimpleName());
            if (roster.coordinator() != null) {
                flushHeld();
            }
            return;
        }
        flushHeld();
        // sent at once, or with the next frame if another thread is sending one now
        batches.send(Wire.COORDINATOR, body);
    }

    /**
     * Sends one batch of reports, on whichever thread flushes it. It must not throw
     * ({@link OutboundBatches.Sender}): the batch has left the queue and may carry other threads'
     * reports, which an escaping {@link Error} (sealing a large result frame, say) would take
     * with it, unreported. What cannot be sent has this worker leave the cluster (see the class
     * comment).
     */
    private void sendReports(List<Object> bodies) {
        try {
            sendWithinFrameLimit(bodies);
        } catch (RuntimeException | Error e) {
            LOG.log(Level.ERROR, "worker " + id + ": could not send " + bodies.size() + " reports to the coordinator; "
                    + "leaving the cluster so that it places this worker's tasks again", e);
            onReportsUnsent.run();
        }
    }

    /**
     * One frame to the coordinator; a frame over the limit is split by the caller. A frame that
     * could not be sent, or whose invocation failed after Hazelcast accepted it while the
     * coordinator stays (the connection was reset, the coordinator could not read it or refused
     * it: {@link Outbox#send}), has this worker leave the cluster (see the class comment).
     */
    @Override
    protected void sendFrame(List<Object> bodies) {
        int count = bodies.size();            // not the bodies (results among them): the callback outlives the send
        if (!outbox.send(roster.coordinator(), Wire.COORDINATOR, Wire.COORDINATOR_INCARNATION, bodies, failure -> {
            if (coordinatorGone()) {
                return;
            }
            LOG.log(Level.ERROR, "worker " + id + ": a frame of " + count + " reports to the coordinator was "
                    + "not delivered; leaving the cluster so that it places this worker's tasks again", failure);
            onReportsUnsent.run();
        })) {
            if (coordinatorGone()) {
                return;
            }
            LOG.log(Level.ERROR, "worker {0}: could not send {1} messages ({2}...) to the coordinator; leaving the "
                    + "cluster so that it places this worker''s tasks again", id, bodies.size(),
                    bodies.get(0).getClass().getSimpleName());
            onReportsUnsent.run();
        }
    }

    /**
     * Whether the coordinator has left this member's view of the cluster; if so, this worker leaves
     * for its loss ({@link Roster#coordinatorGone}), which the membership event, perhaps not handled
     * yet, would have it do anyway (see the class comment). False if this member's view cannot be
     * read (it is stopping, say): the caller then leaves for the unsent reports.
     */
    private boolean coordinatorGone() {
        Member coordinator = roster.coordinator();
        com.hazelcast.cluster.Cluster cluster = outbox.cluster();
        if (coordinator == null || cluster == null) {
            return false;
        }
        try {
            for (Member m : cluster.getMembers()) {
                if (m.getUuid().equals(coordinator.getUuid())) {
                    return false;
                }
            }
        } catch (RuntimeException stopping) {
            return false;
        }
        LOG.log(Level.WARNING, "worker {0}: reports not sent: the coordinator has left the cluster; leaving it too", id);
        roster.coordinatorGone();
        return true;
    }

    /**
     * A report too large for a frame even when shortened (see
     * {@link #sendWithinFrameLimit}): the coordinator would never hear of it, so this worker
     * leaves the cluster, as when a batch cannot be sent (see the class comment). Its tasks are
     * placed again; a task whose report cannot travel from any worker errs at the coordinator
     * once it has lost more workers than the settings allow.
     */
    @Override
    protected void cannotReport(Object body, IllegalArgumentException why) {
        LOG.log(Level.ERROR, "worker " + id + ": cannot send " + body.getClass().getSimpleName()
                + " to the coordinator, even shortened (" + why.getMessage() + "); leaving the cluster so that it "
                + "places this worker's tasks again");
        onReportsUnsent.run();
    }

    /** Sends the reports held while the coordinator was unknown, oldest first. */
    private void flushHeld() {
        if (held.isEmpty()) {
            return;
        }
        for (Object body; (body = held.poll()) != null; ) {
            batches.add(Wire.COORDINATOR, body);
        }
        batches.flush();
    }

    /**
     * Fetches {@code key} from {@code holder}. Asked while this thread handles a frame from the
     * coordinator (a batch of tasks, whose inputs are fetched as the tasks arrive), the request
     * waits for the end of the frame and leaves with the others for the same holder, as one
     * invocation; asked elsewhere, it leaves at once, or with the next batch if one is being sent.
     */
    @Override
    public CompletableFuture<Object> fetch(String key, int holder, int requester) {
        PendingFetch p = new PendingFetch(new WireMessage.FetchRequest(key, holder, requester), new CompletableFuture<>());
        if (HANDLING_FRAME.get()) {
            fetches.add(holder, p);
        } else {
            fetches.send(holder, p);
        }
        return p.result;
    }

    /** One batch of fetches for {@code holder}: one frame of requests, answered by one frame of replies in order. */
    private void sendFetches(int holder, List<Object> batch) {
        List<PendingFetch> pending = new ArrayList<>(batch.size());
        List<Object> requests = new ArrayList<>(batch.size());
        for (Object o : batch) {
            PendingFetch p = (PendingFetch) o;
            pending.add(p);
            requests.add(p.request);
        }
        Member member = roster.worker(holder);
        HazelcastInstance hz = outbox.instance();
        if (member == null || hz == null || session.id() == null) {
            failAll(pending, new IllegalStateException("worker " + holder + " is not a live member"));
            return;
        }
        try {
            byte[] frame = codec.seal(session.frame(holder, roster.incarnation(holder), requests));
            fetchFrames.incrementAndGet();
            fetchesSent.addAndGet(requests.size());
            // answered as an Object, not a FrameReply: the answering member chooses the type of its
            // answer, and a cast that threw in the callback went into Hazelcast's log with the
            // batch's fetches left uncompleted for good (nothing times a fetch out)
            @SuppressWarnings("unchecked")
            Callable<Object> call = (Callable<Object>) (Callable<?>) new FetchCall(frame);
            hz.getExecutorService(HazelcastConfigs.FETCHES).submitToMember(call, member,
                    new ExecutionCallback<Object>() {
                        @Override
                        public void onResponse(Object reply) {
                            if (reply == null || reply instanceof FrameReply) {
                                complete(pending, holder, (FrameReply) reply);
                            } else {
                                failBatch(pending, new SecurityException("worker " + holder + " answered a fetch with a "
                                        + reply.getClass().getName() + ", not a fetch reply"));
                            }
                        }

                        @Override
                        public void onFailure(Throwable t) {
                            failBatch(pending, t);
                        }
                    });
        } catch (RuntimeException | Error e) {
            // an Error too (an OutOfMemoryError sealing the frame, say): escaping, it would leave the
            // batch's fetches uncompleted for good, since nothing times a fetch out
            failBatch(pending, e);
        }
    }

    /**
     * A batch that failed as a whole: each of its fetches is sent again alone, so that a batch
     * whose reply could not be made (its values too large together, say) costs a retry, never a
     * value; a fetch that was alone fails.
     */
    private void failBatch(List<PendingFetch> pending, Throwable t) {
        if (HazelcastConfigs.executorShutDown(outbox.instance())) {
            // refused here for good, and the scheduler, told the value could not be fetched, has
            // its producer run again and again: this worker leaves instead, and its tasks are placed again
            onExecutorShutDown.run();
        }
        if (pending.size() == 1) {
            pending.get(0).result.completeExceptionally(t);
            return;
        }
        for (PendingFetch p : pending) {
            sendFetches(p.request.holder(), List.<Object>of(p));
        }
    }

    private static void failAll(List<PendingFetch> pending, Throwable t) {
        for (PendingFetch p : pending) {
            p.result.completeExceptionally(t);
        }
    }

    /**
     * Hands out the values of a reply, in order. A reply that was refused, or that arrived over
     * the frame limit (counted as oversized and left unread by {@link FrameReply}), fails the
     * batch as a whole, as does one that does not verify or answers another request, or whose
     * opening throws an {@link Error}; a value whose reading throws, an {@code Error} included,
     * fails its own fetch. Nothing escapes: every fetch of the batch completes.
     */
    private void complete(List<PendingFetch> pending, int holder, FrameReply reply) {
        Wire.Frame f;
        try {
            String keys = "'" + pending.get(0).request.key() + "'"
                    + (pending.size() > 1 ? " and " + (pending.size() - 1) + " more" : "");
            if (reply == null) {
                throw new IllegalStateException("worker " + holder + " refused the fetch of " + keys);
            }
            if (reply.frame == null) {
                throw new SecurityException("worker " + holder + " answered the fetch of " + keys
                        + " with a reply over the frame limit of " + maxFrameBytes + " bytes, refused unread");
            }
            f = codec.open(reply.frame);
            if (f.sender() != holder || !session.accept(f, roster.incarnation(holder))
                    || f.bodies().size() != pending.size()) {
                throw new SecurityException("reply from " + f.sender() + " is not worker " + holder
                        + "'s answer in this session");
            }
        } catch (RuntimeException | Error e) {
            failBatch(pending, e);
            return;
        }
        for (int i = 0; i < pending.size(); i++) {
            PendingFetch p = pending.get(i);
            try {
                if (!(f.bodies().get(i) instanceof WireMessage.FetchReply r)) {
                    throw new SecurityException("reply from " + holder + " is not an answer to a fetch");
                }
                p.result.complete(fetched(p.request.key(), holder, r.key(), r.holder(), r.value(), codec::deserialize));
            } catch (RuntimeException | Error e) {
                // an Error reading the value (an OutOfMemoryError, a class that cannot be linked)
                // fails this fetch; escaping, it would leave the rest of the batch uncompleted for good
                p.result.completeExceptionally(e);
            }
        }
    }

    /** Fetch request frames sent so far and the fetches they carried: {frames, fetches}. */
    long[] fetchCounts() {
        return new long[] {fetchFrames.get(), fetchesSent.get()};
    }

    /** A fetch waiting to be sent, and the future its value completes. */
    private record PendingFetch(WireMessage.FetchRequest request, CompletableFuture<Object> result) {
    }
}
