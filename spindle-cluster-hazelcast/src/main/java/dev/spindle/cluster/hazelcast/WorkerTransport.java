/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.ExecutionCallback;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.Transport;
import dev.spindle.cluster.WorkerNode;
import java.lang.System.Logger.Level;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The worker member's side of the wire: it opens the coordinator's frames for its
 * {@link WorkerNode}, sends the node's reports to the coordinator, fetches dependencies from the
 * holder member and serves its own values to other workers. Results travel to the coordinator
 * with {@link Message.TaskFinished} (the client's future needs the value) and stay in the
 * worker's store for dependents.
 */
final class WorkerTransport implements Transport, Endpoint {

    private static final System.Logger LOG = System.getLogger(WorkerTransport.class.getName());

    private final int id;
    private final FrameCodec codec;
    private final Roster roster;
    private final Outbox outbox;
    private final AtomicLong bytes = new AtomicLong();
    private final java.util.concurrent.ConcurrentLinkedQueue<Object> held = new java.util.concurrent.ConcurrentLinkedQueue<>();
    private volatile WorkerNode node;

    WorkerTransport(int id, FrameCodec codec, Roster roster) {
        this.id = id;
        this.codec = codec;
        this.roster = roster;
        this.outbox = new Outbox(codec);
        roster.onCoordinator(this::flushHeld);
    }

    void attach(WorkerNode node, HazelcastInstance instance) {
        this.node = node;
        outbox.attach(instance);
    }

    // ---- inbound ---------------------------------------------------------------------------

    @Override
    public void onFrame(byte[] frame) {
        WorkerNode n = node;
        Wire.Frame f = open(frame, Wire.Frame.class);
        if (f == null || n == null || f.to() != id) {
            return;
        }
        if (f.body() instanceof Wire.Compute c) {
            Object function;
            try {
                function = codec.deserialize(c.function());
            } catch (SecurityException e) {
                toScheduler(new Message.TaskErred(id, c.key(), c.attempt(),
                        new RemoteTaskException("function of task '" + c.key() + "' refused: " + e.getMessage()), 0));
                return;
            }
            n.receive(new Message.Compute(c.key(), c.attempt(), (dev.spindle.cluster.TaskFunction<?>) function,
                    c.dependencies(), c.holders(), c.priority()));
        } else if (f.body() instanceof Message.ToWorker m) {
            n.receive(m);
        }
    }

    @Override
    public byte[] onFetch(byte[] frame) {
        WorkerNode n = node;
        Wire.FetchRequest r = open(frame, Wire.FetchRequest.class);
        if (r == null || n == null || r.holder() != id) {
            return null;
        }
        if (r.requester() == Wire.COORDINATOR && roster.coordinator(outbox.cluster()) == null) {
            return null;                      // the coordinator's readiness probe: not yet
        }
        Object value = n.value(r.key());
        return codec.seal(new Wire.FetchReply(r.key(), id, value == null ? null : codec.serialize(value)));
    }

    /** The verified frame's payload if it is a {@code type}; else logs and returns {@code null}. */
    private <T> T open(byte[] frame, Class<T> type) {
        try {
            return type.cast(codec.open(frame));
        } catch (SecurityException | ClassCastException e) {
            LOG.log(Level.WARNING, "worker {0} dropped a frame: {1}", id, e.getMessage());
            return null;
        }
    }

    // ---- outbound --------------------------------------------------------------------------

    @Override
    public void toScheduler(Message.ToScheduler message) {
        Object body = message;
        if (message instanceof Message.TaskFinished f) {
            try {
                body = new Wire.Finished(f.worker(), f.key(), f.attempt(), codec.serialize(f.value()), f.bytes(),
                        f.nanos());
            } catch (IllegalArgumentException notSerializable) {
                // a Sized value that cannot travel: the task errs rather than vanish
                body = new Message.TaskErred(f.worker(), f.key(), f.attempt(),
                        new RemoteTaskException("result of '" + f.key() + "' " + notSerializable.getMessage()), f.nanos());
            }
        } else if (message instanceof Message.TaskErred e && !(e.error() instanceof RemoteTaskException)) {
            body = new Message.TaskErred(e.worker(), e.key(), e.attempt(), new RemoteTaskException(e.error()), e.nanos());
        }
        if (roster.coordinator(outbox.cluster()) == null) {
            // the coordinator can send before this member's list shows it: hold the report until
            // the coordinator is admitted rather than lose a result
            held.add(body);
            LOG.log(Level.DEBUG, "worker {0}: coordinator not known yet, holding {1}", id, body.getClass().getSimpleName());
            if (roster.coordinator(outbox.cluster()) != null) {
                flushHeld();
            }
            return;
        }
        flushHeld();
        send(body);
    }

    private void send(Object body) {
        if (!outbox.send(roster.coordinator(outbox.cluster()), Wire.COORDINATOR, body)) {
            LOG.log(Level.WARNING, "worker {0}: coordinator unreachable, dropped {1}", id,
                    body.getClass().getSimpleName());
        }
    }

    /** Sends the reports held while the coordinator was unknown, oldest first. */
    private void flushHeld() {
        for (Object body; (body = held.poll()) != null; ) {
            send(body);
        }
    }

    @Override
    public CompletableFuture<Object> fetch(String key, int holder, int requester) {
        CompletableFuture<Object> result = new CompletableFuture<>();
        Member member = roster.worker(holder, outbox.cluster());
        HazelcastInstance hz = outbox.instance();
        if (member == null || hz == null) {
            result.completeExceptionally(new IllegalStateException("worker " + holder + " is not a live member"));
            return result;
        }
        byte[] request = codec.seal(new Wire.FetchRequest(key, holder, requester));
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
            Wire.FetchReply r = (Wire.FetchReply) codec.open(reply);
            if (!r.key().equals(key) || r.holder() != holder) {
                throw new SecurityException("reply for '" + r.key() + "' from " + r.holder() + " answers another fetch");
            }
            if (r.value() == null) {
                throw new IllegalStateException("worker " + holder + " does not hold '" + key + "'");
            }
            Object value = codec.deserialize(r.value());
            bytes.addAndGet(r.value().length);
            result.complete(value);
        } catch (RuntimeException e) {
            result.completeExceptionally(e);
        }
    }

    @Override
    public void toWorker(int worker, Message.ToWorker message) {
        throw new UnsupportedOperationException("a worker does not send to workers");
    }

    @Override
    public void workerLost(int worker) {
        throw new UnsupportedOperationException("only the coordinator declares workers lost");
    }

    @Override
    public long bytesTransferred() {
        return bytes.get();
    }

    @Override
    public void close() {
        node = null;
    }
}
