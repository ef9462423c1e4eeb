/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.CoordinatorTransportSupport;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.RemoteTaskException;
import dev.spindle.cluster.Transport;
import java.util.function.Consumer;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Address;

/**
 * The coordinator's side of the wire: the scheduler's messages go to the worker's member as
 * frames; a frame is accepted only from the member registered for the worker id it names (its
 * address authenticated by TLS), its nested result deserialised through the allow-list and handed
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

    CoordinatorTransport(WireCodec codec, Roster roster, Outbox outbox, Refusals rejectedFrames) {
        this.codec = codec;
        this.roster = roster;
        this.outbox = outbox;
        this.rejectedFrames = rejectedFrames;
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
        Object body = frame.body();
        int worker = body instanceof Wire.Finished f ? f.worker()
                : body instanceof Wire.Erred e ? e.worker()
                : body instanceof Message.ToScheduler m && !(m instanceof Message.WorkerLost) ? m.worker()
                : Integer.MIN_VALUE;
        if (frame.to() != Wire.COORDINATOR || worker == Integer.MIN_VALUE) {
            rejectedFrames.refuse(Senders.describe(sender), "unexpected frame " + body.getClass().getSimpleName());
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
        if (body instanceof Wire.Finished w) {
            deliverFinished(w.worker(), w.key(), w.attempt(), w.value(), w.bytes(), w.nanos(), codec::deserialize);
        } else if (body instanceof Wire.Erred e) {
            toScheduler(new Message.TaskErred(e.worker(), e.key(), e.attempt(),
                    new RemoteTaskException(e.errorClass(), e.message(), e.trace()), e.nanos()));
        } else {
            toScheduler((Message.ToScheduler) body);
        }
    }

    @Override
    public void toWorker(int worker, Message.ToWorker message) {
        try {
            Object body = message instanceof Message.Compute c
                    ? new Wire.Compute(c.key(), c.attempt(), codec.serialize(c.function()), c.dependencies(), c.holders(),
                            c.priority())
                    : message;
            // a worker that is gone gets nothing; membership has told, or will tell, the scheduler
            outbox.send(roster.worker(worker), new Wire.Frame(worker, body));
        } catch (IllegalArgumentException cannotTravel) {
            if (message instanceof Message.Compute c) {
                cannotSend(worker, c, cannotTravel);    // the function (or the whole message) cannot travel
            } else {
                LOG.log(System.Logger.Level.ERROR, "cannot send {0} to worker {1}: {2}",
                        message.getClass().getSimpleName(), worker, cannotTravel.getMessage());
            }
        }
    }

    @Override
    public void workerLost(int worker) {
        roster.lose(worker);
    }

    /**
     * A retired worker is cut off as a lost one is (a new process may take its id); it was told
     * that it is retired and leaves the cluster itself, and is downed only if it has not left
     * after a while (see {@link PekkoCoordinator}).
     */
    @Override
    public void retired(int worker) {
        roster.retire(worker);
    }
}
