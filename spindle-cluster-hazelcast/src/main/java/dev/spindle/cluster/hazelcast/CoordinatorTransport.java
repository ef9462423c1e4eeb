/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.CoordinatorTransportSupport;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.OutboundBatches;
import dev.spindle.cluster.Transport;
import dev.spindle.cluster.WireMessage;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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

    private static final System.Logger LOG = System.getLogger(CoordinatorTransport.class.getName());

    /** The most messages in one frame to a worker. */
    static final int BATCH_COUNT = 512;
    /** About the most bytes in one frame to a worker (a single larger message travels alone). */
    static final long BATCH_BYTES = 1 << 20;

    private final FrameCodec codec;
    private final Roster roster;
    private final Outbox outbox;
    private final Session session;
    private final OutboundBatches batches;
    /**
     * Workers whose process was lost and whose successor (a process proving the id again) the
     * scheduler has not admitted yet ({@link #admitting}). The scheduler goes on addressing the lost
     * process until it has handled {@link Message.WorkerLost}, and messages are addressed by id
     * alone, their member and incarnation read when the batch is sent: without this, what was
     * queued for the lost process, or sent to it before the scheduler handled its loss, would be
     * sealed for and delivered to a successor that proved the id meanwhile (at once, when its claim
     * waited for the loss), which acts on it (a predecessor's numbered release drops the
     * successor's first task of that key for good).
     */
    private final Set<Integer> fenced = ConcurrentHashMap.newKeySet();
    /**
     * Encodes, signs and sends the scheduler's batches, so that the scheduler thread, the
     * coordinator's bottleneck, only queues its messages.
     */
    private final ExecutorService sender = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "spindle-sender");
        t.setDaemon(true);
        return t;
    });

    CoordinatorTransport(FrameCodec codec, Roster roster, Session session, int maxFrameBytes) {
        this.codec = codec;
        this.roster = roster;
        this.session = session;
        this.outbox = new Outbox(codec, session, maxFrameBytes);
        this.batches = new OutboundBatches(BATCH_COUNT, BATCH_BYTES, this::sendBatch, sender);
        roster.onWorkerLost(id -> {
            // under the roster's lock, before a successor can prove the id
            fenced.add(id);
            batches.discard(id);
            toScheduler(new Message.WorkerLost(id));
        });
    }

    /**
     * The scheduler has handled the loss of worker {@code id}'s last process and is about to
     * admit its successor: messages for the id are the successor's from now on.
     */
    void admitting(int id) {
        batches.discard(id);                  // anything a flush raced into the queue meanwhile
        fenced.remove(id);
    }

    /**
     * Sends one batch of the scheduler's messages to worker {@code worker}, on the sender thread.
     * It must not throw ({@link OutboundBatches.Sender}): the batch has left the queue, and the
     * scheduler, whose flush only queued it, never hears of the exception, which ended the sender
     * thread with the batch, its tasks never run nor reported and their callers waiting for good
     * (a lost release also holds back every later task there, see
     * {@link Message.Compute#releases}). What escapes (an {@link Error} sealing or sending the
     * frame, an {@code OutOfMemoryError} say, or a defect) has the worker handled as lost, as the
     * scheduler does after a send or flush that throws: its tasks are placed again.
     */
    private void sendBatch(int worker, List<Object> messages) {
        Member member = roster.worker(worker);   // the process the batch is for
        try {
            sendWithinFrameLimit(worker, wireForms(worker, messages, codec::serialize));
        } catch (RuntimeException | Error e) {
            LOG.log(Level.WARNING, "could not send " + messages.size() + " messages to worker " + worker
                    + "; the worker is handled as lost", e);
            loseIfUnsent(worker, member);
        }
    }

    /**
     * One frame to the worker; a frame over the limit is split by the caller. A frame that could
     * not be sent to the worker's member ({@link Outbox#send} false: Hazelcast refused the
     * invocation) has the worker handled as lost: membership tells the scheduler only if the
     * member left, and a refusal for a member that stays (or one that left, reported twice) is
     * otherwise a lost batch nobody hears of.
     */
    @Override
    protected void sendFrame(int worker, List<Object> bodies) {
        // a worker that is gone gets nothing; membership has told, or will tell, the scheduler
        Member member = roster.worker(worker);
        long incarnation = roster.incarnation(worker);
        if (fenced.contains(worker)) {
            return;                           // a batch for a lost process: never for its successor
        }
        if (!outbox.send(member, worker, incarnation, bodies)) {
            loseIfUnsent(worker, member);
        }
    }

    /**
     * Handles worker {@code worker} as lost after a batch for {@code member}'s process could not
     * be sent, unless that process is lost already (its successor, proven meanwhile, is not).
     */
    private void loseIfUnsent(int worker, Member member) {
        if (member != null && !fenced.contains(worker)) {
            roster.loseIfHeldBy(worker, member);   // onWorkerLost: fenced, discarded, WorkerLost to the scheduler
        }
    }

    void attach(HazelcastInstance instance, Consumer<Message.ToScheduler> scheduler) {
        attachScheduler(scheduler);
        outbox.attach(instance);
    }

    @Override
    public void onFrame(byte[] frame) {
        Wire.Frame f;
        try {
            f = codec.open(frame);
        } catch (SecurityException e) {
            return;                           // counted and logged (once per kind) by the codec
        }
        if (roster.worker(f.sender()) == null || !session.accept(f, roster.incarnation(f.sender()))) {
            return;
        }
        for (Object body : f.bodies()) {
            if (WireMessage.reportedWorker(body) == f.sender()) {     // a worker reports only about itself
                deliverReport(body, codec::deserialize);
            }
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
        if (fenced.contains(worker)) {
            return;                           // for a lost process, whose loss the scheduler has yet to handle
        }
        batches.add(worker, message);         // its wire form is made on the sender thread
    }

    /** Sends each worker the messages queued for it, in one frame per worker (and batch bound). */
    @Override
    public void flush() {
        batches.flush();
    }

    @Override
    public void close() {
        super.close();
        sender.shutdownNow();                 // what is still queued is dropped, as Transport allows
    }

    @Override
    public void workerLost(int worker) {
        batches.discard(worker);
        roster.lose(worker);
    }

    /**
     * A retired worker is cut off as a lost one is: nothing more to or from it in this session,
     * once the messages queued for it (the last being {@link Message.Retired}) have left. But
     * Hazelcast delivers that frame at most once, and a worker that never gets it would run on,
     * cut off: so {@link Message.Retired} alone is sent to its member again, after 1 s, then
     * twice as long each time up to {@value #MAX_RETIRED_PAUSE_MILLIS} ms, until the member has
     * left the cluster (which it does once it has the message: its leaving is the acknowledgement),
     * this member stops, or {@value #RETIRED_RESEND_SECONDS} s have passed. The worker takes a
     * repeated one as the first (it only completes its retirement).
     */
    @Override
    public void retired(int worker) {
        Member member = roster.worker(worker);
        long incarnation = roster.incarnation(worker);
        batches.flush(worker);
        roster.lose(worker);
        if (member != null) {
            Thread t = new Thread(() -> resendRetired(member, worker, incarnation), "spindle-retired-" + worker);
            t.setDaemon(true);
            t.start();
        }
    }

    static final int MAX_RETIRED_PAUSE_MILLIS = 8_000;
    static final int RETIRED_RESEND_SECONDS = 300;

    private void resendRetired(Member member, int worker, long incarnation) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RETIRED_RESEND_SECONDS);
        long pause = 1_000;
        try {
            while (System.nanoTime() - deadline < 0) {
                Thread.sleep(pause);
                HazelcastInstance hz = outbox.instance();
                if (hz == null || !hz.getLifecycleService().isRunning() || !hz.getCluster().getMembers().contains(member)) {
                    return;
                }
                outbox.send(member, worker, incarnation, List.of(new Message.Retired(worker)));
                pause = Math.min(2 * pause, MAX_RETIRED_PAUSE_MILLIS);
            }
        } catch (InterruptedException | RuntimeException stopping) {
            // this member is shutting down: nobody is told anything any more
        }
    }
}
