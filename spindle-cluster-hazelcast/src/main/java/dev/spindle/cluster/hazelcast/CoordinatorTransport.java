/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import dev.spindle.cluster.CoordinatorTransportSupport;
import dev.spindle.cluster.LogText;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.OutboundBatches;
import dev.spindle.cluster.Transport;
import dev.spindle.cluster.WireMessage;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The coordinator's side of the wire: the scheduler's messages go to the worker's member as
 * signed frames; frames from workers are verified, their nested results deserialised through the
 * allow-list and handed to the scheduler. Nothing is accepted from a worker once it is lost, as
 * the {@link Transport} contract requires, so a late result of a dead member cannot complete a
 * task that was already reassigned. A frame is accepted only from a worker proven in this
 * session, from its current incarnation (not from a lost process whose id rejoined), once
 * ({@link Session}), and only about that worker. Such a frame whose reports cannot be read has its
 * worker handled as lost ({@link #loseUnread}): what it reported is gone, and nothing else tells.
 *
 * <p>The scheduler addresses its messages by worker id, and an id may pass from a lost process to
 * its successor while they are queued or being encoded. So each message is bound, when it is
 * queued ({@link #toWorker}), to the process ({@link Process}: member and incarnation) the id
 * stands for then, and queued in that process's own lane of the batches; a batch is sealed for
 * and sent to its lane's process only, and only while that process is still the id's current
 * one ({@link #sendFrame}), else dropped (the scheduler places the lost process's tasks again).
 * The scheduler's cut-offs ({@link #workerLost}, {@link #retired}) lose only the process it last
 * addressed, never a successor that proved the id meanwhile; a process cut off while its member
 * stays in the cluster is told so ({@link #tellCutOff}), and leaves.
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
    /** The frame limit, the same on every member: no task's function is serialised past it. */
    private final int maxFrameBytes;
    /**
     * Workers whose process was lost and whose successor (a process proving the id again) the
     * scheduler has not admitted yet ({@link #admitting}). The scheduler goes on addressing the lost
     * process, by id alone, until it has handled {@link Message.WorkerLost}, while the roster names
     * the successor as the id's process once it proved it: without this, what the scheduler sends
     * the lost process before it handled the loss would be bound to ({@link #toWorker}), sealed
     * for and delivered to a successor that proved the id meanwhile (at once, when its claim
     * waited for the loss), which acts on it (a predecessor's numbered release drops the
     * successor's first task of that key for good).
     */
    private final Set<Integer> fenced = ConcurrentHashMap.newKeySet();

    /**
     * A process the scheduler's messages are for: worker {@code worker}'s member and incarnation
     * when they were queued, and the lane of {@link #batches} they are queued in (one per process,
     * never reused, forgotten once the process is lost: {@link #discard}).
     */
    private record Process(int worker, Member member, long incarnation, int lane) {
        boolean isFor(Member m, long i) {
            return incarnation == i && Objects.equals(member, m);
        }
    }

    /**
     * The process the scheduler addressed last under each id: the one it knows as that worker,
     * and whose lane its messages for the id are queued in.
     */
    private final ConcurrentHashMap<Integer, Process> addressed = new ConcurrentHashMap<>();
    /** Each lane's process, while it is not known to be lost ({@link #discard}). */
    private final ConcurrentHashMap<Integer, Process> lanes = new ConcurrentHashMap<>();
    private final AtomicInteger nextLane = new AtomicInteger();
    /** Run when this member's executors are found shut down while it runs ({@link #endpointStopped}). */
    private volatile Runnable onEndpointStopped = () -> { };
    /** Set by {@link #close}: no worker is told it is cut off, or retired, any more. */
    private volatile boolean closed;
    /** The process of the batch this thread is sending, for {@link #sendFrame}. */
    private final ThreadLocal<Process> sending = new ThreadLocal<>();
    /**
     * Encodes, signs and sends the scheduler's batches, so that the scheduler thread, the
     * coordinator's bottleneck, only queues its messages.
     */
    private final ExecutorService sender = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "spindle-sender");
        t.setDaemon(true);
        return t;
    });

    /**
     * Runs every resend ({@link #resend}): one thread, however many processes are being told. A
     * thread each, a worker that is cut off again and again and proves its id anew each time
     * (from a new member, the old one staying in the cluster) had one more sleeping thread per
     * cycle, each living up to {@value #RETIRED_RESEND_SECONDS} s.
     */
    private final ScheduledExecutorService resends = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "spindle-resend");
        t.setDaemon(true);
        return t;
    });
    /**
     * The resend under way per worker id and member: one each. A newer one supersedes the one
     * before, which is sealed for a process that member no longer runs as that id (it proved
     * the id again since), and would mean nothing to it.
     */
    private final ConcurrentHashMap<ResendTo, Resend> resending = new ConcurrentHashMap<>();

    CoordinatorTransport(FrameCodec codec, Roster roster, Session session, int maxFrameBytes) {
        this.codec = codec;
        this.roster = roster;
        this.session = session;
        this.outbox = new Outbox(codec, session, maxFrameBytes);
        this.maxFrameBytes = maxFrameBytes;
        this.batches = new OutboundBatches(BATCH_COUNT, BATCH_BYTES, this::sendBatch, sender);
        roster.onWorkerLost(id -> {
            // under the roster's lock, before a successor can prove the id
            fenced.add(id);
            discard(id);
            toScheduler(new Message.WorkerLost(id));
            if (endpointStopped()) {
                onEndpointStopped.run();      // starts the close on a thread of its own
            }
        });
    }

    /**
     * The scheduler has handled the loss of worker {@code id}'s last process and is about to
     * admit its successor: messages for the id are the successor's from now on. An admission of
     * the process the scheduler already addresses (the id admitted twice over: a worker that
     * proved a new id as the coordinator's start-up ended is admitted by its proof and by the
     * start-up's look at the proven workers, each on a thread of its own) drops nothing: that
     * lane is a live process's, and forgotten, every later message to the worker was dropped at
     * its send ({@link #sendBatch}), its tasks waited for good.
     */
    void admitting(int id) {
        Process last = addressed.get(id);
        if (last == null || !last.isFor(roster.worker(id), roster.incarnation(id))) {
            discard(id);                      // anything a flush raced into the lost process's queue
        }
        fenced.remove(id);
    }

    /**
     * Drops what is queued for the process the scheduler addressed last as worker {@code id}, which
     * is lost (or an earlier one, lost before), and forgets its lane: no message is sent to a lost
     * process, and a lane is never reused, so kept, a worker restarted again and again over a
     * long session left one lane more per restart, each walked by every flush. A message queued
     * for that process after this (a send racing with its loss) makes the lane anew, dropped at
     * the send ({@link #sendBatch}), and forgotten by the next call, {@link #admitting}'s.
     */
    private void discard(int id) {
        Process p = addressed.get(id);
        if (p != null) {
            lanes.remove(p.lane());
            batches.remove(p.lane());
        }
    }

    /**
     * Whether {@code p} is still its worker's current, live process: a batch bound to it may be
     * sent; otherwise the id was lost (and may have passed to a successor) since it was queued.
     */
    private boolean current(Process p) {
        return p.member() != null && !fenced.contains(p.worker()) && p.member().equals(roster.worker(p.worker()))
                && roster.incarnation(p.worker()) == p.incarnation();
    }

    /**
     * Sends one batch of the scheduler's messages to the process of lane {@code lane}, on the
     * sender thread, unless that process was lost since they were queued.
     * It must not throw ({@link OutboundBatches.Sender}): the batch has left the queue, and the
     * scheduler, whose flush only queued it, never hears of the exception, which ended the sender
     * thread with the batch, its tasks never run nor reported and their callers waiting for good
     * (a lost release also holds back every later task there, see
     * {@link Message.Compute#releases}). What escapes (an {@link Error} sealing or sending the
     * frame, an {@code OutOfMemoryError} say, or a defect) has the worker handled as lost, as the
     * scheduler does after a send or flush that throws: its tasks are placed again.
     */
    private void sendBatch(int lane, List<Object> messages) {
        Process to = lanes.get(lane);         // the process the batch was queued for
        if (to == null || !current(to)) {
            return;                           // lost since: its tasks are placed again
        }
        sending.set(to);
        try {
            sendWithinFrameLimit(to.worker(), wireForms(to.worker(), messages, f -> codec.serialize(f, maxFrameBytes)));
        } catch (RuntimeException | Error e) {
            LOG.log(Level.WARNING, "could not send " + messages.size() + " messages to worker " + to.worker()
                    + "; the worker is handled as lost", e);
            loseIfUnsent(to);
        } finally {
            sending.remove();
        }
    }

    /**
     * One frame to the worker; a frame over the limit is split by the caller. A frame that could
     * not be sent to the worker's member ({@link Outbox#send} false: Hazelcast refused the
     * invocation), or whose invocation failed after Hazelcast accepted it while the member stays
     * (the connection was reset, the member could not read it or refused it), has the worker
     * handled as lost: membership tells the scheduler only if the member left, and a refusal for
     * a member that stays (or one that left, reported twice) is otherwise a lost batch nobody
     * hears of. The later failure comes on a callback thread, after later frames may have been
     * delivered: the worker has then missed part of what the scheduler sent it, so it cannot go
     * on as it is either.
     */
    @Override
    protected void sendFrame(int worker, List<Object> bodies) {
        // only to the process the batch was queued for (it may have been lost while the batch was
        // encoded, and its successor proven and admitted); a worker that is gone gets nothing:
        // membership has told, or will tell, the scheduler
        Process to = sending.get();
        if (to == null || to.worker() != worker || !current(to)) {
            return;
        }
        int count = bodies.size();            // not the bodies: the callback outlives the send
        if (!outbox.send(to.member(), worker, to.incarnation(), bodies, failure -> {
            LOG.log(Level.WARNING, "a frame of " + count + " messages to worker " + worker
                    + " was not delivered; the worker is handled as lost", failure);
            loseIfUnsent(to);
        })) {
            if (endpointStopped()) {
                onEndpointStopped.run();
            }
            loseIfUnsent(to);
        }
    }

    /**
     * Runs {@code callback} when a frame could not be sent, or a worker was lost, while one of this
     * member's executors is shut down and the member runs ({@link #endpointStopped}); it must not
     * block. A worker whose fetch executor is shut down leaves, and so tells this coordinator,
     * whose handshakes go through that executor, that no worker can be admitted any more.
     */
    void onEndpointStopped(Runnable callback) {
        this.onEndpointStopped = Objects.requireNonNull(callback, "callback");
    }

    /**
     * Whether one of this member's executors is shut down while it runs
     * ({@link HazelcastConfigs#executorShutDown}): the coordinator cannot go on.
     */
    private boolean endpointStopped() {
        return HazelcastConfigs.executorShutDown(outbox.instance());
    }

    /**
     * Handles worker {@code to.worker()} as lost after a batch for process {@code to} could not
     * be sent, unless that process is lost already (its successor, proven meanwhile, is not), and
     * tells that process it is cut off ({@link #tellCutOff}).
     */
    private void loseIfUnsent(Process to) {
        if (lose(to)) {
            tellCutOff(to);
        }
    }

    /** Handles process {@code to} as lost unless it is already; whether this call lost it. */
    private boolean lose(Process to) {
        // onWorkerLost: fenced, discarded, WorkerLost to the scheduler
        return to.member() != null && roster.loseIfCurrent(to.worker(), to.member(), to.incarnation());
    }

    /**
     * Tells process {@code to}, which this coordinator has just cut off, that it is: its member
     * may well stay in the cluster (a frame to it was not delivered, the scheduler's send to it
     * threw, its late join was given up: {@link #cutOff}), and membership then tells it nothing;
     * nothing it sends is accepted any more and
     * nothing more is sent to it, so, untold, it sat idle for good, and a supervisor that restarts
     * a worker whose process ended never did. {@link Wire.CutOff} is sent to its member at once,
     * then again as {@link #retired} sends {@link Message.Retired}, until the member has left
     * (the worker leaves once it has the message). Sealed for that process's incarnation, it means
     * nothing to a successor that proves the id.
     */
    private void tellCutOff(Process to) {
        if (closed) {
            return;                           // this coordinator is stopping: its leaving tells every worker
        }
        resend(to.member(), to.worker(), to.incarnation(), new Wire.CutOff(to.worker()), 0);
    }

    /**
     * Cuts off worker {@code worker}'s process at {@code member} as {@code incarnation}, whose
     * late join the coordinator gave up ({@link dev.spindle.cluster.Readiness#joinLate}): handled
     * as lost (its id is free for a restarted process) and told, unless it is lost already or the
     * id has passed to a successor.
     */
    void cutOff(int worker, Member member, long incarnation) {
        loseIfUnsent(new Process(worker, member, incarnation, -1));   // no lane: nothing was queued for it
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
        } catch (FrameCodec.UnreadableBodies e) {
            loseUnread(e.envelope(), e.getMessage());
            return;
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

    /**
     * Handles as lost the worker process that signed a frame whose bodies this member cannot read
     * (counted and logged by the codec), if the frame is one it would have acted on: from a proven
     * worker's current incarnation, in this session, new. Its reports (a result, say, sent in one
     * frame with a report the codec refuses: a memory figure gone negative) are lost, and nothing
     * else tells: frames to the coordinator may overtake each other, so no gap in their numbers
     * shows the loss, and the worker took the frame as delivered. Dropped with nobody told, a
     * result's caller waited for good; the worker's tasks are now placed again, as for a frame
     * the coordinator could not send it.
     */
    private void loseUnread(Wire.Frame envelope, String why) {
        Member member = roster.worker(envelope.sender());
        long incarnation = roster.incarnation(envelope.sender());
        if (member == null || !session.accept(envelope, incarnation)) {
            return;
        }
        // why may name a class read from the frame: the sender's text
        LOG.log(Level.WARNING, "a frame from worker {0} could not be read ({1}); the worker is handled as lost",
                envelope.sender(), LogText.printable(why, Offences.MAX_DETAIL));
        loseIfUnsent(new Process(envelope.sender(), member, incarnation, -1));   // no lane: nothing is queued by this
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
        Member member = roster.worker(worker);
        long incarnation = roster.incarnation(worker);
        // read after the roster: a loss between the two fenced the id before a successor could prove it
        if (fenced.contains(worker)) {
            return;                           // for a lost process, whose loss the scheduler has yet to handle
        }
        Process to = addressed.get(worker);  // a plain read per message; compute only when the process changed
        if (to == null || !to.isFor(member, incarnation)) {
            to = addressed.compute(worker, (id, last) -> last != null && last.isFor(member, incarnation)
                    ? last : newProcess(id, member, incarnation));
        }
        batches.add(to.lane(), message);      // its wire form is made on the sender thread
    }

    private Process newProcess(int worker, Member member, long incarnation) {
        Process p = new Process(worker, member, incarnation, nextLane.getAndIncrement());
        lanes.put(p.lane(), p);
        return p;
    }

    /** Sends each worker the messages queued for it, in one frame per worker (and batch bound). */
    @Override
    public void flush() {
        batches.flush();
    }

    @Override
    public void close() {
        closed = true;
        super.close();
        sender.shutdownNow();                 // what is still queued is dropped, as Transport allows
        resends.shutdownNow();                // nobody is told anything any more
    }

    /**
     * Cuts off the process the scheduler addressed as worker {@code worker} (a send to it threw),
     * not a successor that proved the id since that process was lost: the scheduler's failed
     * send was for its predecessor, and its handling of that loss may even have let the
     * successor's admission begin ({@link #admitting}).
     */
    @Override
    public void workerLost(int worker) {
        Process known = addressed.get(worker);
        if (known != null) {
            batches.discard(known.lane());
            loseIfUnsent(known);
        }
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
        // the process the scheduler retired: if it was lost meanwhile, a successor that proved the
        // id is neither cut off nor sent Retired
        Process known = addressed.get(worker);
        if (known == null) {
            return;                           // never addressed: nothing was sent to it, nothing to cut off
        }
        batches.flush(known.lane());
        boolean live = current(known);
        lose(known);                          // not told it is cut off: Retired tells it to leave
        Member member = known.member();
        long incarnation = known.incarnation();
        if (live) {
            resend(member, worker, incarnation, new Message.Retired(worker), 1_000);
        }
    }

    static final int MAX_RETIRED_PAUSE_MILLIS = 8_000;
    static final int RETIRED_RESEND_SECONDS = 300;

    /**
     * Sends {@code body} alone to worker {@code worker}'s process {@code incarnation} at
     * {@code member} after {@code firstPause} ms, then after 1 s, then twice as long each time up
     * to {@value #MAX_RETIRED_PAUSE_MILLIS} ms, until the member has left the cluster, this
     * member stops, {@value #RETIRED_RESEND_SECONDS} s have passed, or a later resend to the same
     * worker id at the same member supersedes it ({@link #resending}). Runs on {@link #resends}.
     */
    private void resend(Member member, int worker, long incarnation, Object body, long firstPause) {
        if (member == null) {
            return;
        }
        ResendTo to = new ResendTo(worker, member.getUuid());
        Resend r = new Resend(to, member, incarnation, body,
                System.nanoTime() + TimeUnit.SECONDS.toNanos(RETIRED_RESEND_SECONDS), firstPause);
        Resend before = resending.put(to, r);
        if (before != null) {
            before.cancel();
        }
        r.schedule(firstPause);
    }

    /** Whom a {@link Resend} is for: one at a time each. */
    private record ResendTo(int worker, UUID member) {
    }

    /** One process being told, again and again, that it is cut off or retired ({@link #resend}). */
    private final class Resend implements Runnable {
        private final ResendTo to;
        private final Member member;
        private final long incarnation;
        private final Object body;
        private final long deadline;
        private long pause;                   // after the constructor, only the resends thread uses it
        private volatile ScheduledFuture<?> next;

        Resend(ResendTo to, Member member, long incarnation, Object body, long deadline, long firstPause) {
            this.to = to;
            this.member = member;
            this.incarnation = incarnation;
            this.body = body;
            this.deadline = deadline;
            this.pause = firstPause;
        }

        void schedule(long delayMillis) {
            try {
                next = resends.schedule(this, delayMillis, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException closing) {
                resending.remove(to, this);   // this member is shutting down: nobody is told anything any more
            }
        }

        void cancel() {
            ScheduledFuture<?> f = next;
            if (f != null) {
                f.cancel(false);
            }
        }

        @Override
        public void run() {
            if (resending.get(to) != this) {
                return;                       // superseded (a cancel that came too late)
            }
            try {
                HazelcastInstance hz = outbox.instance();
                if (System.nanoTime() - deadline >= 0 || closed || hz == null
                        || !hz.getLifecycleService().isRunning() || !hz.getCluster().getMembers().contains(member)) {
                    resending.remove(to, this);
                    return;
                }
                // the worker is cut off already: a resend that fails is tried again
                outbox.send(member, to.worker(), incarnation, List.of(body), failure -> { });
            } catch (RuntimeException stopping) {
                resending.remove(to, this);   // this member is shutting down: nobody is told anything any more
                return;
            }
            pause = Math.min(Math.max(2 * pause, 1_000), MAX_RETIRED_PAUSE_MILLIS);
            schedule(pause);
        }
    }
}
