/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import dev.spindle.Hints;
import dev.spindle.Scheduler;
import dev.spindle.internal.Closing;
import dev.spindle.internal.jfr.JfrGate;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * An actor: its reference and its mailbox, and (in a small object of its own) the
 * {@link Runnable} its scheduler runs. Three objects per actor besides the actor's own (this cell,
 * that runnable and one stub envelope), so activating an actor allocates nothing. The runnable is
 * not the cell itself: the cell is the {@link ActorRef} every sender holds, and a reference that
 * was also a {@code Runnable} would let any holder run the actor ({@code ((Runnable) ref).run()},
 * or by handing it to an executor) on a second thread, beside its real activation.
 *
 * <h2>Mailbox</h2>
 *
 * <p>An intrusive multi-producer single-consumer linked queue of {@link Envelope}s (Vyukov's
 * design). {@code tail} is the last envelope enqueued; {@code head} is the last envelope the
 * consumer took (initially a stub): the queue is empty exactly when {@code head == tail}.
 *
 * <ul>
 *   <li><b>offer</b> (any thread): {@code prev = xchgTail(e)}, then {@code prev.soNext(e)}. The
 *       exchange orders producers: the mailbox order is the exchange order, so each sender's
 *       messages stay in the order it sent them (FIFO per sender). Between the exchange and the
 *       link the new envelope is enqueued but not yet reachable from {@code head} (and nothing
 *       there may throw: see "Stack overflow").
 *   <li><b>poll</b> (the activation holder only): {@code n = head.lvNext()}; if {@code n} is null
 *       but {@code head != lvTail()}, a producer is between its exchange and its link, a few
 *       instructions away, and the consumer spins until the link appears. Then
 *       {@code head = n}: the envelope just taken becomes the new stub.
 * </ul>
 *
 * <h2>Activation</h2>
 *
 * <p>{@code state} is {@code IDLE} or {@code ACTIVE} (or {@code SCHEDULED}: an {@code ACTIVE}
 * handed to the scheduler, see below). Whoever moves it from {@code IDLE} to {@code ACTIVE} by
 * CAS <em>holds the activation</em>: a producer that did so submits the cell's
 * activation to the scheduler ({@code scheduler.execute(activation, hints)}, with the config's
 * precomputed {@link Hints}), and the scheduler's thread then holds it while
 * {@link Activation#run()} runs. Only the holder sets {@code IDLE} again. Hence at most one activation exists at a time, and only its
 * holder polls the mailbox or touches the actor object.
 *
 * <p><b>Claiming a submitted activation.</b> A holder marks the state {@code SCHEDULED} just
 * before it calls {@code execute}, and the activation, when it runs, first claims it by
 * {@code casState(SCHEDULED, ACTIVE)}; one that finds any other state returns at once. This is
 * for a scheduler whose {@code execute} throws after it queued the task: a
 * {@code ThreadPoolExecutor} whose {@code addWorker} fails ("unable to create native thread") once
 * the task is in its queue, a custom executor. The submitter cannot tell that from a refusal, so
 * it claims the activation back the same way: if it wins, the task did not start, and the actor
 * ends as rejected (below) while a later run of the queued task finds nothing to claim; if it
 * loses, the task was taken and runs, the actor goes on, and the throw goes to the failure
 * handler. Without the claim the submitter ended the actor while the activation ran, or ran
 * later: messages processed after the actor was declared ended, and a second thread polling the
 * mailbox and giving up an activation it did not hold. Producers compare the state with
 * {@code IDLE} only, so {@code SCHEDULED} reads as {@code ACTIVE} to them.
 *
 * <p><b>Resubmitted on the same thread.</b> A scheduler may run a task inside its
 * {@code execute}, on the submitting thread ({@code Runnable::run}, a saturation policy that
 * runs the task in the caller). A resubmission after a full activation then ran the next
 * activation nested in the one that resubmitted it: one level of the stack (resubmit, schedule,
 * execute, run, the loop) per {@code maxMessagesPerActivation} messages, so a backlog of some
 * thousands with one message per activation overflowed the stack, wherever the overflow struck:
 * in a message (reported as its failure), in the cell's own code (recovered by resubmitting,
 * deeper still), or between a claim and the loop's guard, where it left the actor
 * {@code ACTIVE} with nobody holding it, its backlog and its stop waiting for good. So a
 * resubmission marks its thread ({@code resubmitting}) around the {@code execute}; an activation
 * that finds itself run there, by the thread that resubmitted it, does not claim the actor but
 * marks itself to be run ({@code rerun}) and returns, and {@link Activation#run()}, on the same
 * thread once the loop that resubmitted has returned, claims it and runs the loop again: a loop,
 * not a recursion, and the budget still ends each activation as on any scheduler. Two plain
 * stores per resubmission and two plain loads per activation; nothing per message. The cost to
 * such a scheduler: the activation it ran nested does its work after that {@code execute} has
 * returned, in the frame of the outer one, so what a scheduler sets around a task it runs (a
 * thread-local context, a timer) is not around that work; the outer activation's is, if the
 * scheduler nests them.
 *
 * <ul>
 *   <li><b>tell</b>: offer the envelope, then {@code if (lvState() == IDLE && casState(IDLE,
 *       ACTIVE)) schedule(hints)}. One exchange, and one CAS only when the actor was idle.
 *   <li><b>run</b>: poll and deliver up to {@code maxMessagesPerActivation} envelopes. If the
 *       budget is spent (or a message left the thread interrupted, which the next message must
 *       not inherit: the scheduler drops or keeps that interrupt between its tasks) and
 *       messages remain, submit itself again while still {@code ACTIVE}
 *       (the scheduler's other tasks, other actors, go first on a FIFO scheduler). When the
 *       mailbox looks empty: {@code svState(IDLE)}, then look again ({@code head != lvTail()});
 *       if a message arrived, try {@code casState(IDLE, ACTIVE)} and go on (or resubmit, if the
 *       budget is spent). A failed CAS means a producer took over the activation.
 * </ul>
 *
 * <p><b>No lost message.</b> A producer does {@code xchgTail} (a volatile read-modify-write)
 * then {@code lvState}; a deactivating holder does {@code svState(IDLE)} then {@code lvTail}.
 * All four are volatile accesses, so they are totally ordered: either the producer reads
 * {@code IDLE} (and activates, or loses the CAS to someone who did), or the holder reads the
 * producer's tail (and re-activates, or loses the CAS to a producer). The re-check reads
 * {@code tail} rather than {@code head.next} on purpose: the link is a release store after the
 * exchange and may still sit in the producer's store buffer, so checking it would lose a
 * message; checking the tail costs the consumer, at worst, the short spin in poll.
 *
 * <p><b>Happens-before between messages.</b> Within an activation, program order. Across
 * activations: the holder's last action is either {@code svState(IDLE)}, which the next
 * holder's successful {@code casState(IDLE, ACTIVE)} reads (synchronises-with), followed by
 * {@code scheduler.execute}, whose task runs after its submission (the {@code Executor}
 * contract), or a resubmission by the holder itself (again the {@code Executor} contract).
 * Every message therefore sees the writes of all earlier ones, so the actor's plain fields
 * need no synchronisation. From sender to actor: the sender's writes precede its exchange and
 * release-store link, which the consumer's acquiring load of {@code next} reads.
 *
 * <h2>Ending</h2>
 *
 * <p>{@code lifecycle} leaves {@code RUNNING} once, written by the activation holder: to
 * {@code STOPPED} when the stop envelope is delivered, to {@code REJECTED} when the scheduler
 * refuses an activation (it threw, typically because it was shut down), to {@code FAILED} when
 * the factory failed. After that the actor object is dropped, senders that see the new state
 * count a dead letter without enqueuing, and envelopes that were enqueued anyway (racing the
 * change) are rejected by whoever next holds the activation: a later {@link #schedule(Hints, Thread)} of an
 * ended actor drains the mailbox on the caller's thread instead of calling the scheduler.
 * Every message is therefore either delivered or rejected exactly once. The termination future
 * ({@link #stop()}'s) completes only once the holder that ended the actor has rejected what the
 * mailbox held and given up the activation.
 *
 * <p><b>Stop and a full mailbox.</b> {@code stop()} requests the stop once
 * ({@code STOP_REQUESTED}, by CAS), counts it in a bounded mailbox's size, exchanges the tail
 * for the stop envelope and only then marks it {@code STOP_QUEUED}. A message that finds a
 * bounded mailbox full once a stop was requested is a dead letter, not a
 * {@link MailboxFullException}: it is behind the stop. That holds only once the stop has its
 * place in the mailbox. Deciding at {@code STOP_REQUESTED} let the sender's next message,
 * finding a slot the actor had freed meanwhile, exchange the tail before the stop and be
 * processed after its predecessor had been dropped as "behind the stop". So a sender that sees
 * {@code STOP_REQUESTED} waits for {@code STOP_QUEUED} (a few instructions: the stop envelope is
 * allocated before the request, and nothing between the request and the mark blocks; a stack
 * overflow before the exchange withdraws the request instead, see "Stack overflow") and only then
 * counts the dead letter (or, the request withdrawn, reports the mailbox full). Its reading of
 * {@code STOP_QUEUED} follows the stop's exchange, so every later exchange of this sender follows
 * it too: each later message is behind the stop, a dead letter as well, and the sender's order
 * holds. The fast path is unchanged: only
 * a sender whose reservation failed reads the stop's state. A {@code stop()} that finds another
 * caller's stop requested queues none of its own and waits for that one's mark likewise: returned
 * before the mark, it let its caller's next message, in any mailbox, go in ahead of the stop and
 * be processed after its sender had stopped the actor.
 *
 * <h2>An Error in the cell's own code</h2>
 *
 * <p>A message's failures are its own ({@link Envelope#deliver} catches them). The cell's own code
 * around it can throw too: an {@code OutOfMemoryError} counting a dead letter or building an
 * ask's {@link ActorStoppedException}, a {@code StackOverflowError} when the activation runs deep
 * in another task's stack (a work-stealing join that runs tasks while it waits), a class that
 * fails to load. Escaping the activation, that left the state {@code ACTIVE} with nobody holding
 * it: the actor never ran again, its later messages waited for good, unreported. So
 * {@link #activate()} catches what its loop throws and, if this thread still holds the activation,
 * hands it on ({@link #recover}): the failure goes to the failure handler; a message taken but not
 * yet delivered fails with it (an ask's future) or goes with the report (a tell); a stop taken
 * but not finished is finished; otherwise the activation is resubmitted and the actor goes on, as
 * after a message that threw. Never both: the actor either ends or runs on.
 *
 * <p>Whether it still holds the activation is exact, which is what keeps a second holder out:
 * a local {@code held} (no cost per message) is false only between the release
 * (the store of {@code IDLE} made: a plain volatile store, no call, so nothing can throw between
 * it and the local's update) and the CAS that takes it back. The calls that give
 * the activation up inside ({@link #resubmit}, {@link #schedule}, {@link #terminate}) throw only
 * while the caller still holds it: after their release, nothing they do may throw (what they
 * report then is dropped if reporting itself fails). One throw of {@code schedule} leaves the state
 * {@code SCHEDULED} (its claim-back, see above), and the queued task, if the scheduler queued it
 * before it threw, may claim it at any moment: the state read then cannot tell the task's
 * {@code ACTIVE} from the caller's own. So {@code schedule} marks a claim-back that
 * threw ({@code claimBackBy}, a store of the thread in the claim-back's own handler, no call); a
 * caller that catches a throw with its mark set claims the activation as the task would
 * (or gives it back by a compare-and-set from {@code SCHEDULED}), and whoever wins holds it. Read
 * from the state, as before, an {@code ACTIVE} the task had claimed was taken for the caller's
 * own: the caller's recovery ran the actor beside the task, or its give-back stored
 * {@code IDLE} under the task and the next send started a second activation. An activation that
 * threw after its release takes the activation back only as a sender would, by
 * {@code casState(IDLE, ACTIVE)}. {@link #terminate} also goes on past
 * an envelope whose rejection threw, and an ask whose rejection cannot build its exception fails
 * with what was thrown. A stack overflow can strike the recovery too: it runs where the loop did,
 * with the loop's callees' frames given back, and needs about as deep a stack as a resubmission.
 * Its calls after it handed the activation on are guarded (a report's entry included), so a throw
 * out of it means it still holds the activation; the loop then gives it back, as a sender whose
 * {@code schedule} overflowed does (see "Stack overflow"), and the messages wait for the next send
 * or {@code stop()} instead of for good, the failure unreported. Where an activation runs at a
 * sender's depth (a scheduler that runs it inside {@code execute}), the overflow also strikes
 * between the claim and the loop's guard: {@link Activation#run()} gives the activation back then.
 * A give-back from {@code ACTIVE} is a store, no call, and cannot overflow; one from
 * {@code SCHEDULED} (a throw in {@code schedule}'s claim-back) is a compare-and-set, which can.
 *
 * <h2>Stack overflow</h2>
 *
 * <p>A sender deep in its own recursion can overflow the stack inside {@code tell}: any call
 * there may throw {@code StackOverflowError} at its entry, before it did anything. Three places
 * must not be left half done, and are arranged so that a frame they need after the point of no
 * return is one this frame has just pushed and popped, at the same stack depth:
 *
 * <ul>
 *   <li>Between the tail exchange and the link ({@link #offer}), an envelope unreachable from
 *       {@code head}: the consumer would wait in {@link #awaitLink} for good, on a worker thread.
 *       The only call there is the link, {@code prev.soNext(e)}; {@code offer} makes the same call
 *       first, {@code e.soNext(null)} (a release store of the null the new envelope's {@code next}
 *       already holds: no allocation, no atomic operation), from the same frame, before the
 *       exchange. Where that returned, the link needs no deeper stack. The exchange itself is the
 *       last effect of its call. Narrowed, not closed: the JIT may replace {@code soNext}'s code
 *       between the two calls, or deoptimise this frame on the way (its interpreted frames need
 *       more stack than the compiled one that made the first call). Measured with
 *       {@code SendsAtTheStackLimitNeverWedgeTheActorTest}'s stress (sends at every depth near the
 *       stack's limit, the cell's methods kept out of line, as before the JIT inlines them):
 *       before, every JVM wedged the actor within its first two trials, warmed up or not; since,
 *       none once the send path is compiled, but 3 JVMs in 10 still did in a first trial run
 *       cold, while the JIT was at work, and 2 trials in 180 sending to an idle actor. Once the
 *       JIT has inlined {@code offer} into the sender, the window holds no call at all.
 *   <li>A slot of a bounded mailbox taken but no envelope behind it: the mailbox one smaller for
 *       good. The slot is taken after the pre-touch, right before the exchange; if the exchange
 *       throws, it is given back by the same method that took it ({@link #stepSize}), from the
 *       same frame.
 *   <li>A stop requested but never marked queued: senders that found the mailbox full would spin
 *       in {@link #awaitStopQueued} for good. Before the exchange, a throw withdraws the request
 *       (by the method that made it, {@code casStopState}, from the same frame), and the waiters
 *       see it withdrawn; after it, the mark is that same method and the link is pre-touched as
 *       in {@code offer}. (The same method, not one of the same shape: two methods can be at
 *       different compilation tiers, with frames of different sizes. A stress test found that.)
 * </ul>
 *
 * <p>After the link, a sender that won {@code casState(IDLE, ACTIVE)} holds the activation until
 * the scheduler takes it. If {@code schedule} throws before that, the sender gives the activation
 * back (by a store of {@code IDLE}, no call, or from {@code SCHEDULED} by a compare-and-set) and
 * the error goes to it; the message waits in the mailbox for the actor's next send, or a
 * {@code stop()} (which activates an actor that holds messages, or whose end was begun there, if it
 * finds the stop already queued), not for good. Setting the lifecycle before dropping the actor
 * object keeps an end begun and broken off there from leaving a running actor without its object. A
 * {@code tell} that throws a {@code StackOverflowError} may thus have enqueued its message, as one
 * that passes on the scheduler's {@code Error} has. A spawn holds the activation from the cell's
 * creation until {@link #start}: its first activation (of a factory's messages) goes the senders'
 * way ({@link #activateIfQueued}), and a throw before {@code start} gave the activation up ends the
 * actor as a failed factory does ({@link #failToStart}), rather than leave it held for good.
 *
 * <h2>Layout</h2>
 *
 * <p>Fields sit in three groups, JCTools style, split by class hierarchy with padding between:
 * read-mostly fields; fields producers write ({@code tail}, {@code state}, {@code size}); fields
 * only the holder writes ({@code head}, {@code actor}, {@code processed}). A producer's exchange
 * on {@code tail} thus does not invalidate the line the consumer updates on every message.
 * The padding is longs, and HotSpot fills a superclass's alignment holes with a subclass's small
 * fields: {@code state} sits at the end of the read-mostly fields (offset 60 on JDK 17 and 25),
 * not beside {@code tail}. Padding of bytes, which fills those holes itself and puts
 * {@code state} beside {@code tail}, was measured slower (session 78: tell-only 2.66 against
 * 3.35 × Pekko, p = 0.01; a sender reads {@code state} on every message, and reads it from a
 * line no sender writes on every message). {@code ActorCellLayoutTest} keeps {@code head} and
 * {@code processed} a line away from {@code tail}.
 */
final class ActorCell<A> extends ActorCellConsumerFields<A> implements ActorRef<A> {

    static final int IDLE = 0;
    static final int ACTIVE = 1;
    /** Held, and handed to the scheduler: the activation claims it when it runs (see the overview). */
    static final int SCHEDULED = 2;

    static final int RUNNING = 0;
    static final int STOPPED = 1;
    static final int REJECTED = 2;
    static final int FAILED = 3;

    /** What the scheduler runs: one activation of this cell (see the overview for why not the cell). */
    private final Runnable activation = new Activation(this);

    /**
     * Completes when the lifecycle leaves RUNNING: once the holder that ended the actor has
     * rejected what the mailbox held. An {@link ActorFuture}, so that a wait for it (through a
     * copy {@link #stop()} returned) on the actor's own thread throws rather than waits for good.
     */
    final CompletableFuture<Void> termination = new ActorFuture<>(this);

    /**
     * Tests only: called by {@link #stop()} with the cell, on the stopping thread, between the
     * stop's request and its enqueueing, so that a test can hold a stop in that window. Null
     * otherwise: one static read per first {@code stop()}, nothing on the send path.
     */
    static volatile Consumer<ActorRef<?>> stopWindowHook;

    /**
     * Tests only: run by {@link #ask} on the asking thread just before it allocates the ask's
     * envelope, so that a test can make that allocation fail (an {@code OutOfMemoryError}). Null
     * otherwise. A plain read, one per ask: a test sets it on the thread that then asks.
     */
    static Runnable askAllocationHook;

    /**
     * Tests only: run by {@link #resubmit} on the activation's thread before it hands the
     * activation back to the scheduler, so that a test can make the cell's own code throw while
     * it holds the activation (as a {@code StackOverflowError} there would, in an activation run
     * deep in another task's stack). Null otherwise; read once per resubmission, not per message.
     */
    static volatile Runnable resubmitHook;

    /**
     * Tests only: run by {@link #schedule} where the scheduler threw, just before the claim-back's
     * compare-and-set, so that a test can make that call fail at its entry (a
     * {@code StackOverflowError} there, a sender or an activation deep in a stack). Null
     * otherwise; read only after a scheduler threw, never per message.
     */
    static volatile Runnable claimBackHook;

    /**
     * Tests only: run by {@link #stoppedException()} just before it allocates the exception, so
     * that a test can make that allocation fail (an {@code OutOfMemoryError}) while an ask is
     * rejected. Null otherwise; read only where a message is refused, not per message.
     */
    static volatile Runnable rejectionAllocationHook;

    /**
     * Tests only: run on the activation's thread where it asks whether a recording wants the
     * actors' events, so that a test can make that question throw (as an event class that fails
     * to initialize does). Null otherwise; read only once the flight recorder is initialized,
     * once per activation, never per message. A plain read: the tests run the activations on
     * the thread that sets it.
     */
    static Runnable recordingCheckHook;

    /**
     * Set once asking whether a recording wants the actors' events threw a {@code LinkageError}:
     * an event class that failed to initialize, which fails every later use as well. From then
     * on activations run without events (see {@code Activation.recordingWanted}). A plain field:
     * a thread that has not seen it yet asks, and reports, once more.
     */
    static boolean eventsUnavailable;

    ActorCell(ActorSystem system, Scheduler scheduler, ActorConfig config, String name) {
        super(system, scheduler, config, name);
        Envelope stub = new Envelope.Tell(null);
        head = stub;
        spTail(stub);
        spState(ACTIVE);       // the spawning thread holds the activation while the factory runs
        runner = Thread.currentThread();      // and runs the actor's code: see runsOn
    }

    // ------------------------------------------------------------------ sending

    @Override
    public void tell(Consumer<? super A> message) {
        if (message == null) {
            throw new NullPointerException("message must not be null (actor '" + name + "')");
        }
        if (lvLifecycle() != RUNNING) {
            system.deadLetter();
            return;
        }
        if (!offer(new Envelope.Tell(message))) {
            if (stopping()) {
                system.deadLetter();
                return;
            }
            throw new MailboxFullException(name, capacity);
        }
    }

    @Override
    public <R> CompletableFuture<R> ask(Function<? super A, ? extends R> function) {
        if (function == null) {
            throw new NullPointerException("function must not be null (actor '" + name + "')");
        }
        CompletableFuture<R> result = new ActorFuture<>(this);  // a wait on the actor's own thread throws
        if (lvLifecycle() != RUNNING) {
            system.deadLetter();
            result.completeExceptionally(stoppedException());
            return result;
        }
        // Allocated before a slot of a bounded mailbox is taken, as tell's envelope is: an
        // allocation that fails (an OutOfMemoryError) after the reservation left the slot taken
        // for good, with no envelope that poll would ever free it for
        Runnable hook = askAllocationHook;
        if (hook != null) {
            hook.run();
        }
        if (!offer(new Envelope.Ask(function, result))) {
            if (stopping()) {
                system.deadLetter();
                result.completeExceptionally(stoppedException());
            } else {
                result.completeExceptionally(new MailboxFullException(name, capacity));
            }
        }
        return result;
    }

    @Override
    public CompletableFuture<Void> stop() {
        if (rejecting == Thread.currentThread()) {
            // A stage of a message this thread is rejecting in terminate: the actor has ended,
            // and its termination completes only once this thread's loop is done, so a wait on
            // it here would wait for itself (see terminate).
            return CompletableFuture.completedFuture(null);
        }
        Envelope stop = new Envelope.Stop();  // before the request: see "Stack overflow" in the overview
        stop.soNext(null);                 // the link's own call, made here first: see "Stack overflow"
        for (;;) {
            if (casStopState(NO_STOP, STOP_REQUESTED)) {
                Envelope prev;
                boolean counted = false;
                try {
                    Consumer<ActorRef<?>> hook = stopWindowHook;
                    if (hook != null) {
                        hook.accept(this);
                    }
                    if (capacity != ActorConfig.UNBOUNDED) {
                        addSize(1);            // the stop envelope ignores the bound but is counted
                        counted = true;
                    }
                    prev = xchgTail(stop);
                } catch (Throwable notQueued) {
                    // Nothing was exchanged (a stack overflow on the way): withdraw the request,
                    // by the very calls this frame has just made (casStopState, addSize), so that
                    // the senders waiting for its mark go on and this caller is told
                    if (counted) {
                        addSize(-1);
                    }
                    casStopState(STOP_REQUESTED, NO_STOP);
                    throw notQueued;
                }
                // Marked queued as soon as its place in the mailbox is taken: a sender that found
                // the mailbox full waits for this mark (see stopping). The very call the request
                // made from this frame, and the link pre-touched above: neither can overflow the
                // stack where those did not (see "Stack overflow")
                casStopState(STOP_REQUESTED, STOP_QUEUED);
                prev.soNext(stop);
                activateIfIdle();
                break;
            }
            // Another caller's stop stands for this one: return only once it has its place in
            // the mailbox, or this caller's next message could take its place ahead of it and be
            // processed after its sender had stopped the actor (see "Stop and a full mailbox").
            // Withdrawn instead (its caller's stack overflowed), it stands for nothing: request again.
            if (awaitStopQueued()) {
                // Its caller may have given the activation back without handing it on (its stack
                // overflowed in schedule, see "Stack overflow"): then nothing would take the stop
                // from the mailbox, or finish an end begun there, and this caller would wait for
                // good. A send would activate the actor; so does this (an ended actor's activation
                // finishes its end: see schedule). Racy reads: at worst an activation for nothing.
                if (!termination.isDone() && (lvLifecycle() != RUNNING || lvHead() != lvTail())) {
                    activateIfIdle();
                }
                break;
            }
        }
        return termination.copy();         // a caller's orTimeout or cancel is its own: see ActorRef#stop
    }

    @Override
    public boolean isStopped() {
        return lvLifecycle() != RUNNING;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        String s = switch (lvLifecycle()) {
            case RUNNING -> "running";
            case STOPPED -> "stopped";
            case REJECTED -> "rejected by its scheduler";
            default -> "failed to start";
        };
        return "ActorRef[" + name + ", " + s + "]";
    }

    /**
     * Whether a message that found the bounded mailbox full is a dead letter rather than a
     * {@link MailboxFullException}: the actor has ended, or its stop was requested. The stop
     * envelope ignores the bound but is counted, so it alone can fill the mailbox; a message that
     * finds it full after the stop was requested is ordered after the stop (or races it) and
     * would be rejected as a dead letter once the stop is processed, as it is in an unbounded
     * mailbox. Telling the sender to back off from an actor that has stopped would be wrong.
     *
     * <p>A stop requested but not yet queued is waited for (see "Stop and a full mailbox" in
     * the class overview): only once the stop has its place in the mailbox is every later
     * message of this sender behind it, and so a dead letter too.
     */
    private boolean stopping() {
        int s = lvStopState();
        if (s == STOP_REQUESTED && awaitStopQueued()) {
            return true;
        }
        return s == STOP_QUEUED || lvLifecycle() != RUNNING;
    }

    /**
     * A stopper is between requesting its stop and exchanging the tail, a few instructions: wait
     * for it, as poll waits for a producer's link ({@link #awaitLink}).
     *
     * @return whether the stop was queued; {@code false} if its stopper withdrew it (its stack
     *     overflowed before the exchange, see "Stack overflow" in the overview)
     */
    private boolean awaitStopQueued() {
        int spins = 0;
        int s;
        while ((s = lvStopState()) == STOP_REQUESTED) {
            if (++spins < 128) {
                Thread.onSpinWait();
            } else {
                Thread.yield();               // the stopper was descheduled mid-stop
            }
        }
        return s == STOP_QUEUED;
    }

    /**
     * Takes a slot of the bounded mailbox if one is free. A CAS loop, not an add undone on
     * failure: a sender's increment undone a moment later would make another sender see the
     * mailbox full while it had room (and {@code depth()} read more than the bound).
     */
    private boolean tryReserve() {
        return stepSize(1, capacity);
    }

    /**
     * Adds {@code delta} to the bounded size unless that would reach past {@code limit}: takes a
     * slot ({@code +1}, up to the capacity) or gives one back ({@code -1}, always). One method for
     * both, so that giving a slot back right after taking it makes the same calls from the same
     * frame, and cannot overflow the stack where the taking did not (see "Stack overflow").
     */
    private boolean stepSize(int delta, int limit) {
        for (int s = lvSize(); ; ) {
            int next = s + delta;
            if (next > limit) {
                return false;
            }
            int witness = caxSize(s, next);
            if (witness == s) {
                return true;
            }
            s = witness;
        }
    }

    /**
     * Enqueues {@code e} (taking a slot first if the mailbox is bounded) and activates the actor
     * if it is idle. The hot path of every tell and ask. Between the exchange and the link the
     * envelope is unreachable from {@code head}, and the consumer waits for the link
     * ({@link #awaitLink}): a throw there would wedge the actor for good. The only call in that
     * window is the link itself, made first on the new envelope (a release store of the null its
     * {@code next} already holds) from this same frame, so that it cannot overflow the stack there
     * (see "Stack overflow" in the overview). Likewise a slot taken is given back if the exchange
     * does not happen.
     *
     * @return {@code false} if the bounded mailbox was full (nothing enqueued)
     */
    private boolean offer(Envelope e) {
        e.soNext(null);
        if (capacity != ActorConfig.UNBOUNDED && !tryReserve()) {
            return false;
        }
        Envelope prev;
        try {
            prev = xchgTail(e);
        } catch (Throwable notEnqueued) {
            if (capacity != ActorConfig.UNBOUNDED) {
                stepSize(-1, Integer.MAX_VALUE);     // the calls tryReserve just made, from this frame
            }
            throw notEnqueued;
        }
        prev.soNext(e);
        activateIfIdle();
        return true;
    }

    /** After a link: activates the actor if it is idle (a sender's half of "No lost message"). */
    private void activateIfIdle() {
        if (lvState() == IDLE && casState(IDLE, ACTIVE)) {
            Throwable refused;
            Thread self = null;                 // read inside the guard: the read is a call
            try {
                self = Thread.currentThread();
                refused = schedule(hints, self);
            } catch (Throwable stillHeld) {
                // schedule threw before it handed the activation on (a stack overflow): this
                // thread holds it, and left ACTIVE it would never run again. Give it back: the
                // next send (or stop) activates the actor, and this sender is told. Unless it
                // threw in its claim-back (marked): then the queued task may hold it already, and
                // only a compare-and-set from SCHEDULED gives it back, racing the task's claim
                if (self == null || claimBackBy != self) {
                    state = IDLE;               // a store, no call: see the field's comment
                } else {
                    claimBackBy = null;
                    casState(SCHEDULED, IDLE);
                }
                throw stillHeld;
            }
            passOnRefusal(refused);
        }
    }

    /**
     * What a sender (or the spawner, in {@link #activateIfQueued}) does with the scheduler's refusal of the
     * activation it held, which ended the actor ({@link #schedule}). An {@code Error} goes to the
     * sender, as a JDK pool's {@code execute} would throw it. Any other exception but a
     * {@code RejectedExecutionException} (a hint the scheduler cannot honour, its own bug) goes to
     * the failure handler, as on a resubmission ({@link #resubmit}): it was dropped before, so a
     * {@code tell} returned normally and the actor's later tells became dead letters with nobody
     * told why. A {@code RejectedExecutionException}, a scheduler shut down, is the ordinary end
     * that dead letters and the termination future report.
     */
    private void passOnRefusal(Throwable refused) {
        if (refused instanceof Error error) {
            throw error;
        }
        if (refused != null && !(refused instanceof RejectedExecutionException)) {
            reportFailure(refused);
        }
    }

    // ------------------------------------------------------------------ activation (holder only)

    /**
     * Hands the held activation to the scheduler with {@code h}: the config's hints, or their
     * {@linkplain Hints#yielding() yielding} copy when the actor used up its messages per
     * activation and must let other work on its worker run first (a work-stealing worker
     * would otherwise pop it straight back from its own deque). An ended actor is drained here
     * instead.
     *
     * <p>If the scheduler refuses, with a {@code RejectedExecutionException}, a hint it cannot
     * honour or an {@code Error} (a pool that cannot start a thread), the actor ends as rejected:
     * nobody else holds the activation, so left {@code ACTIVE} it would never run again and every
     * later message would wait for good. Its queued messages become dead letters and its asks fail.
     * That holds only if this thread claims the activation back; if the activation already claimed
     * it, the scheduler had queued it before it threw, and it runs: the actor goes on, and what
     * the scheduler threw goes to the failure handler (see "Claiming a submitted activation").
     *
     * <p>A {@code StackOverflowError} inside {@code execute} ends the actor too, though it comes of
     * the caller's stack (a sender deep in its recursion) rather than of the scheduler. Given back
     * {@code IDLE} instead, as when {@code schedule} itself overflows before it calls the
     * scheduler (see "Stack overflow" in the overview), the activation would leave the messages
     * that raced in while it was held (their senders returned on finding it held) waiting for a
     * later send, and on a resubmission every message left, with nobody to make that send or to
     * be told.
     *
     * @return what the scheduler threw, or {@code null} if it took the activation
     */
    private Throwable schedule(Hints h, Thread self) {
        if (lvLifecycle() != RUNNING) {
            terminate(REJECTED, null);
            return null;
        }
        spState(SCHEDULED);                   // the holder's own write: execute publishes it to the task
        try {
            scheduler.execute(activation, h);
            return null;
        } catch (Throwable refused) {
            boolean claimedBack;
            try {
                Runnable hook = claimBackHook;
                if (hook != null) {
                    hook.run();
                }
                claimedBack = casState(SCHEDULED, ACTIVE);
            } catch (Throwable undecided) {
                // A throw at the claim-back's entry leaves the caller a claim to settle, not an
                // activation it holds: marked here, by a store (no call), and only here. Marked
                // before the compare-and-set and cleared after it, on every claim-back, the mark
                // of a thread that overflowed was cleared by the queued task's own claim-back
                // (it claimed the activation, resubmitted it and was refused) before that thread
                // read it (see claimBackBy)
                claimBackBy = self;
                throw undecided;
            }
            if (!claimedBack) {
                // Queued before the throw, and claimed: it runs, and this thread holds nothing.
                // Nothing may escape from here now: a caller would take it for a throw while it
                // still held the activation (see "An Error in the cell's own code"): not even at
                // the report's entry, a call that can overflow the stack
                try {
                    reportAfterRelease(refused);
                } catch (Throwable lost) {
                    // dropped, as reportAfterRelease drops what its report throws
                }
                return null;
            }
            terminate(REJECTED, refused);
            return refused;
        }
    }

    /**
     * Reports {@code failure} once this thread has given the activation up: an {@code Error} on
     * the way (the report overflowing the stack) is dropped rather than thrown, since a throw out of
     * {@link #schedule}, {@link #resubmit} or {@link #terminate} means that the caller still holds
     * the activation (see "An Error in the cell's own code" in the overview).
     */
    private void reportAfterRelease(Throwable failure) {
        try {
            reportFailure(failure);
        } catch (Throwable lost) {
            // the report is lost; the actor is not
        }
    }

    /**
     * For a caller that got {@code task} back from its scheduler's {@code shutdownNow()}: if it is
     * an actor's activation, it will never run, and the caller holds it now (an actor has one
     * activation at a time, and this one has left the queue that held it). The actor ends as
     * rejected, as when the scheduler refuses an activation ({@link #schedule}): its waiting asks
     * fail and its tells are dead letters, rather than waiting for good. Other tasks are left
     * alone. The caller claims the activation first, as the task would have: a task that finds
     * nothing to claim (a copy a throwing {@code execute} had queued, see the overview) is left
     * alone too.
     *
     * @return whether {@code task} was an activation
     */
    static boolean rejectDiscarded(Runnable task, Throwable cause) {
        if (task instanceof Activation a) {
            if (a.cell.casState(SCHEDULED, ACTIVE)) {
                a.cell.terminate(REJECTED, cause);
            }
            return true;
        }
        return false;
    }

    /**
     * The scheduler's task: one activation of a cell, and nothing a sender can reach. It is
     * {@link Closing.Droppable}, so that one of Spindle's pools whose interrupted close drops it
     * (a pool the caller owns, closed after the system) ends the actor as {@link #rejectDiscarded}
     * does, rather than leave its asks and its stop waiting for good.
     */
    private static final class Activation implements Runnable, Closing.Droppable {
        private final ActorCell<?> cell;

        Activation(ActorCell<?> cell) {
            this.cell = cell;
        }

        /**
         * One activation, reported to the flight recorder when a recording asks. Never throws.
         * Calls the loop directly, as the cell's own {@code run()} did before this object existed:
         * with one call level more, chameneos ran at 0.83–0.94 of the earlier ratio to Pekko in
         * 3 of 4 alternated runs, written out at 1.15–1.27 (docs/measurements/2026-11-29-s24/actors-ab2).
         * Whether a recording wants the events is asked, once the recorder is initialized, in a
         * guard of its own ({@link #recordingWanted}): the activation is claimed by then.
         *
         * <p>Run by its scheduler inside the {@code execute} of the cell's own resubmission, on the
         * resubmitting thread (a scheduler that runs tasks on the submitting thread:
         * {@code Runnable::run}, a saturation policy that runs the task in the caller), it does not
         * run the actor there: it leaves the activation {@code SCHEDULED}, marks it
         * ({@code rerun}) and returns, and the activation that resubmitted, back here once its
         * loop has returned, claims it and runs the loop again (see "Resubmitted on the same
         * thread" in the overview).
         *
         * <p>Between the claim and the guard of the loop ({@link ActorCell#activate}'s) there are
         * calls: the loop's own entry, the recording checks. A throw there (a stack overflow in an
         * activation that a scheduler runs inside a sender's {@code execute}, at the sender's
         * depth) escaped with the actor held: it stayed {@code ACTIVE} with nobody holding it, its
         * messages and its stop waiting for good, and the sender's {@code schedule}, finding the
         * activation claimed, took it for one that runs. So the cell's {@code runner} is set here,
         * by a store (no call), and cleared by the loop before it gives the activation up: a throw
         * that finds it still this thread's came before the guard, and the activation is given
         * back by a store of {@code IDLE}, no call (see {@code ActorCellProducerFields.state}),
         * then handed on ({@link ActorCell#handOnUnguarded}). The store is the one the loop
         * made at its start before; the guard costs nothing unless something is thrown.
         */
        @Override
        public void run() {
            ActorCell<?> c = cell;
            Thread self = Thread.currentThread();
            if (c.resubmitting == self) {
                c.rerun = true;               // nested in this cell's resubmission: its activation runs it
                return;
            }
            if (!c.casState(SCHEDULED, ACTIVE)) {
                return;                       // not this task's to run: see "Claiming a submitted activation"
            }
            for (;;) {
                c.runner = self;              // held, and running the actor's code: see runsOn
                try {
                    if (JfrGate.open() && recordingWanted(c)) {
                        ActorActivationEvent.activate(c);
                    } else {
                        c.activate();
                    }
                } catch (Throwable beforeTheGuard) {
                    if (c.runner != self) {
                        // After the loop (which never throws) gave the actor up: the recording's
                        // own report overflowing. Passed on, unless the loop's resubmission was
                        // left to this thread (rerun): then it runs below, not left marked for good
                        if (!c.rerun) {
                            throw beforeTheGuard;
                        }
                    } else {
                        c.runner = null;
                        c.state = IDLE;           // given back by a store, no call: see ActorCell.state
                        try {
                            c.handOnUnguarded(beforeTheGuard);
                        } catch (Throwable lost) {
                            // the hand-on overflowed too: the actor is idle, not held, and its next
                            // send or stop() activates it (see "Stack overflow" in the overview)
                        }
                        return;
                    }
                }
                if (!c.rerun) {
                    return;
                }
                // The loop resubmitted the activation, and the scheduler ran it on this thread,
                // nested: it is this thread's again, as it would be a task's. No other thread
                // claims it: the task has run, and neither a claim-back (execute returned) nor a
                // shutdownNow (nothing is queued) can take it.
                c.rerun = false;
                if (!c.casState(SCHEDULED, ACTIVE)) {
                    return;
                }
            }
        }

        /**
         * Whether a recording wants this activation's events; asked only once the flight recorder
         * is initialized. Never throws: the caller has claimed the actor, and only
         * {@link ActorCell#activate} gives that up. The first question initializes the event
         * classes, which can fail (an {@code OutOfMemoryError} while JFR instruments them, or a
         * {@code StackOverflowError} at the bottom of a deep stack); thrown from here, that escaped
         * with the actor held, and it never ran again, its messages neither processed nor dead
         * letters. So a failure costs the events of this activation only, and goes to the failure
         * handler. A class whose initialization failed answers every later use with a
         * {@code LinkageError} ({@code NoClassDefFoundError}), so after one the events are not
         * asked for again: reported once, not on every activation of every actor.
         */
        private static boolean recordingWanted(ActorCell<?> c) {
            if (eventsUnavailable) {
                return false;
            }
            try {
                Runnable hook = recordingCheckHook;
                if (hook != null) {
                    hook.run();
                }
                return ActorActivationEvent.enabled() || MailboxDepthEvent.enabled();
            } catch (Throwable recording) {
                if (recording instanceof LinkageError) {
                    eventsUnavailable = true;
                }
                c.reportFailure(recording);
                return false;
            }
        }

        @Override
        public void dropped() {
            rejectDiscarded(this, new RejectedExecutionException("the scheduler of actor '" + cell.name
                    + "' was stopped (an interrupted close) before the actor ran again"));
        }

        @Override
        public String toString() {
            return "activation of actor '" + cell.name + "'";
        }
    }

    /**
     * One activation: at most {@code maxPerActivation} messages. Never throws.
     *
     * @return how many messages it took from the mailbox
     */
    int activate() {
        int budget = maxPerActivation;
        boolean yieldNext = false;              // end the activation before the next message
        // Whether this thread holds the activation, for a throw of the cell's own code: false only
        // between the release below and the CAS that takes it back. A local, so it costs nothing
        // per message (see "An Error in the cell's own code" in the overview).
        boolean held = true;
        // This thread, as the caller has just stored it in runner (a read, no call): compared with
        // claimBackBy after a throw
        Thread self = runner;
        // runner: set by the caller (Activation.run) right after its claim, so that a throw before
        // this guard is told from one inside it; cleared below before the activation is given up
        try {
            for (;;) {
                Envelope e = poll();
                if (e != null) {
                    A a = actor;
                    if (a == null) {
                        e.reject(this);
                    } else if (e instanceof Envelope.Stop) {
                        // Ends the actor, rejects what is queued behind the stop and gives up the
                        // activation (terminate), so this activation is over.
                        e.deliver(a, this);
                        return maxPerActivation - budget + 1;
                    } else {
                        processed++;            // before delivery: an answered ask is already counted
                        e.deliver(a, this);
                    }
                    // A message that left its thread interrupted (a restored InterruptedException,
                    // or shutdownNow's interrupt) ends the activation as a spent budget does: the
                    // next message would otherwise inherit the interrupt and fail its waits. The
                    // scheduler, whose thread it is, then decides, as between any two of its tasks:
                    // Spindle's pools and ThreadPoolExecutor drop a stray interrupt before their
                    // next task, and once stopping refuse the resubmission, which ends the actor.
                    yieldNext = --budget <= 0 || Thread.currentThread().isInterrupted();
                    if (!yieldNext) {
                        continue;
                    }
                    if (head != lvTail()) {
                        runner = null;          // the next activation may start on another thread at once
                        resubmit();             // yield the thread, keep the activation
                        return maxPerActivation - budget;
                    }
                }
                runner = null;
                state = IDLE;                   // a volatile store, as svState, but no call to overflow in
                held = false;
                if (head == lvTail() || !casState(IDLE, ACTIVE)) {
                    return maxPerActivation - budget;
                }
                held = true;
                if (yieldNext) {
                    resubmit();
                    return maxPerActivation - budget;
                }
                runner = Thread.currentThread();
            }
        } catch (Throwable escaped) {
            runner = null;
            // Held: ours, unless it threw in schedule's claim-back (marked), where the queued task
            // may have claimed it already and a claim decides: the state read here cannot tell
            // the task's ACTIVE from ours. Given up: take it back as a sender would, if nobody
            // else has. All reads and stores up to the try, no calls.
            boolean undecided = held && self != null && claimBackBy == self;
            if (undecided) {
                claimBackBy = null;
            }
            boolean ours = held && !undecided;
            try {
                if (ours || (undecided ? casState(SCHEDULED, ACTIVE)
                                       : state == IDLE && casState(IDLE, ACTIVE))) {
                    ours = true;
                    undecided = false;
                    recover(escaped);
                    ours = false;               // handed on: recover throws only before that
                } else {
                    undecided = false;
                    reportAfterRelease(escaped);
                }
            } catch (Throwable again) {
                // The recovery threw too (a stack overflow at its first calls, in an activation
                // run at a sender's depth by a scheduler that runs it inside execute), or the
                // claim above did: left held, the actor never ran again. Give it back, by calls
                // shallower than those that threw; its messages wait for the next send or
                // stop(), as after a sender's overflow in schedule (see "Stack overflow"). From
                // SCHEDULED (a claim not made, or the recovery's own resubmission throwing in its
                // claim-back) by a compare-and-set that races the queued task's claim.
                if (ours && claimBackBy != self) {
                    state = IDLE;               // a store, no call: see the field's comment
                } else if (ours || undecided) {
                    claimBackBy = null;
                    casState(SCHEDULED, IDLE);
                }
            }
            return maxPerActivation - budget;
        }
    }

    /**
     * For an activation whose claim was followed by a throw before the loop's guard (see
     * {@code Activation.run}), which has just given the activation back: activates the actor
     * again if messages wait, as a sender would (on a scheduler that queues the task the actor goes
     * on; on one that runs it here, deeper still, it may overflow again and be given back again,
     * and the next send or {@code stop()} activates it), then reports what was thrown. What the
     * scheduler throws at the new activation ended the actor as any refusal does
     * ({@link #schedule}) and is reported too, as on a resubmission: no sender is told here.
     */
    void handOnUnguarded(Throwable escaped) {
        try {
            activateIfQueued();
        } catch (Throwable refused) {
            reportAfterRelease(refused);
        }
        reportAfterRelease(escaped);
    }

    /**
     * Hands on the activation this thread holds after the cell's own code threw in it (see "An
     * Error in the cell's own code" in the overview), and reports what it threw. A message taken
     * from the mailbox but never delivered fails with it (an ask's future) or goes with its report
     * (a tell); a stop taken but not finished is finished; otherwise the activation is resubmitted
     * and the actor goes on, as it does after a message that threw.
     */
    private void recover(Throwable escaped) {
        Envelope h = head;
        if (lvLifecycle() != RUNNING || h instanceof Envelope.Stop) {
            terminate(STOPPED, null);           // an ended actor keeps its lifecycle: see markEnded
        } else {
            h.abandon(this, escaped);
            resubmit();
        }
        try {
            reportAfterRelease(escaped);        // last: the activation is handed on first
        } catch (Throwable lost) {
            // handed on: a throw from here would be taken for one while it was still held
        }
    }

    /**
     * Hands the held activation back to the scheduler after a full one. Anything the scheduler
     * throws ends the actor as any refusal does ({@link #schedule}); a sender's {@code execute}
     * would pass an {@code Error} on to the sender ({@link #passOnRefusal}), but here no sender is
     * on the stack, and an actor that
     * receives only tells would end with nobody told why. So it goes to the failure handler: an
     * {@code Error} (a pool that cannot start a thread), and any other exception too (a hint the
     * scheduler cannot honour, a scheduler's own bug), which was dropped before. Only a
     * {@code RejectedExecutionException}, a scheduler shutting down, is not: that is the ordinary
     * end that dead letters and the termination future already report. A throw out of here means
     * that this thread still holds the activation.
     */
    private void resubmit() {
        Runnable hook = resubmitHook;
        if (hook != null) {
            hook.run();
        }
        Throwable refused;
        Thread self = Thread.currentThread();
        resubmitting = self;                       // an activation run here, nested, leaves itself to us
        try {
            refused = schedule(yieldHints, self);
        } finally {
            resubmitting = null;                   // a store, no call: cleared on every way out
        }
        if (refused != null && !(refused instanceof RejectedExecutionException)) {
            try {
                reportAfterRelease(refused);
            } catch (Throwable lost) {
                // released: nothing may escape now, not even from the report's entry
            }
        }
    }

    /**
     * Called by spawn once the factory returned: installs the actor and gives up the activation
     * the spawning thread has held since the cell was made. A throw out of here (a stack overflow
     * before the release) means that the caller still holds it.
     */
    void start(A actorObject) {
        actor = actorObject;
        runner = null;                         // the factory is over
        svState(IDLE);
    }

    /**
     * Called by spawn after {@link #start}: activates the actor if the factory sent it messages,
     * as their senders would have, had the spawning thread not held the activation. Through the
     * senders' own path ({@link #activateIfIdle}): a {@code schedule} that throws before the
     * scheduler took the activation (a stack overflow in a spawn deep in a stack) gives it back,
     * as it does for a sender, where it was left held, the actor never ran again and every later
     * message waited unreported; and the scheduler's {@code Error} goes to the spawning thread, as
     * a sender's would.
     */
    void activateIfQueued() {
        if (head != lvTail()) {
            activateIfIdle();
        }
    }

    /**
     * Ends the actor as one whose factory failed (or whose spawn failed after the factory
     * returned), for spawn, which holds the activation. A throw on the way (a stack overflow in
     * {@link #terminate} before it gave the activation up) gives the activation back, as a
     * sender's throw in {@code schedule} does ({@link #activateIfIdle}), and is passed on. Left
     * held, the actor's stop never completed and its messages waited for good, unreported; given
     * back, the next {@code stop()} or send finishes the end (an ended actor's activation drains
     * its mailbox: see {@link #schedule}).
     */
    void failToStart(Throwable cause) {
        try {
            terminate(FAILED, cause);
        } catch (Throwable stillHeld) {
            // terminate throws only while the caller holds the activation. If it broke off before
            // it ended the actor, end it here, with calls shallower than the one that threw: given
            // back still running without its object, its activation rejected the stop (as an
            // ended actor's) and the stop never completed
            try {
                if (lvLifecycle() == RUNNING) {
                    markEnded(FAILED, cause);
                }
            } finally {
                state = IDLE;                   // held: a store, no call (see the field's comment)
            }
            throw stillHeld;
        }
    }

    /**
     * Ends the actor (unless it already ended) and rejects everything in the mailbox, then gives
     * up the activation the caller holds, looking again for messages that raced in. Only then
     * does it complete the termination future: whoever waits on {@code stop()} must find the
     * messages queued behind the stop already dead letters and their asks failed, not still
     * pending (completing it first ran the waiter's stages, or woke its {@code join()}, ahead of
     * the rejections).
     */
    void terminate(int how, Throwable cause) {
        runner = null;                         // the caller holds the activation; rejecting stands in below
        if (lvLifecycle() == RUNNING) {
            markEnded(how, cause);
        }
        // Failing an ask runs its dependent stages here, on this thread, before the termination
        // completes. A stage that waits on this actor's stop() (ref.stop().join()) would wait for
        // this very loop: stop() called on this thread meanwhile returns a completed future. The
        // actor has ended, and nothing else runs on this thread before the loop is over. (The
        // loop cannot start again inside itself: its thread holds the activation throughout.)
        rejecting = Thread.currentThread();
        try {
            for (;;) {
                Envelope e;
                while ((e = poll()) != null) {
                    try {
                        e.reject(this);
                    } catch (Throwable failed) {
                        // The cell's own code (an OutOfMemoryError counting the dead letter, a
                        // stack overflow at its call): the envelope was taken, so going on ends;
                        // stopping here left the rest of the mailbox, and the termination, waiting
                        // for good. A tell's rejection throws only before its count (an ask's
                        // catches what its count throws and counts it itself, as here): counted
                        // here by a store, no call, before the report, which may overflow too
                        // (see ActorSystem.deadLettersUncounted)
                        if (e instanceof Envelope.Tell) {
                            system.deadLettersUncounted++;
                        }
                        reportFailure(failed);
                    }
                }
                state = IDLE;                   // a volatile store, no call (see the field's comment)
                // Given up: nothing below may throw (a throw out of here means that the caller
                // still holds the activation). The look for a message that raced in calls less
                // deep than poll just did from this frame. Should it throw all the same, the
                // termination is left incomplete, so that a later stop() finishes the end (see
                // stop) rather than have it complete with that message never rejected.
                boolean again;
                try {
                    again = head != lvTail() && casState(IDLE, ACTIVE);
                } catch (Throwable unchecked) {
                    return;
                }
                if (!again) {
                    break;
                }
            }
        } finally {
            rejecting = null;
        }
        try {
            settle(termination, null, null);
        } catch (Throwable lost) {
            // settle reports what the stages throw; only its report failing on the way lands here
        }
    }

    /** Moves the lifecycle out of RUNNING; holder only, through {@link #terminate}. */
    private void markEnded(int how, Throwable cause) {
        endCause = cause;
        svLifecycle(how);
        // After the store: a throw in it (a stack overflow) changed nothing, whereas an actor
        // dropped before it left a running actor whose next activation rejected its stop unseen
        actor = null;
        if (registered) {
            try {
                system.actorEnded(this, processed);
            } catch (Throwable counting) {
                // The system's counts, not the actor's end, and they stay right: the live actors
                // are counted from the lifecycle just stored, and an actor left in the system's
                // set has its processed messages counted from this cell (see ActorSystem.actors).
                // Left there, it would stay for good: the flag (a store, no call, so it cannot
                // overflow here) has the next actor's end or spawn take it out, and comes first,
                // as the report may overflow too
                system.uncountedEnds = true;
                reportFailure(counting);
            }
        }
    }

    /**
     * Messages waiting, for {@link MailboxDepthEvent} and {@link ActorSystem#deepestMailboxes};
     * any thread. A bounded mailbox's size; an unbounded one's links behind {@code head}, counted
     * up to {@code limit}. A message whose producer has not linked it yet is not counted.
     *
     * <p>Read by a thread other than the holder, {@code head} may be stale while the holder
     * polls: walking from an envelope already taken either stops at once (poll unlinks what it
     * takes) or counts a few taken ones too. Either way the walk follows {@code next} links only
     * (acquiring loads of release stores), ends at the tail or the limit, and changes nothing.
     */
    long depth(long limit) {
        if (capacity != ActorConfig.UNBOUNDED) {
            return lvSize();
        }
        long n = 0;
        for (Envelope e = lvHead().lvNext(); e != null && n < limit; e = e.lvNext()) {
            n++;
        }
        return n;
    }

    private Envelope poll() {
        Envelope h = head;
        Envelope n = h.lvNext();
        if (n == null) {
            if (h == lvTail()) {
                return null;
            }
            n = awaitLink(h);
        }
        h.spNext(null);
        head = n;
        if (capacity != ActorConfig.UNBOUNDED) {
            addSize(-1);
        }
        return n;
    }

    /** A producer has exchanged the tail but not yet linked its envelope: wait for the link. */
    private static Envelope awaitLink(Envelope h) {
        Envelope n;
        int spins = 0;
        while ((n = h.lvNext()) == null) {
            if (++spins < 128) {
                Thread.onSpinWait();
            } else {
                Thread.yield();               // the producer was descheduled mid-offer
            }
        }
        return n;
    }

    // ------------------------------------------------------------------ helpers

    void reportFailure(Throwable failure) {
        system.reportFailure(this, failure);
    }

    ActorStoppedException stoppedException() {
        Runnable hook = rejectionAllocationHook;
        if (hook != null) {
            hook.run();
        }
        int how = lvLifecycle();
        Throwable cause = endCause;
        String why = switch (how) {
            case REJECTED -> "actor '" + name + "' has stopped: its scheduler refused to run it";
            case FAILED -> "actor '" + name + "' failed to start";
            default -> "actor '" + name + "' has stopped";
        };
        return new ActorStoppedException(name, why, cause);
    }

    /**
     * Completes {@code future} (an ask's, or the termination) with {@code value}, or exceptionally
     * with {@code failure} if that is not null, on the actor's thread, running its dependent stages
     * here. A stage that fails, or that a failure reaches, gets it wrapped in a
     * {@code CompletionException}, whose constructor calls the failure's {@code toString()}: the
     * application's code, which may throw. The JDK lets that escape from {@code complete} and
     * leaves the future's other stages, and the threads waiting in its {@code join()}, unfired.
     * Escaping here, it ended the activation without giving it up (the actor never ran again, its
     * stop never completed) or the rejections of a stop half-way. So it goes to the failure
     * handler, and the completion is called again: {@code complete} runs the remaining stages even
     * once the future is done, and each throw has taken its own stage off the stack, so this ends.
     * The one stage whose failure could not be wrapped stays incomplete, as the JDK leaves it.
     */
    @SuppressWarnings("unchecked")
    void settle(CompletableFuture<?> future, Object value, Throwable failure) {
        CompletableFuture<Object> f = (CompletableFuture<Object>) future;
        for (;;) {
            try {
                if (failure != null) {
                    f.completeExceptionally(failure);
                } else {
                    f.complete(value);
                }
                return;
            } catch (Throwable stage) {
                reportFailure(stage);
            }
        }
    }

    /**
     * Whether {@code t} runs this actor's code now: a message or the factory ({@link #runner}), or
     * the rejection of what the stop left queued ({@link #rejecting}). A future only this actor
     * completes ({@link ActorFuture}) cannot complete while {@code t}, waiting for it, does so. Any
     * thread; reads both fields plainly, and only in a blocking wait. Each field holds a thread
     * only between that thread's own write of itself and its own clearing write (every holder
     * clears {@code runner} before it gives the activation up), so a reader finds itself there
     * exactly when it runs the actor; a stale value it may read is another thread's, or null.
     */
    boolean runsOn(Thread t) {
        return runner == t || rejecting == t;
    }

    /** Messages delivered so far; racy read for statistics. */
    long processedCount() {
        return lpProcessedOpaque();
    }
}

/** Fields written once or rarely, read by senders: one group of cache lines. */
abstract class ActorCellColdFields<A> {
    private static final VarHandle LIFECYCLE;
    private static final VarHandle STOP_STATE;

    /** {@link #stopState}: no stop requested. */
    static final int NO_STOP = 0;
    /** {@link #stopState}: a stop was requested, its envelope not yet in the mailbox. */
    static final int STOP_REQUESTED = 1;
    /** {@link #stopState}: the stop envelope has its place in the mailbox (the tail was exchanged). */
    static final int STOP_QUEUED = 2;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            LIFECYCLE = l.findVarHandle(ActorCellColdFields.class, "lifecycle", int.class);
            STOP_STATE = l.findVarHandle(ActorCellColdFields.class, "stopState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ActorSystem system;
    final Scheduler scheduler;
    final Hints hints;
    /** {@link #hints} marked as yielding: for a resubmission after a full activation. */
    final Hints yieldHints;
    final String name;
    final int maxPerActivation;
    final int capacity;
    /** RUNNING, STOPPED, REJECTED or FAILED; written once, by the activation holder. */
    private int lifecycle;
    /** NO_STOP, STOP_REQUESTED or STOP_QUEUED; moved on only by the one stop() that requested it. */
    private int stopState;
    /** Why the actor ended, if not by stop; published by the lifecycle store. */
    Throwable endCause;
    /**
     * The thread inside {@code terminate}'s rejection loop, else null. Written by that thread
     * only and compared with the reader's own thread, which sees its own writes: a plain field.
     */
    Thread rejecting;
    /** Whether spawn registered the actor with its system; set before the first activation. */
    boolean registered;

    ActorCellColdFields(ActorSystem system, Scheduler scheduler, ActorConfig config, String name) {
        this.system = system;
        this.scheduler = scheduler;
        this.hints = config.hints();
        this.yieldHints = hints.withYielding(true);
        this.name = name;
        this.maxPerActivation = config.maxMessagesPerActivation();
        this.capacity = config.mailboxCapacity();
    }

    final int lvLifecycle() {
        return (int) LIFECYCLE.getVolatile(this);
    }

    final void svLifecycle(int v) {
        LIFECYCLE.setVolatile(this, v);
    }

    /**
     * Moves the stop's state from {@code expect} to {@code update}: the request, the mark and the
     * withdrawal alike. One method for all three, so that the mark and the withdrawal, made after
     * the request from the same frame, run the very code the request ran and need no deeper stack
     * (see "Stack overflow" in {@link ActorCell}); two methods of the same shape may be compiled
     * differently, with frames of different sizes.
     */
    final boolean casStopState(int expect, int update) {
        return STOP_STATE.compareAndSet(this, expect, update);
    }

    final int lvStopState() {
        return (int) STOP_STATE.getVolatile(this);
    }
}

@SuppressWarnings("unused")
abstract class ActorCellPad1<A> extends ActorCellColdFields<A> {
    long p01, p02, p03, p04, p05, p06, p07, p08;

    ActorCellPad1(ActorSystem system, Scheduler scheduler, ActorConfig config, String name) {
        super(system, scheduler, config, name);
    }
}

/** Fields that senders write: the mailbox tail, the activation state, the bounded size. */
abstract class ActorCellProducerFields<A> extends ActorCellPad1<A> {
    private static final VarHandle TAIL;
    private static final VarHandle STATE;
    private static final VarHandle SIZE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TAIL = l.findVarHandle(ActorCellProducerFields.class, "tail", Envelope.class);
            STATE = l.findVarHandle(ActorCellProducerFields.class, "state", int.class);
            SIZE = l.findVarHandle(ActorCellProducerFields.class, "size", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Envelope tail;
    /**
     * IDLE, ACTIVE or SCHEDULED. Accessed through {@code STATE} with the mode each access needs,
     * except where the holder gives the activation up from the loop and where it gives it back
     * after a throw in the cell's own code: there {@code state = IDLE} (a volatile store, as
     * {@code svState}, the field being volatile) and {@code state == ACTIVE} are no calls, and
     * cannot overflow the stack where the calls before them did (see "Stack overflow" in
     * {@link ActorCell}). From {@code ACTIVE} a plain store is enough: nobody else writes the state
     * of an activation held (producers move it from {@code IDLE} only, the task's claim from
     * {@code SCHEDULED}). Declaring the field volatile changes no {@code STATE} access: a
     * VarHandle's mode is its own.
     *
     * <p>Until session 77 those give-backs were a compare-and-set from {@code ACTIVE}, the claim's
     * own call, argued unable to overflow where the claim had not. But a give-back runs in a frame
     * whose later calls have just overflowed, and the stack-limit test caught it failing: the
     * throw left the activation (run by a scheduler inside a sender's {@code execute}), the
     * sender's {@code schedule}, finding the activation claimed, took it for one a task runs, and
     * the actor stayed {@code ACTIVE} with nobody holding it, its stop waiting for good.
     */
    volatile int state;
    /** Messages in a bounded mailbox; unused when unbounded. */
    private int size;

    ActorCellProducerFields(ActorSystem system, Scheduler scheduler, ActorConfig config, String name) {
        super(system, scheduler, config, name);
    }

    final Envelope lvTail() {
        return (Envelope) TAIL.getVolatile(this);
    }

    final void spTail(Envelope e) {
        TAIL.set(this, e);
    }

    final Envelope xchgTail(Envelope e) {
        return (Envelope) TAIL.getAndSet(this, e);
    }

    final int lvState() {
        return (int) STATE.getVolatile(this);
    }

    final void spState(int v) {
        STATE.set(this, v);
    }

    final void svState(int v) {
        STATE.setVolatile(this, v);
    }

    final boolean casState(int expect, int update) {
        return STATE.compareAndSet(this, expect, update);
    }

    /** Messages in a bounded mailbox now. */
    final int lvSize() {
        return (int) SIZE.getVolatile(this);
    }

    /** Adds {@code delta} to the bounded size; returns the previous value. */
    final int addSize(int delta) {
        return (int) SIZE.getAndAdd(this, delta);
    }

    /** Sets the bounded size to {@code update} if it is {@code expect}; returns the value it found. */
    final int caxSize(int expect, int update) {
        return (int) SIZE.compareAndExchange(this, expect, update);
    }
}

@SuppressWarnings("unused")
abstract class ActorCellPad2<A> extends ActorCellProducerFields<A> {
    long p11, p12, p13, p14, p15, p16, p17, p18;

    ActorCellPad2(ActorSystem system, Scheduler scheduler, ActorConfig config, String name) {
        super(system, scheduler, config, name);
    }
}

/** Fields only the activation holder touches, on every message. */
abstract class ActorCellConsumerFields<A> extends ActorCellPad2<A> {
    private static final VarHandle PROCESSED;
    private static final VarHandle HEAD;
    private static final VarHandle END_TALLY;

    static {
        try {
            PROCESSED = MethodHandles.lookup()
                    .findVarHandle(ActorCellConsumerFields.class, "processed", long.class);
            HEAD = MethodHandles.lookup()
                    .findVarHandle(ActorCellConsumerFields.class, "head", Envelope.class);
            END_TALLY = MethodHandles.lookup()
                    .findVarHandle(ActorCellConsumerFields.class, "endTally", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Where a snapshot finds this ended actor's processed messages: {@link #TALLY_IN_CELL},
     * {@link #TALLY_MOVING} or {@link #TALLY_IN_TOTAL} (see {@code ActorSystem.countEnd}). Claimed
     * by a compare-and-set, then written with plain volatile stores by the claimant, which are no
     * calls and cannot overflow the stack where the add before them did. Here, with the fields
     * the holder writes, rather than with the read-mostly ones: an int more in that group left a
     * 4-byte gap after the senders' {@code tail}, which the JVM's field layout filled with
     * {@code head} (offsets 136 and 140, one cache line), and every tell to a busy actor then
     * contended with its consumer (tell-only at 0.74 of the build before, session 77;
     * {@code ActorCellLayoutTest} guards it).
     */
    volatile int endTally;

    /** {@link #endTally}: counted from this cell by a snapshot (a running actor, or an end not yet counted). */
    static final int TALLY_IN_CELL = 0;
    /** {@link #endTally}: claimed by the thread moving the count into the system's total; skipped by a snapshot. */
    static final int TALLY_MOVING = 1;
    /** {@link #endTally}: in the system's total; skipped by a snapshot, and the cell may leave the set. */
    static final int TALLY_IN_TOTAL = 2;

    /** The last envelope taken: the queue's stub. Written plainly by the holder. */
    Envelope head;
    /** The actor object; null before start and after the actor ended. */
    A actor;
    /** Messages delivered; written by the holder, read racily by statistics. */
    long processed;
    /**
     * The thread running the actor's code (its messages, or its factory) while it holds the
     * activation, else null: {@link ActorCell#runsOn}. Written plainly by that thread, twice per
     * activation (at its start, and before it gives the activation up), on the line the holder
     * writes on every message anyway.
     */
    Thread runner;
    /**
     * The thread inside this cell's resubmission ({@code ActorCell.resubmit}), while its
     * scheduler's {@code execute} runs, else null: an activation that its scheduler runs on that
     * same thread, nested in the {@code execute}, leaves itself to the activation that resubmitted
     * it ({@link #rerun}). Written plainly by that thread, before and after the call, once per
     * resubmission (a full activation), never per message; compared by a thread with itself, so a
     * reader finds itself here exactly while it resubmits.
     */
    Thread resubmitting;
    /**
     * Set by an activation that found its own thread {@link #resubmitting} (so it did not run),
     * read and cleared by the activation that resubmitted it, on the same thread, once its loop
     * has returned: it then claims the activation and runs it, in a loop rather than nested.
     */
    boolean rerun;
    /**
     * The thread whose {@code ActorCell.schedule} threw in its claim-back (the scheduler threw
     * after the state was made {@code SCHEDULED}, then the claim-back's compare-and-set at its
     * entry, a stack overflow), until that thread's caller has read it; else null. Set by
     * a store in the claim-back's own handler, and only there: the caller, catching that throw,
     * then knows that the activation may be the queued task's already, claimed by it, and that a
     * compare-and-set from {@code SCHEDULED} decides, not the state it reads ({@code ACTIVE} is then
     * the task's, not its own); it clears the mark by a store. Compared by a thread with itself,
     * as {@link #resubmitting} is: only this thread's own store can make it equal to this thread.
     * Another thread's store can overwrite a pending mark only if that thread took the activation
     * meanwhile (the queued task), its own scheduler threw and its claim-back overflowed in turn.
     * (Set before every claim-back's compare-and-set and cleared after it, it was overwritten by
     * any claim-back of the task's, one that a refused resubmission makes, and read cleared.)
     */
    Thread claimBackBy;

    ActorCellConsumerFields(ActorSystem system, Scheduler scheduler, ActorConfig config, String name) {
        super(system, scheduler, config, name);
    }

    final long lpProcessedOpaque() {
        return (long) PROCESSED.getOpaque(this);
    }

    /** {@link #head} for a reader other than the holder (statistics): racy, possibly stale. */
    final Envelope lvHead() {
        return (Envelope) HEAD.getAcquire(this);
    }

    /** Claims the move of this ended actor's count into its system's total: see {@link #endTally}. */
    final boolean casEndTally(int expect, int update) {
        return END_TALLY.compareAndSet(this, expect, update);
    }
}
