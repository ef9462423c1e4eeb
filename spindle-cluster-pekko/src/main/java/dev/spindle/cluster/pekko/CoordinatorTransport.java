/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.CoordinatorTransportSupport;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.LogText;
import dev.spindle.cluster.Message;
import dev.spindle.cluster.MessageCodec;
import dev.spindle.cluster.OutboundBatches;
import dev.spindle.cluster.Transport;
import dev.spindle.cluster.WireMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Address;

/**
 * The coordinator's side of the wire: the scheduler's messages go to the worker's member as
 * frames sealed with the key it shares with that worker's process ({@link KeyExchange}, run by
 * {@link #probe}); a frame is accepted only in the name of the member registered for the worker
 * id it names and only if that process's key seals it (the sender a message names is not
 * authenticated by Artery: the seal is what proves it), its nested result deserialised through
 * the allow-list and handed to the scheduler. Nothing is accepted from a worker once it is lost, as the {@link Transport}
 * contract requires, so a late reply of a dead member cannot complete a task that was already
 * reassigned; and a frame must carry the worker's current incarnation, so a late frame of a lost
 * process is not taken for its successor's when a restarted worker rejoins under the same id (at
 * the same address or another). The scheduler's cut-offs ({@link #workerLost}, {@link #retired})
 * lose only the process it addresses, never a successor that proved the id meanwhile; and a frame
 * to a worker that Artery drops (its outbound queue full, see {@link EndpointActor}) has that
 * worker handled as lost, its tasks placed again, rather than waited for.
 *
 * <p>The frames of each link, to a worker process and from it, are numbered ({@link Link},
 * {@link Wire.Frame#seq()}): a frame lost without a drop event (Artery loses what is in flight
 * when a TCP connection restarts, and both members stay) leaves a gap, and a worker whose frame
 * arrives after a gap is handled as lost, as for a drop. {@link #mark} sends each link that has
 * carried frames a marker every {@link Wire#MARK_INTERVAL}, so that the loss of a link's last
 * frame is seen too; the worker does the same, so a lost report is seen here within about that
 * interval once the link delivers again.
 */
final class CoordinatorTransport extends CoordinatorTransportSupport implements EndpointActor.Handler {

    private static final System.Logger LOG = System.getLogger(CoordinatorTransport.class.getName());
    /** Runs in {@link #mark} before each worker's marker is sent; for tests that have a marker throw. */
    static volatile Runnable beforeMarkForTests = () -> { };

    private final WireCodec codec;
    private final Roster roster;
    private final Outbox outbox;
    private final Refusals rejectedFrames;
    private final OutboundBatches batches;
    private final KeyExchange.Offers offers;
    /**
     * Workers whose process was lost and whose successor (a process proving the id again) the
     * scheduler has not admitted yet ({@link #admitting}). The scheduler goes on addressing the lost
     * process until it has handled {@link Message.WorkerLost}, and messages are addressed by id
     * alone, their address, incarnation and key read when the batch is sent: without this, what
     * was queued for the lost process, or sent to it before the scheduler handled its loss, would
     * be sealed for and delivered to a successor that proved the id meanwhile (at once, when its
     * claim waited for the loss) and whose key a probe settled (another worker's late join probes
     * every live worker), which acts on it (a predecessor's numbered release drops the successor's
     * first task of that key for good).
     */
    private final Set<Integer> fenced = ConcurrentHashMap.newKeySet();
    /** The numbering of the frames to each worker id's current process (a new process, a new link). */
    private final ConcurrentHashMap<Integer, Link> sending = new ConcurrentHashMap<>();
    /** The numbering of the frames from each worker id's current process. */
    private final ConcurrentHashMap<Integer, Link> receiving = new ConcurrentHashMap<>();

