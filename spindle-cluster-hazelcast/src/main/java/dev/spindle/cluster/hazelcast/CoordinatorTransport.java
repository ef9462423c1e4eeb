/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.Transport;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The coordinator's side of the wire: the scheduler's messages go to the worker's member as
 * signed frames; frames from workers are verified, their nested results deserialised through the
 * allow-list and handed to the scheduler. Nothing is accepted from a worker once it is lost, as
 * the {@link Transport} contract requires, so a late result of a dead member cannot complete a
 * task that was already reassigned. A frame is accepted only from a worker proven in this
 * session, once ({@link Session}), and only about that worker.
 */
final class CoordinatorTransport implements Transport, Endpoint {

    private final FrameCodec codec;
    private final Roster roster;
    private final Outbox outbox;
    private final Session session;
    private final ConcurrentHashMap<Integer, AtomicLong> finished = new ConcurrentHashMap<>();
    private volatile Consumer<Message.ToScheduler> scheduler = m -> { };

    CoordinatorTransport(FrameCodec codec, Roster roster, Session session) {
        this.codec = codec;
        this.roster = roster;
        this.session = session;
        this.outbox = new Outbox(codec, session);
        roster.onWorkerLost(id -> scheduler.accept(new Message.WorkerLost(id)));
    }

    void attach(HazelcastInstance instance, Consumer<Message.ToScheduler> scheduler) {
        this.scheduler = scheduler;
        outbox.attach(instance);
    }

    /** Results received from worker {@code id} and handed to the scheduler. */
    long finishedOn(int id) {
        AtomicLong n = finished.get(id);
        return n == null ? 0 : n.get();
    }

    @Override
    public void onFrame(byte[] frame) {
        Wire.Frame f;
        try {
            f = (Wire.Frame) codec.open(frame);
        } catch (SecurityException | ClassCastException e) {
            return;                           // counted and logged (once per kind) by the codec
        }
        if (roster.worker(f.sender()) == null || !session.accept(f)) {
            return;
        }
        if (f.body() instanceof Wire.Finished w) {
            if (w.worker() != f.sender()) {
                return;                       // a worker reports only its own results
            }
            Message.ToScheduler m;
            try {
                m = new Message.TaskFinished(w.worker(), w.key(), w.attempt(), codec.deserialize(w.value()),
                        w.bytes(), w.nanos());
                finished.computeIfAbsent(w.worker(), k -> new AtomicLong()).incrementAndGet();
            } catch (SecurityException e) {
                m = new Message.TaskErred(w.worker(), w.key(), w.attempt(),
                        new RemoteTaskException("result of task '" + w.key() + "' refused: " + e.getMessage()), w.nanos());
            }
            scheduler.accept(m);
        } else if (f.body() instanceof Message.ToScheduler m && !(m instanceof Message.WorkerLost)
                && m.worker() == f.sender()) {
            scheduler.accept(m);
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
                // the function cannot travel: the task errs (after its retries) instead of hanging
                scheduler.accept(new Message.TaskErred(worker, c.key(), c.attempt(), notSerializable, 0));
                return;
            }
        }
        // a worker that is gone gets nothing; membership has told, or will tell, the scheduler
        outbox.send(roster.worker(worker), worker, body);
    }

    @Override
    public void toScheduler(Message.ToScheduler message) {
        scheduler.accept(message);
    }

    @Override
    public CompletableFuture<Object> fetch(String key, int holder, int requester) {
        throw new UnsupportedOperationException("workers fetch from each other; the coordinator holds no values");
    }

    @Override
    public void workerLost(int worker) {
        roster.lose(worker);
    }

    @Override
    public long bytesTransferred() {
        return 0;
    }

    @Override
    public void close() {
        scheduler = m -> { };
    }
}
