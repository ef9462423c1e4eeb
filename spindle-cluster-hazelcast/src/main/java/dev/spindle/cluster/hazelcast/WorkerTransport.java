/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.OutboundBatches;
import dev.spindle.cluster.WireMessage;
import dev.spindle.cluster.WorkerNode;
import dev.spindle.cluster.WorkerTransportSupport;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The worker member's side of the wire: it opens the coordinator's frames for its
 * {@link WorkerNode}, sends the node's reports to the coordinator, fetches dependencies from the
 * holder member and serves its own values to other workers. Results travel to the coordinator
 * with {@link Message.TaskFinished} (the client's future needs the value) and stay in the
 * worker's store for dependents.
 *
 * <p>Nothing is accepted before the coordinator has proved itself ({@link Enrolment}); then only
 * frames of its session, from it or from a worker it vouched for ({@link Wire.Members}), each
 * sequence number once ({@link Session}).
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

    WorkerTransport(int id, FrameCodec codec, Roster roster) {
        super(id, codec::serialize);
        this.codec = codec;
        this.roster = roster;
        this.session = new Session(id, Incarnations.newIncarnation(), roster.offences());
        this.outbox = new Outbox(codec, session);
        this.batches = new OutboundBatches(CoordinatorTransport.BATCH_COUNT, CoordinatorTransport.BATCH_BYTES,
                (coordinator, bodies) -> send(bodies));
        this.enrolment = new Enrolment(id, codec, roster, session, this::flushHeld);
    }

    void attach(WorkerNode node, HazelcastInstance instance) {
        attachNode(node);
        outbox.attach(instance);
        enrolment.attach(instance.getCluster());
    }

    @Override
    public byte[] onHandshake(byte[] message) {
        return enrolment.onMessage(message);
    }

    // ---- inbound ---------------------------------------------------------------------------

    @Override
    public void onFrame(byte[] frame) {
        WorkerNode n = node();
        Wire.Frame f = open(frame);
        if (f == null || n == null || f.sender() != Wire.COORDINATOR
                || !session.accept(f, Wire.COORDINATOR_INCARNATION)) {
            return;
        }
        for (Object body : f.bodies()) {
            receiveMessage(n, body, codec::deserialize);
        }
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
            // the coordinator's list of proven workers, which also shows it that this worker knows it
            roster.adopt(m, outbox.cluster());
            return codec.seal(session.frame(Wire.COORDINATOR, new WireMessage.FetchReply("", id, null)));
        }
        if (!(body instanceof WireMessage.FetchRequest r) || r.holder() != id || r.requester() != f.sender()) {
            return null;
        }
        Object value = n.value(r.key());
        return codec.seal(session.frame(f.sender(),
                new WireMessage.FetchReply(r.key(), id, value == null ? null : codec.serialize(value))));
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

    private void send(List<Object> bodies) {
        if (!outbox.send(roster.coordinator(), Wire.COORDINATOR, bodies)) {
            LOG.log(Level.WARNING, "worker {0}: coordinator unreachable, dropped {1} messages ({2}...)", id,
                    bodies.size(), bodies.get(0).getClass().getSimpleName());
        }
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

    @Override
    public CompletableFuture<Object> fetch(String key, int holder, int requester) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        Member member = roster.worker(holder);
        HazelcastInstance hz = outbox.instance();
        if (member == null || hz == null || session.id() == null) {
            result.completeExceptionally(new IllegalStateException("worker " + holder + " is not a live member"));
            return result;
        }
        byte[] request = codec.seal(session.frame(holder, new WireMessage.FetchRequest(key, holder, requester)));
        try {
            hz.getExecutorService(HazelcastConfigs.FETCHES).submitToMember(new FetchCall(request), member,
                    new ExecutionCallback<byte[]>() {
                        @Override
                        public void onResponse(byte[] reply) {
                            complete(result, key, holder, reply);
                        }

                        @Override
                        public void onFailure(Throwable t) {
                            result.completeExceptionally(t);
                        }
                    });
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
        return result;
    }

    private void complete(CompletableFuture<Object> result, String key, int holder, byte[] reply) {
        try {
            if (reply == null) {
                throw new IllegalStateException("worker " + holder + " refused the fetch of '" + key + "'");
            }
            Wire.Frame f = codec.open(reply);
            if (f.sender() != holder || !session.accept(f, roster.incarnation(holder)) || f.bodies().size() != 1
                    || !(f.bodies().get(0) instanceof WireMessage.FetchReply r)) {
                throw new SecurityException("reply from " + f.sender() + " is not worker " + holder
                        + "'s answer in this session");
            }
            result.complete(fetched(key, holder, r.key(), r.holder(), r.value(), codec::deserialize));
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
    }
}