    CoordinatorTransport(WireCodec codec, Roster roster, Outbox outbox, Refusals rejectedFrames) {
        this.codec = codec;
        this.roster = roster;
        this.outbox = outbox;
        this.rejectedFrames = rejectedFrames;
        this.offers = new KeyExchange.Offers(roster::incarnation);
        this.batches = new OutboundBatches(MessageCodec.MAX_BATCH, codec.batchBytes(),
                // sent on the scheduler thread: with a sender thread a retired worker's process did
                // not exit in the multi-JVM test (not understood yet; the Hazelcast transport has one)
                (worker, messages) -> sendWithinFrameLimit(worker, wireForms(worker, messages, codec::serialize)));
        roster.onWorkerFenced(id -> {
            // under the roster's lock, before a successor can prove the id
            fenced.add(id);
            batches.discard(id);
        });
    }

    /**
     * The scheduler has handled the loss of worker {@code id}'s last process and is about to
     * admit its successor: messages for the id are the successor's from now on (what is still
     * queued was the lost process's). Only a fenced id has a lost process's messages queued: an
     * id admitted twice over (a worker up as the coordinator's start-up ended is admitted for
     * its coming up and by the start-up's look at the live workers, each on a thread of its own)
     * is not fenced the second time, and what is queued then is the live worker's, a task among
     * it, which dropped here never ran nor was placed again.
     */
    void admitting(int id) {
        if (fenced.contains(id)) {
            batches.discard(id);
        }
        fenced.remove(id);
    }

    void attach(Consumer<Message.ToScheduler> scheduler) {
        attachScheduler(scheduler);
    }

    @Override
    public void onRejected(Wire.Rejected rejected, ActorRef sender) {
        rejectedFrames.refuse(Senders.describe(sender), rejected.why());
    }

