/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.FrameMac;
import dev.spindle.cluster.Incarnations;
import dev.spindle.cluster.LogText;
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
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.Address;

/**
 * The worker member's side of the wire: it accepts the frames of the one coordinator it follows
 * (see {@link Roster}), sealed with the key it settled with that coordinator ({@link KeyExchange}),
 * for its {@link WorkerNode}, sends the node's reports to that coordinator, sealed too, fetches
 * dependencies from the holder member (a reply must echo the request's nonce) and serves its own
 * values to other workers.
 * Results travel to the coordinator with {@link Message.TaskFinished} (the client's future needs
 * the value) and stay in the worker's store for dependents.
 *
 * <p>The frames of its link with the coordinator are numbered both ways ({@link Link},
 * {@link Wire.Frame#seq()}): a frame of the coordinator's that arrives after a gap (frames lost in
 * transit, as Artery loses what is in flight when a TCP connection restarts) means this worker
 * missed tasks or releases, so the coordinator is handled as gone and this worker leaves the
 * cluster, which the coordinator handles as its loss; it does the same with a gap in this
 * worker's reports. {@link #mark} sends the coordinator a marker every {@link Wire#MARK_INTERVAL}
 * once reports have gone, so that the loss of the last one is seen too. A report that cannot be
 * made small enough for a frame ({@link #cannotReport}), or a batch of reports whose sending throws
 * ({@link #sendReports}), has this worker leave as well.
 */
final class WorkerTransport extends WorkerTransportSupport implements EndpointActor.Handler {

    private static final System.Logger LOG = System.getLogger(WorkerTransport.class.getName());
    /** Runs in {@link #mark} before the marker is sent; for tests that have a marker throw. */
    static volatile Runnable beforeMarkForTests = () -> { };
    /** Sees each batch of reports {@link #sendFrame} is about to send; for tests that have sending throw. */
    static volatile Consumer<List<Object>> beforeReportsForTests = bodies -> { };
    /** Runs in {@link #fetch} once the holder's address is read, before the fetch is registered; for tests. */
    static volatile Runnable beforeFetchRegistersForTests = () -> { };

    private final WireCodec codec;
    private final Roster roster;
    private final Outbox outbox;
    private final Refusals rejectedFrames;
    private final Duration fetchTimeout;
    private final OutboundBatches batches;
    private final KeyExchange.Answers keys = new KeyExchange.Answers();
    /** This process's incarnation, carried in every frame it sends. */
    private final long incarnation;
    private final ConcurrentHashMap<Address, Set<CompletableFuture<Object>>> inFlight = new ConcurrentHashMap<>();
    /** The numbering of the frames to and from the one coordinator this worker follows. */
    private final Link link = new Link(Incarnations.NONE);
    /**
     * Why {@link #sendFrame} last dropped a frame, {@code null} before any: each reason is warned
     * of once. The reasons come in one order (no coordinator yet, then no key yet, then the
     * coordinator gone: a coordinator once followed is never replaced, a key once settled never
     * changes), so a state that begins again is never missed. Touched only where a frame is dropped.
     */
    private final AtomicReference<String> dropping = new AtomicReference<>();

