/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.Message;
import dev.spindle.cluster.MessageCodec;
import dev.spindle.cluster.OutboundBatches;
import dev.spindle.cluster.WireMessage;
import dev.spindle.cluster.WorkerNode;
import dev.spindle.cluster.WorkerTransportSupport;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Address;

/**
 * The worker member's side of the wire: it accepts the frames of the one coordinator it follows
 * (see {@link Roster}) for its {@link WorkerNode}, sends the node's reports to that coordinator,
 * fetches dependencies from the holder member and serves its own values to other workers.
 * Results travel to the coordinator with {@link Message.TaskFinished} (the client's future needs
 * the value) and stay in the worker's store for dependents.
 */
final class WorkerTransport extends WorkerTransportSupport implements EndpointActor.Handler {

    private static final System.Logger LOG = System.getLogger(WorkerTransport.class.getName());

    private final WireCodec codec;
    private final Roster roster;
    private final Outbox outbox;
    private final Refusals rejectedFrames;
    private final Duration fetchTimeout;
    private final OutboundBatches batches;
    /** This process's incarnation, carried in every frame it sends. */
    private final long incarnation;
    private final ConcurrentHashMap<Address, Set<CompletableFuture<Object>>> inFlight = new ConcurrentHashMap<>();

    WorkerTransport(int id, long incarnation, WireCodec codec, Roster roster, Outbox outbox, Refusals rejectedFrames,
                    Duration fetchTimeout) {
        super(id, codec::serialize);
        this.incarnation = incarnation;
        this.codec = codec;
        this.roster = roster;
        this.outbox = outbox;
        this.rejectedFrames = rejectedFrames;
        this.fetchTimeout = fetchTimeout;
        this.batches = new OutboundBatches(MessageCodec.MAX_BATCH, codec.batchBytes(), (coordinator, bodies) -> send(bodies));
    }

    void attach(WorkerNode node) {
        attachNode(node);
    }

    // ---- inbound ---------------------------------------------------------------------------

    @Override
    public void onRejected(Wire.Rejected rejected, ActorRef sender) {
        rejectedFrames.refuse(Senders.describe(sender), rejected.why());
    }

    @Override
    public void onFrame(Wire.Frame frame, ActorRef sender) {
        WorkerNode n = node();
        Address from = sender.path().address();
        if (n == null) {
            return;
        }
        if (frame.to() != id) {
            rejectedFrames.refuse(Senders.describe(sender), "frame for worker " + frame.to() + " sent to worker " + id);
            return;
        }
        if (frame.single() instanceof WireMessage.FetchRequest r) {
            if (roster.accepts(r.requester(), from, frame.incarnation()) && r.holder() == id) {
                Object value = n.valueOrDefault(r.key(), NOT_HELD);
                byte[] bytes = null;
                try {
                    bytes = value == NOT_HELD ? null : codec.serialize(value);   // a held null travels
                } catch (IllegalArgumentException cannotTravel) {
                    // answered as not held: the requester reports the dependency missing
                    LOG.log(Level.WARNING, "worker {0} cannot send ''{1}'': {2}", id, r.key(), cannotTravel.getMessage());
                }
                try {
                    outbox.reply(sender, frame(r.requester(), new WireMessage.FetchReply(r.key(), id, bytes)));
                } catch (IllegalArgumentException tooLarge) {
                    outbox.reply(sender, frame(r.requester(), new WireMessage.FetchReply(r.key(), id, null)));
                }
            } else {
                rejectedFrames.refuse(Senders.describe(sender),
                        "fetch request from a member that is not worker " + r.requester() + "'s current process");
            }
            return;
        }
        if (!from.equals(roster.coordinator())) {
            rejectedFrames.refuse(Senders.describe(sender), "not the coordinator worker " + id + " follows");
            return;
        }
        if (frame.single() instanceof Wire.Probe) {
            outbox.reply(sender, frame(Wire.COORDINATOR, new Wire.ProbeReply(id, roster.workers())));
            return;
        }
        for (Object body : frame.bodies()) {
            if (!receiveMessage(n, body, codec::deserialize)) {
                rejectedFrames.refuse(Senders.describe(sender), "unexpected message " + body.getClass().getSimpleName());
            }
        }
    }

    // ---- outbound --------------------------------------------------------------------------

    @Override
    protected void sendFinished(Message.TaskFinished f, byte[] value) {
        send(new WireMessage.Finished(f.worker(), f.key(), f.attempt(), value, f.bytes(), f.nanos()));
    }