    @Override
    public void onFrame(Wire.Received received, ActorRef sender) {
        Wire.Frame frame = received.frame();
        Address from = sender.path().address();
        // every report of a frame is about one worker, its sender, checked once for the frame
        int worker = reporter(frame.bodies().get(0));
        for (Object body : frame.bodies()) {
            if (reporter(body) != worker) {
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
        if (!received.sealedBy(offers.key(worker, frame.incarnation()))) {
            rejectedFrames.refuse(Senders.describe(sender) + " as worker " + worker,
                    "a frame not sealed with worker " + worker + "'s key (another member naming it as sender?)");
            return;
        }
        Link link = link(receiving, worker, frame.incarnation());
        if (!link.received(frame.seq())) {
            // frames of the worker's were lost in transit: a result or report it will never send again
            if (roster.loseIfCurrent(worker, from, frame.incarnation())) {
                LOG.log(System.Logger.Level.WARNING, "frames from worker {0} at {1} were lost in transit (frame {2}"
                        + " arrived, {3} expected); the worker is handled as lost", worker,
                        LogText.printable(from, Refusals.MAX_NAME), frame.seq(),
                        link.expected());
            }
            return;
        }
        for (Object body : frame.bodies()) {
            if (!(body instanceof Wire.Mark)) {
                deliverReport(body, codec::deserialize);
            }
        }
    }

    /** The worker a body of a worker's frame is about ({@link WireMessage#reportedWorker}), a marker's too. */
    private static int reporter(Object body) {
        return body instanceof Wire.Mark m ? m.worker() : WireMessage.reportedWorker(body);
    }

    /** The link of worker {@code id}'s process {@code incarnation}: a new one for a new process. */
    private static Link link(ConcurrentHashMap<Integer, Link> links, int id, long incarnation) {
        Link current = links.get(id);          // a plain read per frame; a compute only for a new process
        if (current != null && current.incarnation == incarnation) {
            return current;
        }
        return links.compute(id, (i, l) -> l != null && l.incarnation == incarnation ? l : new Link(incarnation));
    }

    /**
     * Sends a marker ({@link Wire.Mark}) on the link to every worker process it has sent frames
     * to, so that the worker notices the loss of the last frame before it; every
     * {@link Wire#MARK_INTERVAL}. Never throws, not even an Error (it runs on Pekko's scheduler,
     * which runs it no more once it throws).
     */
    void mark() {
        for (int id : roster.liveIds()) {
            try {
                beforeMarkForTests.run();
                Incarnations.Claim<Address> process = addressed(id);
                Link link = process == null ? null : sending.get(id);
                PairKey key = process == null ? null : offers.key(id, process.incarnation());
                if (link != null && key != null && link.incarnation == process.incarnation()) {
                    link.mark(seq -> outbox.send(process.holder(),
                            new Wire.Frame(id, Incarnations.NONE, seq, List.of(new Wire.Mark(id))), key));
                }
            } catch (RuntimeException | Error e) {
                // an Error too: Pekko's fixed-delay schedule ends when a run throws, and with it every
                // later marker, so that the loss of a link's last frame would go unseen for good
                LOG.log(System.Logger.Level.WARNING, "cannot send worker {0} a marker: {1}", id, e.toString());
            }
        }
    }

    @Override
    public void toWorker(int worker, Message.ToWorker message) {
        if (fenced.contains(worker)) {
            return;                           // for a lost process, whose loss the scheduler has yet to handle
        }
        batches.add(worker, message);         // its wire form is made when the batch is sent
    }

    /** Sends each worker the messages queued for it, in one frame per worker (and batch bound). */
    @Override
    public void flush() {
        batches.flush();
    }

    /** One frame to the worker, sealed; a frame over the limit is split by the caller. */
    @Override
    protected void sendFrame(int worker, List<Object> bodies) {
        Incarnations.Claim<Address> process = roster.process(worker);
        if (process == null || fenced.contains(worker)) {
            // gone: membership has told, or will tell, the scheduler; a batch for a lost process
            // is never its successor's
            return;
        }
        Address member = process.holder();
        PairKey key = offers.key(worker, process.incarnation());
        if (key == null) {
            // the scheduler admits a worker only once it is ready, after the key exchange
            IllegalStateException unkeyed = new IllegalStateException("worker " + worker
                    + " has not completed its key exchange with the coordinator");
            for (Object body : bodies) {
                if (body instanceof WireMessage.Compute c) {
                    cannotSend(worker, c.key(), c.attempt(), unkeyed);
                } else {
                    LOG.log(System.Logger.Level.ERROR, "cannot send {0} to worker {1}: {2}",
                            body.getClass().getSimpleName(), worker, unkeyed.getMessage());
                }
            }
            return;
        }
        link(sending, worker, process.incarnation()).send(seq ->
                outbox.send(member, new Wire.Frame(worker, Incarnations.NONE, seq, bodies), key));
    }

    /**
     * Probes worker {@code id}: whether its process follows this coordinator, knows the current
     * process of each other worker of {@code workers} (a worker refuses a fetch from a process it
     * does not know; a count would not do, since a worker may still know a process this
     * coordinator has lost, and not yet the one that joined), and shares a key with this
     * coordinator (the probe runs {@link KeyExchange}: a first probe offers the token, and once
     * answered a sealed probe must get a sealed answer). Blocks for up to a few seconds per probe.
     *
     * @param workers the workers {@code id} must know ({@code id} itself may be among them); one
     *     that has no live process by the time the answer arrives is left out
     * @return whether the worker is ready for work
     */
    boolean probe(int id, List<Integer> workers) throws InterruptedException {
        for (int round = 0; round < 2; round++) {
            Incarnations.Claim<Address> process = roster.process(id);
            if (process == null) {
                return false;
            }
            Address member = process.holder();
            long incarnation = process.incarnation();
            byte[] offer = offers.offer(id, incarnation);
            if (offer == null) {
                return false;                 // another process has taken the id since: probe that one
            }
            PairKey key = offers.key(id, incarnation);
            Object reply;
            try {
                reply = outbox.ask(member, new Wire.Frame(id, new Wire.Probe(id, offer)), key == null ? Wire.Seal.NONE : key,
                        Duration.ofSeconds(2)).toCompletableFuture().get(3, TimeUnit.SECONDS);
            } catch (ExecutionException | TimeoutException e) {
                return false;
            }
            if (!(reply instanceof Wire.Received r) || !(r.frame().single() instanceof Wire.ProbeReply answer)
                    || answer.worker() != id || r.frame().incarnation() != incarnation) {
                return false;
            }
            if (!offers.answered(id, incarnation, answer.echo(), answer.token())) {
                rejectedFrames.refuse("a probe reply in worker " + id + "'s name",
                        "it does not echo this coordinator's offer, or changes the worker's token (forged?)");
                return false;
            }
            if (r.sealedBy(offers.key(id, incarnation))) {
                return knowsAll(answer.peers(), id, workers);
            }
            // answered, not sealed yet: probe again, sealed (the sealed probe carries the offer again)
        }
        return false;
    }

    /** Whether {@code peers}, as worker {@code id} answered, holds the live process of each other of {@code workers}. */
    private boolean knowsAll(Map<Integer, Long> peers, int id, List<Integer> workers) {
        for (int other : workers) {
            Incarnations.Claim<Address> process = other == id ? null : roster.process(other);
            if (process != null && !Long.valueOf(process.incarnation()).equals(peers.get(other))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The process the scheduler addresses as worker {@code worker}: the id's live process, unless
     * the process the scheduler knows was lost and the id is fenced ({@link #fenced}), when the
     * live process, if any, is a successor the scheduler has not admitted yet; else {@code null}.
     * The process is read before the fence: a loss between the two reads leaves a process that
     * is no longer the id's, which {@link Roster#loseIfCurrent} and {@link Roster#retire} leave
     * alone.
     */
    private Incarnations.Claim<Address> addressed(int worker) {
        Incarnations.Claim<Address> process = roster.process(worker);
        return process == null || fenced.contains(worker) ? null : process;
    }

    /**
     * Cuts off the process the scheduler addressed as worker {@code worker} (a send to it threw),
     * not a successor that proved the id since that process was lost: the scheduler's failed
     * send was for its predecessor, whose loss is reported already.
     */
    @Override
    public void workerLost(int worker) {
        batches.discard(worker);
        Incarnations.Claim<Address> process = addressed(worker);
        if (process != null) {
            roster.loseIfCurrent(worker, process.holder(), process.incarnation());
        }
    }

    /**
     * A retired worker is cut off as a lost one is (a new process may take its id); it was told
     * that it is retired and leaves the cluster itself, and is downed only if it has not left
     * after a while (see {@link PekkoCoordinator}). Only the process the scheduler retired is cut
     * off: if it was lost meanwhile, a successor that proved the id is spared.
     */
    @Override
    public void retired(int worker) {
        batches.flush(worker);                // the last message queued for it is Message.Retired
        Incarnations.Claim<Address> process = addressed(worker);
        if (process != null) {
            roster.retire(worker, process.holder(), process.incarnation());
        }
    }

    /**
     * Artery dropped a frame of ours to {@code member} (its outbound queue to that member was
     * full): the worker there missed messages of its stream (a task, a release) and is handled as
     * lost, its tasks placed again, as for any lost worker, rather than waited for.
     */
    @Override
    public void onDropped(Address member, String reason) {
        int id = roster.workerAt(member);
        // not a successor at the address that the scheduler has not admitted: a frame dropped was
        // never for it (nothing is sent to a fenced id)
        Incarnations.Claim<Address> process = id < 0 ? null : addressed(id);
        if (process != null && process.holder().equals(member)
                && roster.loseIfCurrent(id, member, process.incarnation())) {
            LOG.log(System.Logger.Level.WARNING, "a frame to worker {0} at {1} was dropped ({2}); the worker is"
                    + " handled as lost", id, LogText.printable(member, Refusals.MAX_NAME),
                    LogText.printable(reason, Refusals.MAX_WHY));
        }
    }
}
