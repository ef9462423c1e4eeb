/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.CoordinatorTransportSupport;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.Transport;
import java.util.function.Consumer;

/**
 * The coordinator's side of the wire: the scheduler's messages go to the worker's member as
 * signed frames; frames from workers are verified, their nested results deserialised through the
 * allow-list and handed to the scheduler. Nothing is accepted from a worker once it is lost, as
 * the {@link Transport} contract requires, so a late result of a dead member cannot complete a
 * task that was already reassigned. A frame is accepted only from a worker proven in this
 * session, from its current incarnation (not from a lost process whose id rejoined), once
 * ({@link Session}), and only about that worker.
 */
final class CoordinatorTransport extends CoordinatorTransportSupport implements Endpoint {

    private final FrameCodec codec;
    private final Roster roster;
    private final Outbox outbox;
    private final Session session;

    CoordinatorTransport(FrameCodec codec, Roster roster, Session session) {
        this.codec = codec;
        this.roster = roster;
        this.session = session;
        this.outbox = new Outbox(codec, session);
        roster.onWorkerLost(id -> toScheduler(new Message.WorkerLost(id)));
    }

    void attach(HazelcastInstance instance, Consumer<Message.ToScheduler> scheduler) {
        attachScheduler(scheduler);
        outbox.attach(instance);
    }

    @Override
    public void onFrame(byte[] frame) {
        Wire.Frame f;
        try {
            f = (Wire.Frame) codec.open(frame);
        } catch (SecurityException | ClassCastException e) {
            return;                           // counted and logged (once per kind) by the codec
        }
        if (roster.worker(f.sender()) == null || !session.accept(f, roster.incarnation(f.sender()))) {
            return;
        }
        if (f.body() instanceof Wire.Finished w) {
            if (w.worker() != f.sender()) {
                return;                       // a worker reports only its own results
            }
            deliverFinished(w.worker(), w.key(), w.attempt(), w.value(), w.bytes(), w.nanos(), codec::deserialize);
        } else if (f.body() instanceof Message.ToScheduler m && !(m instanceof Message.WorkerLost)
                && m.worker() == f.sender()) {
            toScheduler(m);
        }
    }

    @Override
    public byte[] onFetch(byte[] frame) {
        return null;                          // the coordinator holds no values
    }

    @Override
    public byte[] onHandshake(byte[] message) {
        return null;                          // the coordinator challenges; it answers nobody's challenge
    }

    @Override
    public void toWorker(int worker, Message.ToWorker message) {
        Object body = message;
        if (message instanceof Message.Compute c) {
            try {
                body = new Wire.Compute(c.key(), c.attempt(), codec.serialize(c.function()), c.dependencies(),
                        c.holders(), c.priority());
            } catch (IllegalArgumentException notSerializable) {
                cannotSend(worker, c, notSerializable);
                return;
            }
        }
        // a worker that is gone gets nothing; membership has told, or will tell, the scheduler
        outbox.send(roster.worker(worker), worker, body);
    }

    @Override
    public void workerLost(int worker) {
        roster.lose(worker);
    }

    /** A retired worker is cut off as a lost one is: nothing more to or from it in this session. */
    @Override
    public void retired(int worker) {
        roster.lose(worker);
    }
}