    @Override
    protected void sendErred(int worker, String key, long attempt, String errorClass, String message,
                             StackTraceElement[] trace, long nanos) {
        send(new WireMessage.Erred(worker, key, attempt, errorClass, message, trace, nanos));
    }

    @Override
    protected void sendOther(Message.ToScheduler message) {
        send(message);
    }

    private void send(Object body) {
        // sent at once, or with the next frame if another thread is sending one now
        batches.send(Wire.COORDINATOR, body);
    }

    /** Sends a batch as one frame; if it is over the frame limit, each message alone. */
    private void send(List<Object> bodies) {
        Address coordinator = roster.coordinator();
        if (coordinator == null) {
            LOG.log(Level.WARNING, "worker {0}: no coordinator to follow, dropped {1} messages ({2}...)", id,
                    bodies.size(), bodies.get(0).getClass().getSimpleName());
            return;
        }
        try {
            outbox.send(coordinator, frame(Wire.COORDINATOR, bodies));
        } catch (IllegalArgumentException tooLarge) {
            if (bodies.size() > 1) {
                for (Object body : bodies) {
                    send(List.of(body));
                }
                return;
            }
            // keys or a message too large for one frame: report the task failed, in few words
            Object body = bodies.get(0);
            Object shorter = body instanceof WireMessage.Finished f
                    ? new WireMessage.Erred(f.worker(), f.key(), f.attempt(), IllegalArgumentException.class.getName(),
                            "result message " + tooLarge.getMessage(), null, f.nanos())
                    : body instanceof WireMessage.Erred e && (e.trace() != null || e.message() != null)
                    ? new WireMessage.Erred(e.worker(), e.key(), e.attempt(), e.errorClass(), null, null, e.nanos())
                    : null;
            if (shorter != null) {
                send(List.of(shorter));
            } else {
                LOG.log(Level.ERROR, "worker {0} cannot send {1}: {2}", id, body.getClass().getSimpleName(),
                        tooLarge.getMessage());
            }
        }
    }

    /**
     * Asks the holder's member for the value. The fetch fails when the holder leaves the cluster
     * (see {@link #holderGone}), not only after the timeout: a dependent waiting on a dead holder
     * is told as soon as membership knows, and the scheduler recomputes the value.
     */
    @Override
    public CompletableFuture<Object> fetch(String key, int holder, int requester) {
        Address member = roster.worker(holder);
        if (member == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("worker " + holder + " is not a live member"));
        }
        CompletableFuture<Object> result = new CompletableFuture<>();
        Set<CompletableFuture<Object>> pending = inFlight.computeIfAbsent(member, a -> ConcurrentHashMap.newKeySet());
        pending.add(result);
        if (!roster.isWorker(member)) {               // it left between the two looks: holderGone may have run
            pending.remove(result);
            result.completeExceptionally(new IllegalStateException("worker " + holder + " left the cluster"));
            return result;
        }
        outbox.ask(member, frame(holder, new WireMessage.FetchRequest(key, holder, requester)), fetchTimeout)
                .whenComplete((reply, error) -> {
                    pending.remove(result);
                    if (error != null) {
                        result.completeExceptionally(error);
                        return;
                    }
                    try {
                        result.complete(open(reply, key, holder));
                    } catch (RuntimeException e) {
                        result.completeExceptionally(e);
                    }
                });
        return result;
    }

    /** A frame of this process to {@code to}. */
    private Wire.Frame frame(int to, Object body) {
        return new Wire.Frame(to, incarnation, body);
    }

    /** A frame of a batch of this process to {@code to}. */
    private Wire.Frame frame(int to, List<Object> bodies) {
        return new Wire.Frame(to, incarnation, bodies);
    }

    /** Fails the fetches in flight to a worker member that left the cluster. */
    void holderGone(Address member) {
        Set<CompletableFuture<Object>> pending = inFlight.remove(member);
        if (pending != null) {
            for (CompletableFuture<Object> f : pending) {
                f.completeExceptionally(new IllegalStateException("worker at " + member + " left the cluster"));
            }
        }
    }

    private Object open(Object reply, String key, int holder) {
        if (!(reply instanceof Wire.Frame f) || !(f.single() instanceof WireMessage.FetchReply r)) {
            String why = reply instanceof Wire.Rejected rejected ? rejected.why() : "not a fetch reply";
            rejectedFrames.refuse("fetch reply of worker " + holder, why);
            throw new SecurityException("fetch of '" + key + "' from worker " + holder + ": " + why);
        }
        return fetched(key, holder, r.key(), r.holder(), r.value(), codec::deserialize);
    }
}
