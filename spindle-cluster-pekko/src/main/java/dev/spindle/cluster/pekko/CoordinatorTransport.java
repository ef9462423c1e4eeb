/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.CoordinatorTransportSupport;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.MessageCodec;
import dev.spindle.cluster.OutboundBatches;
import dev.spindle.cluster.Transport;
import dev.spindle.cluster.WireMessage;
import java.util.List;
import java.util.function.Consumer;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Address;

/**
 * The coordinator's side of the wire: the scheduler's messages go to the worker's member as
 * frames; a frame is accepted only from the member registered for the worker id it names (by the
 * sender address the message names, which Artery does not authenticate: a certificate holder can
 * name a worker's; see the module's README), its nested result deserialised through the allow-list and handed
 * to the scheduler. Nothing is accepted from a worker once it is lost, as the {@link Transport}
 * contract requires, so a late reply of a dead member cannot complete a task that was already
 * reassigned; and a frame must carry the worker's current incarnation, so a late frame of a lost
 * process is not taken for its successor's when a restarted worker rejoins under the same id (at
 * the same address or another).
 */
final class CoordinatorTransport extends CoordinatorTransportSupport implements EndpointActor.Handler {

    private static final System.Logger LOG = System.getLogger(CoordinatorTransport.class.getName());

    private final WireCodec codec;
    private final Roster roster;
    private final Outbox outbox;
    private final Refusals rejectedFrames;
    private final OutboundBatches batches;

    CoordinatorTransport(WireCodec codec, Roster roster, Outbox outbox, Refusals rejectedFrames) {
        this.codec = codec;
        this.roster = roster;
        this.outbox = outbox;
        this.rejectedFrames = rejectedFrames;
        this.batches = new OutboundBatches(MessageCodec.MAX_BATCH, codec.batchBytes(),
                // sent on the scheduler thread: with a sender thread a retired worker's process did
                // not exit in the multi-JVM test (not understood yet; the Hazelcast transport has one)
                (worker, messages) -> send(worker, wireForms(worker, messages, codec::serialize)));
    }

    void attach(Consumer<Message.ToScheduler> scheduler) {
        attachScheduler(scheduler);
    }

    @Override
    public void onRejected(Wire.Rejected rejected, ActorRef sender) {
        rejectedFrames.refuse(Senders.describe(sender), rejected.why());
    }

    @Override
    public void onFrame(Wire.Frame frame, ActorRef sender) {
        Address from = sender.path().address();
        // every report of a frame is about one worker, its sender, checked once for the frame
        int worker = WireMessage.reportedWorker(frame.bodies().get(0));
        for (Object body : frame.bodies()) {
            if (WireMessage.reportedWorker(body) != worker) {
                worker = Integer.MIN_VALUE;
            }
        }
        if (frame.to() != Wire.COORDINATOR || worker == Integer.MIN_VALUE) {
            rejectedFrames.refuse(Senders.describe(sender), "unexpected frame of "
                    + frame.bodies().get(0).getClass().getSimpleName() + (frame.bodies().size() > 1 ? ", ..." : ""));
            return;
        }
        if (!roster.accepts(worker, from, frame.incarnation())) {
            if (from.equals(roster.worker(worker))) {
                // the id's member now, but another process: a late frame of one lost or replaced
                rejectedFrames.refuse(Senders.describe(sender) + " incarnation " + frame.incarnation(),
                        "a frame of another incarnation of worker " + worker + " (a process lost or replaced)");
            } else if (!roster.wasWorker(from)) {
                rejectedFrames.refuse(Senders.describe(sender), "claims to be worker " + worker + " but is not");
            }
            return;                           // a lost worker's late reply: ignored, as promised
        }
        for (Object body : frame.bodies()) {
            deliverReport(body, codec::deserialize);
        }
    }

    @Override
    public void toWorker(int worker, Message.ToWorker message) {
        batches.add(worker, message);         // its wire form is made when the batch is sent
    }

    /** Sends each worker the messages queued for it, in one frame per worker (and batch bound). */
    @Override
    public void flush() {
        batches.flush();
    }

    /** Sends a batch as one frame; if it is over the frame limit, each message alone. */
    private void send(int worker, List<Object> bodies) {
        if (bodies.isEmpty()) {
            return;                           // every task in it failed: its function cannot travel
        }
        try {
            // a worker that is gone gets nothing; membership has told, or will tell, the scheduler
            outbox.send(roster.worker(worker), new Wire.Frame(worker, Incarnations.NONE, bodies));
        } catch (IllegalArgumentException tooLarge) {
            if (bodies.size() > 1) {
                for (Object body : bodies) {
                    send(worker, List.of(body));
                }
            } else if (bodies.get(0) instanceof WireMessage.Compute c) {
                cannotSend(worker, c.key(), c.attempt(), tooLarge);   // the whole message cannot travel
            } else {
                LOG.log(System.Logger.Level.ERROR, "cannot send {0} to worker {1}: {2}",
                        bodies.get(0).getClass().getSimpleName(), worker, tooLarge.getMessage());
            }
        }
    }

    @Override
    public void workerLost(int worker) {
        batches.discard(worker);
        roster.lose(worker);
    }

    /**
     * A retired worker is cut off as a lost one is (a new process may take its id); it was told
     * that it is retired and leaves the cluster itself, and is downed only if it has not left
     * after a while (see {@link PekkoCoordinator}).
     */
    @Override
    public void retired(int worker) {
        batches.flush(worker);                // the last message queued for it is Message.Retired
        roster.retire(worker);
    }
}