    WorkerTransport(int id, long incarnation, WireCodec codec, Roster roster, Outbox outbox, Refusals rejectedFrames,
                    Duration fetchTimeout) {
        super(id, codec::serialize);
        this.incarnation = incarnation;
        this.codec = codec;
        this.roster = roster;
        this.outbox = outbox;
        this.rejectedFrames = rejectedFrames;
        this.fetchTimeout = fetchTimeout;
        this.batches = new OutboundBatches(MessageCodec.MAX_BATCH, codec.batchBytes(), (coordinator, bodies) -> sendReports(bodies));
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
    public void onFrame(Wire.Received received, ActorRef sender) {
        Wire.Frame frame = received.frame();
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
                    LOG.log(Level.WARNING, "worker {0} cannot send ''{1}'': {2}", id,
                            LogText.printable(r.key(), Refusals.MAX_NAME),
                            LogText.printable(cannotTravel.getMessage(), Refusals.MAX_WHY));
                } catch (RuntimeException | StackOverflowError thrown) {
                    // the value's own serialisation threw (a collection it holds modified meanwhile, a
                    // chain deep enough to overflow the stack): answered as not held too. Escaping, it
                    // would restart this endpoint actor and drop the request, leaving the requester
                    // waiting for its fetch timeout (and a StackOverflowError is fatal to Pekko, whose
                    // default is to exit the JVM)
                    LOG.log(Level.WARNING, "worker {0} cannot send ''{1}'': its serialisation threw {2}", id,
                            LogText.printable(r.key(), Refusals.MAX_NAME), LogText.printable(thrown, Refusals.MAX_WHY));
                }
                // the reply echoes the request's nonce: only the requester's process saw it
                Wire.Seal echo = Wire.Seal.token(received.authenticator());
                try {
                    outbox.reply(sender, frame(r.requester(), new WireMessage.FetchReply(r.key(), id, bytes)), echo);
                } catch (IllegalArgumentException tooLarge) {
                    outbox.reply(sender, frame(r.requester(), new WireMessage.FetchReply(r.key(), id, null)), echo);
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
        boolean sealed = keys.sealedByCoordinator(received);
        if (frame.single() instanceof Wire.Probe p) {
            // answered to the coordinator's address only; sealed once the key is settled
            byte[] offer = p.offer();
            outbox.reply(sender, frame(Wire.COORDINATOR, new Wire.ProbeReply(id, roster.peers(), keys.answer(offer), offer)),
                    sealed ? keys.key() : Wire.Seal.NONE);
            return;
        }
        if (!sealed) {
            rejectedFrames.refuse(Senders.describe(sender), "a frame not sealed with the key worker " + id
                    + " shares with its coordinator (another member naming the coordinator as sender?)");
            return;
        }
        if (!link.received(frame.seq())) {
            // frames of the coordinator's were lost in transit: a task or a release this worker missed
            LOG.log(Level.WARNING, "worker {0}: frames from the coordinator at {1} were lost in transit (frame {2}"
                    + " arrived, {3} expected); the coordinator is handled as gone and this worker leaves the"
                    + " cluster", id, LogText.printable(from, Refusals.MAX_NAME), frame.seq(), link.expected());
            roster.coordinatorLost(from);
            return;
        }
        for (Object body : frame.bodies()) {
            if (body instanceof Wire.Mark) {
                continue;
            }
            if (!receiveMessage(n, body, codec::deserialize)) {
                rejectedFrames.refuse(Senders.describe(sender), "unexpected message " + body.getClass().getSimpleName());
            }
        }
    }

    /**
     * Artery dropped a report of ours to {@code member} (its outbound queue was full): if that is
     * the coordinator this worker follows, the coordinator waits in vain for a result, so it is
     * handled as gone, as when it leaves the cluster: this worker leaves, and the coordinator,
     * seeing it leave, places its tasks again.
     */
    @Override
    public void onDropped(Address member, String reason) {
        if (member.equals(roster.coordinator())) {
            LOG.log(Level.WARNING, "worker {0}: a frame to the coordinator at {1} was dropped ({2}); the coordinator"
                    + " is handled as gone and this worker leaves the cluster", id,
                    LogText.printable(member, Refusals.MAX_NAME), LogText.printable(reason, Refusals.MAX_WHY));
            roster.coordinatorLost(member);
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

    /**
     * Sends one batch of reports, on whichever thread flushes it. It must not throw
     * ({@link OutboundBatches.Sender}): the batch has left the queue and may carry other threads'
     * reports, which an escaping {@link Error} (an {@code OutOfMemoryError} sealing a large result's
     * frame, say) took with it into the flushing task's thread, unreported; and its frame took no
     * number, so the coordinator saw no gap and waited for those tasks for good. So the coordinator
     * is handled as gone and this worker leaves the cluster, as for a report it cannot shorten
     * ({@link #cannotReport}); the coordinator places its tasks again.
     */
    private void sendReports(List<Object> bodies) {
        try {
            sendWithinFrameLimit(bodies);
        } catch (RuntimeException | Error e) {
            Address coordinator = roster.coordinator();
            LOG.log(Level.ERROR, "worker " + id + ": could not send " + bodies.size() + " reports to the coordinator;"
                    + " the coordinator is handled as gone and this worker leaves the cluster", e);
            if (coordinator != null) {
                roster.coordinatorLost(coordinator);
            }
        }
    }

    /**
     * One frame to the coordinator, sealed; a frame over the limit is split by the caller.
     *
     * <p>Without a coordinator and a key settled with it, the frame is dropped: reports answer the
     * coordinator's sealed frames, which settle the key first, so what comes before is a worker's
     * periodic report (its memory, every second with a memory limit; spindle-cluster's
     * {@code ClusterWorker} sends it again), and what comes after the coordinator has left has no
     * one to go to (this worker leaves). A worker may stay in such a state for good (one started
     * long before its coordinator, or refused for a reason the coordinator does not tell, its id
     * taken), so the drops are warned of once per reason, when it begins ({@link #dropping}), and
     * logged at DEBUG after that.
     */
    @Override
    protected void sendFrame(List<Object> bodies) {
        Address coordinator = roster.coordinator();
        PairKey key = keys.key();
        if (coordinator == null || key == null) {
            String why = coordinator != null ? "no key settled with the coordinator yet"
                    : roster.coordinatorGone() ? "the coordinator it followed has left"
                    : "no coordinator to follow yet";
            boolean first = !why.equals(dropping.getAndSet(why));
            LOG.log(first ? Level.WARNING : Level.DEBUG, "worker {0}: {1}, dropped {2} messages ({3}...){4}", id, why,
                    bodies.size(), bodies.get(0).getClass().getSimpleName(),
                    first ? "; later drops for this reason are logged at DEBUG" : "");
            return;
        }
        beforeReportsForTests.accept(bodies);
        link.send(seq -> outbox.send(coordinator, new Wire.Frame(Wire.COORDINATOR, incarnation, seq, bodies), key));
    }

    /**
     * A report too large for a frame even when shortened (see {@link #sendWithinFrameLimit}):
     * the coordinator would never hear of its task, so the coordinator is handled as gone and
     * this worker leaves the cluster, as when a report is dropped; the coordinator places its
     * tasks again.
     */
    @Override
    protected void cannotReport(Object body, IllegalArgumentException why) {
        Address coordinator = roster.coordinator();
        LOG.log(Level.ERROR, "worker {0}: cannot send {1} to the coordinator, even shortened ({2}); the coordinator"
                + " is handled as gone and this worker leaves the cluster", id, body.getClass().getSimpleName(),
                why.getMessage());
        if (coordinator != null) {
            roster.coordinatorLost(coordinator);
        }
    }

    /**
     * Sends the coordinator a marker ({@link Wire.Mark}) if reports have gone to it, so that it
     * notices the loss of the last one; every {@link Wire#MARK_INTERVAL}. Never throws, not even an
     * Error (it runs on Pekko's scheduler, which runs it no more once it throws).
     */
    void mark() {
        Address coordinator = roster.coordinator();
        PairKey key = keys.key();
        if (coordinator == null || key == null) {
            return;
        }
        try {
            beforeMarkForTests.run();
            link.mark(seq -> outbox.send(coordinator,
                    new Wire.Frame(Wire.COORDINATOR, incarnation, seq, List.of(new Wire.Mark(id))), key));
        } catch (RuntimeException | Error e) {
            // an Error too: Pekko's fixed-delay schedule ends when a run throws, and with it every
            // later marker, so that the loss of the last report would go unseen for good
            LOG.log(Level.WARNING, "worker {0} cannot send the coordinator a marker: {1}", id, e.toString());
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
        beforeFetchRegistersForTests.run();
        CompletableFuture<Object> result = new CompletableFuture<>();
        Set<CompletableFuture<Object>> pending = inFlight.computeIfAbsent(member, a -> ConcurrentHashMap.newKeySet());
        pending.add(result);
        if (!roster.isWorker(member)) {               // it left between the two looks: holderGone may have run
            pending.remove(result);
            // and, run before the set above was made, it left that set here for good, empty: dropped
            // if still empty (a fetch that took it meanwhile finds the holder gone too, or times out)
            inFlight.remove(member, Set.of());
            result.completeExceptionally(new IllegalStateException("worker " + holder + " left the cluster"));
            return result;
        }
        byte[] nonce = FrameMac.randomToken();
        CompletionStage<Object> asked;
        try {
            asked = outbox.ask(member, frame(holder, new WireMessage.FetchRequest(key, holder, requester)),
                    Wire.Seal.token(nonce), fetchTimeout);
        } catch (RuntimeException | Error e) {
            // the request was never sent (the actor system stopping refuses the ask's timeout):
            // the fetch fails now. Escaping, the throwable left its future among those in flight to
            // the holder, never completed, for as long as the holder stayed a member
            pending.remove(result);
            result.completeExceptionally(e);
            return result;
        }
        asked.whenComplete((reply, error) -> {
            pending.remove(result);
            if (error != null) {
                result.completeExceptionally(error);
                return;
            }
            try {
                result.complete(open(reply, nonce, key, holder));
            } catch (RuntimeException | Error e) {
                // an Error too (an OutOfMemoryError reading the value): escaping into the
                // ask's callback, it left the fetch, whose timeout is spent, waiting for good
                result.completeExceptionally(e);
            }
        });
        return result;
    }

    /** The fetches in flight, to all holders; for tests. */
    int fetchesInFlight() {
        int n = 0;
        for (Set<CompletableFuture<Object>> pending : inFlight.values()) {
            n += pending.size();
        }
        return n;
    }

    /** The holder addresses with a set of fetches in flight kept (empty or not); for tests. */
    int holdersTracked() {
        return inFlight.size();
    }

    /** The key settled with the coordinator, or {@code null} before. */
    PairKey key() {
        return keys.key();
    }

    /** A frame of this process to {@code to}. */
    private Wire.Frame frame(int to, Object body) {
        return new Wire.Frame(to, incarnation, body);
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

    private Object open(Object reply, byte[] nonce, String key, int holder) {
        if (!(reply instanceof Wire.Received received) || !(received.frame().single() instanceof WireMessage.FetchReply r)
                || !received.carries(nonce)) {
            String why = reply instanceof Wire.Rejected rejected ? rejected.why()
                    : reply instanceof Wire.Received x && x.frame().single() instanceof WireMessage.FetchReply
                    ? "a reply that does not echo the request's nonce (forged?)" : "not a fetch reply";
            rejectedFrames.refuse("fetch reply of worker " + holder, why);
            throw new SecurityException("fetch of '" + key + "' from worker " + holder + ": " + why);
        }
        return fetched(key, holder, r.key(), r.holder(), r.value(), codec::deserialize);
    }
}
