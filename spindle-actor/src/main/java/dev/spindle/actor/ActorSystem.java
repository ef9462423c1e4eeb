/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import dev.spindle.Scheduler;
import dev.spindle.internal.BlockingSupport;
import dev.spindle.internal.Closing;
import dev.spindle.internal.MoveBracket;
import dev.spindle.internal.Strays;
import dev.spindle.internal.jfr.JfrGate;
import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Creates actors and runs them on one {@link Scheduler}.
 *
 * <p>An actor is a plain object that the system wraps: it is reached only through its
 * {@link ActorRef}, which sends it messages (lambdas run on the object) that it processes one at
 * a time. See {@link ActorRef} for the guarantees.
 *
 * <pre>{@code
 * final class Greeter {
 *     private int greeted;
 *     String greet(String who) { greeted++; return "hello " + who + " #" + greeted; }
 * }
 *
 * try (ActorSystem system = ActorSystem.create()) {            // owns a pool sized to the cores
 *     ActorRef<Greeter> greeter = system.spawn(Greeter::new);
 *     greeter.tell(g -> g.greet("tell"));                       // result ignored
 *     System.out.println(greeter.ask(g -> g.greet("ask")).join()); // hello ask #2
 * }                                                             // stops the actors, closes the pool
 * }</pre>
 *
 * <h2>Schedulers</h2>
 *
 * <p>{@link #create()} creates a default scheduler with one worker per core, which the system
 * owns and closes. {@link #create(Scheduler)} and {@link Builder#scheduler(Scheduler)} run the
 * actors on a scheduler the caller owns: the system never shuts it down, and the caller closes
 * it after closing the system. Each activation is submitted with
 * {@link Scheduler#execute(Runnable, dev.spindle.Hints)} and the actor's
 * {@linkplain ActorConfig#hints() hints}, so priority and scheduler-union placement work on
 * schedulers that read them.
 *
 * <p>If the scheduler refuses an activation (it throws, typically
 * {@link java.util.concurrent.RejectedExecutionException} because it was shut down under the
 * system), that actor ends: its pending and later asks fail with {@link ActorStoppedException}
 * whose cause is the scheduler's exception, and its pending and later tells are dead letters.
 * What the scheduler threw, unless a {@code RejectedExecutionException}, is also passed on: an
 * {@code Error} to the thread whose message, stop or spawn activated the actor (to the
 * {@link FailureHandler} when the actor handed itself back after a full activation: no sender is
 * on the stack then), anything else to the {@link FailureHandler}. A {@code StackOverflowError}
 * thrown inside {@code execute} ends the actor too, though it says more about the calling
 * thread's stack (a sender at its limit) than about the scheduler: giving the activation back
 * instead, for a later send to try again, would leave the messages that arrived meanwhile (their
 * senders found the actor being scheduled and returned) waiting for a send that may never come,
 * their senders not told. A scheduler that throws after it queued the activation (a
 * {@code ThreadPoolExecutor} that cannot start a thread once the task is in its queue) has refused
 * it only if the activation had not started when the sender claims it back: an activation that
 * started first runs, the actor goes on, and the throw goes to the {@link FailureHandler}; one
 * that runs later finds the actor ended and does nothing. A scheduler that accepts an activation
 * must run it: tasks discarded by {@code shutdownNow()} leave their actors' pending asks
 * incomplete, unless the caller runs the returned tasks. So must one whose {@code execute} returns
 * normally: a {@code ThreadPoolExecutor} whose rejection policy drops a task without a throw
 * ({@code DiscardPolicy} the new one and {@code DiscardOldestPolicy} a queued one when full,
 * {@code CallerRunsPolicy} the new one once shut down) leaves that task's actor neither running
 * nor ended, its messages neither processed nor dead letters, its asks and its stop incomplete,
 * for good and unseen; its default {@code AbortPolicy} throws, which ends the actor as rejected. (Spindle's pools, whose {@code close()} interrupted drops what its
 * {@code shutdownNow()} returns, end those actors as rejected, as this system does with a
 * scheduler of its own.)
 *
 * <h2>Failures</h2>
 *
 * <p>An exception thrown by a {@code tell} message goes to the {@link FailureHandler} (by
 * default {@link FailureHandler#printing()}, which prints the actor's name and the stack trace
 * to {@code System.err}); one thrown by an {@code ask} function fails that future. The actor
 * goes on in both cases. A factory that throws or returns {@code null} makes
 * {@link #spawn(Supplier) spawn} throw {@link ActorCreationException}.
 *
 * <h2>Closing</h2>
 *
 * <p>{@link #close()} refuses further spawns (they throw
 * {@link java.util.concurrent.RejectedExecutionException}, as a pool's submit after shutdown does)
 * and stops every live actor with
 * {@link ActorRef#stop()}: messages already in a mailbox are processed, later ones are dead
 * letters (later asks fail with {@link ActorStoppedException}). If the system owns its
 * scheduler it then closes it, which waits until every actor has processed its stop; with a
 * caller-owned scheduler {@code close()} does not wait, and {@code ref.stop().join()} waits for
 * one actor. The caller then closes its scheduler, and the messages already in a mailbox are
 * processed only if the scheduler, shut down, still runs what an actor's activation submits: an
 * actor hands itself back to its scheduler after {@link ActorConfig#maxMessagesPerActivation()}
 * messages, and a sender outside the scheduler may hold an idle actor's activation on its way to
 * {@code execute}. Spindle's pools run what their own workers submit after {@code shutdown()}; a
 * JDK {@code ThreadPoolExecutor} refuses it, and the actor then ends as rejected (see
 * "Schedulers"): the messages still queued are dead letters, counted, and the asks among them fail
 * with {@link ActorStoppedException} caused by the refusal. To have them processed on any
 * scheduler, wait for the actors' {@code stop()} futures before shutting it down.
 * If the thread closing an owned scheduler is interrupted while it waits, the
 * scheduler is stopped as {@code ExecutorService.close()} (Java 19) stops it ({@code shutdownNow()}), and
 * every actor whose activation had not started ends as rejected: its pending asks fail with
 * {@link ActorStoppedException} and its pending tells are dead letters.
 */
public final class ActorSystem implements AutoCloseable {

    private static final AtomicInteger SYSTEM_SEQ = new AtomicInteger();

    /**
     * The most links of one unbounded mailbox that {@link #deepestMailboxes} counts: beyond it
     * the mailbox is reported as at least this deep.
     */
    public static final int MAILBOX_COUNT_LIMIT = 1000;

    private final String name;
    private final Scheduler scheduler;
    private final boolean ownsScheduler;
    private final FailureHandler failureHandler;

    /**
     * The actors spawned and not yet counted as ended ({@link #actorEnded}). The live ones are
     * those of them whose lifecycle is still RUNNING, counted by {@link #stats()}: not a counter
     * taken back at the end, since the call that counts an end can fail (a
     * {@code StackOverflowError} at its entry, an actor ending deep in a stack), which left the
     * actor counted live for good. The lifecycle's store, the end's own point of no return, is
     * what the count reads now; an actor whose end was not counted stays here, ended, with its
     * processed messages still counted from its cell (or, its count in the total and only its
     * removal failed, skipped: see {@link #countEnd}), until the next actor's end or the next
     * spawn takes it out (see {@link #uncountedEnds}).
     */
    private final Set<ActorCell<?>> actors = ConcurrentHashMap.newKeySet();
    /**
     * Whether an actor's end may have gone uncounted ({@link #actorEnded} threw), leaving the ended
     * actor in {@link #actors}: set by the cell that caught the throw, a plain volatile store (no
     * call, so it cannot overflow the stack that the call just overflowed), after its lifecycle
     * store. The next actor's end and the next spawn read it (one volatile load each, nothing per
     * message) and, finding it set, clear it and walk the set once for ended actors
     * ({@link #sweepUncountedEnds}): a walk paid only after a failure. Nothing is done at the
     * failing frame itself, which may be at the stack's limit, nor by a getter ({@link #stats()}
     * reads, changes nothing). Left set if nothing ends or spawns again: the system is idle then,
     * its counts right, the cells held until it is dropped.
     */
    volatile boolean uncountedEnds;
    private static final VarHandle UNCOUNTED_ENDS;
    private static final VarHandle ENDS_OWED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            UNCOUNTED_ENDS = lookup.findVarHandle(ActorSystem.class, "uncountedEnds", boolean.class);
            ENDS_OWED = lookup.findVarHandle(ActorSystem.class, "endsOwed", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    private final AtomicLong actorSeq = new AtomicLong();
    private final LongAdder deadLetters = new LongAdder();
    /**
     * Dead letters whose count in {@link #deadLetters} failed: an ended actor's rejection of a
     * message left in its mailbox ({@code ActorCell.terminate} for a tell,
     * {@code Envelope.Ask.reject} for an ask) whose call to {@link #deadLetter} overflowed the
     * stack (an actor ended deep in a sender's stack, by a scheduler that runs activations inside
     * {@code execute}), which at a fixed depth fails the same way for every
     * message left: the stack-limit test counted 9 messages neither processed nor dead letters.
     * Added to by the rejecting thread with a plain read and write (no call, so it cannot overflow
     * there too) and read by {@link #stats()}. Two such failures at the same instant on two threads
     * could count one too few.
     */
    volatile long deadLettersUncounted;
    /**
     * Messages processed by actors that have ended and left {@link #actors}. An
     * {@code AtomicLong}, not a {@code LongAdder}: added to once per actor's end, never per
     * message, and its add allocates nothing, whereas a contended adder's first add allocates a
     * cell, which can fail (an {@code OutOfMemoryError}) with the actor already out of the set,
     * its messages then missing from the total for good.
     */
    private final AtomicLong endedProcessed = new AtomicLong();
    /**
     * Ends being counted, for {@link #stats()}: each ended actor's move from its cell to the total
     * is two steps (the claim, the add: see {@link #countEnd}), and a snapshot taken between them
     * missed its messages: a caller that had seen the last actor's stop counted (no actor live)
     * then read a total one actor short. Begun before the claim, ended once the messages have
     * joined {@link #endedProcessed} and the cell left {@link #actors} (a {@code finally}). Once
     * per actor's end, never per message.
     */
    private final MoveBracket ends = new MoveBracket();
    /**
     * Closes of {@link #ends} that failed (a stack overflow at the close's entry, in a {@code
     * finally} run after an overflow in the count: see {@link MoveBracket}), not yet made. Added to
     * by the failing thread with a plain read and write, nothing else: at the stack's limit even a
     * {@code synchronized} block can overflow (its monitor's slow path), and a call can. {@link
     * #stats()} reads them as made (the move they close is over: done, or given back to its cell),
     * read after {@code ends}' own count of closes, which the sweep adds to only after taking them
     * from here, so no snapshot reads a close twice; until session 77 it read them as ends under
     * way, and an idle system, nothing ending or spawning after the failure, counted one actor live
     * for good. {@link #sweepUncountedEnds} (the next actor's end or spawn, which the failure's
     * {@link #uncountedEnds} calls for) makes them. Two closes failing at the same instant on two
     * threads can lose one of the increments (an actor counted live too many for good); a close
     * failing between a sweep's read of this count and its take can write back the count from
     * before the take, so the closes taken are counted again, paid twice by the next sweep (the
     * bracket then reads more closes than opens for good: every snapshot is taken {@link
     * MoveBracket#ATTEMPTS} times and counts that many actors live too few). Each needs a stack
     * overflow on each of two threads within a few instructions; a plain read and write is the
     * price of a count that cannot overflow where the close did.
     */
    private volatile long endsOwed;
    /** The highest {@code messagesProcessed} a snapshot has reported (see {@link #stats()}). */
    private final AtomicLong processedReported = new AtomicLong();
    private volatile boolean closed;
    private final Object closeLock = new Object();
    /**
     * Completes once every actor the first {@link #close()} stopped has ended; null until then.
     * A closer of an owned scheduler waits for it before shutting the scheduler down: an actor's
     * activation may be held, between its compare-and-set and its {@code execute}, by a sender
     * outside the pool, and a pool already shut down would refuse that activation, ending the
     * actor as rejected (its stop unprocessed, the message ahead of it a dead letter) after
     * {@code close()} had returned. A closer on one of the pool's own threads (an actor), which
     * cannot wait, leaves the shutdown to whoever completes it.
     */
    private volatile CompletableFuture<Void> stoppedActorsEnded;
    /**
     * The threads inside {@link #close()}. A close rejects messages on its own thread (an actor
     * its stop found ended, an activation an interrupted close dropped), and their asks' stages
     * run there: one that closes the system again must not wait for the close it is part of.
     */
    private final Set<Thread> closingThreads = ConcurrentHashMap.newKeySet();

    /**
     * Tests only: run by spawn on the spawning thread after the factory returned, just before it
     * adds the actor to the system's set, so that a test can make that step fail (an
     * {@code OutOfMemoryError}). Null otherwise. A plain read, one per spawn: a test sets it on
     * the thread that then spawns.
     */
    static Runnable spawnRegistrationHook;

    /**
     * Tests only: run by {@link #actorEnded} on the ending actor's thread as it is entered, so that
     * a test can make the call fail there (a {@code StackOverflowError} at its entry, deep in a
     * stack). Null otherwise; read once per actor's end, never per message.
     */
    static volatile Runnable actorEndedHook;

    /**
     * Tests only: run by {@link #countEnd} (an actor's own end, or a sweep's) once it has claimed
     * the ended actor's tally, before its processed messages join the total and the cell leaves the
     * set, so that a test can make the add fail there (a stack overflow at its entry). Null
     * otherwise; read once per actor's end, never per message.
     */
    static volatile Runnable endedCountHook;

    /**
     * Tests only: run where an actor's end closes its bracket ({@link #ends}), just before the
     * close, so that a test can make the close fail (a stack overflow at its entry). Null
     * otherwise; read once per actor's end, never per message.
     */
    static volatile Runnable bracketEndHook;

    /**
     * Tests only: run by {@link #deadLetter()} as it is entered, so that a test can make the count
     * fail there (a stack overflow at its entry). Null otherwise; read once per dead letter, never
     * per message delivered.
     */
    static volatile Runnable deadLetterHook;

    /**
     * Tests only: run by {@link #stats()} on the calling thread for each actor of its walk, between
     * its first and its second read of that actor, so that a test can have the actor process a
     * message and end there. Null otherwise; read once per walk, never on an actor's path.
     */
    static volatile Consumer<ActorRef<?>> snapshotWalkHook;

    private ActorSystem(Builder b) {
        this.name = b.name != null ? b.name : "actors-" + SYSTEM_SEQ.incrementAndGet();
        this.ownsScheduler = b.scheduler == null;
        this.scheduler = ownsScheduler ? b.ownScheduler.apply(name) : b.scheduler;
        this.failureHandler = b.failureHandler;
    }

    /**
     * The scheduler of {@link #create()}: one worker per core, named after the system (so that
     * two systems' pools are told apart in metrics and thread dumps). Owned and closed by the
     * system.
     */
    private static Scheduler defaultScheduler(String system) {
        return WorkSharingPool.builder().name("spindle-" + system).build();
    }

    /** {@return a system on a default scheduler with one worker per core, which it owns and closes} */
    public static ActorSystem create() {
        return builder().build();
    }

    /**
     * A system on {@code scheduler}, which the caller owns: the system never shuts it down, and
     * the caller closes it after closing the system.
     *
     * @param scheduler runs the actors' activations
     * @return the system
     * @throws NullPointerException if {@code scheduler} is null
     */
    public static ActorSystem create(Scheduler scheduler) {
        return builder().scheduler(scheduler).build();
    }

    /** {@return a builder for a system with a name, a scheduler or a failure handler of your choice} */
    public static Builder builder() {
        return new Builder();
    }

    // ------------------------------------------------------------------ spawning

    /**
     * Creates an actor from {@code factory} with {@link ActorConfig#DEFAULT}. The factory runs
     * once, on the calling thread, before this method returns.
     *
     * @param <A> the actor object's type
     * @param factory makes the actor's object, which only the actor's activations touch
     * @return the new actor's reference
     * @throws ActorCreationException if the factory throws or returns null
     * @throws RejectedExecutionException if the system is closed
     * @throws NullPointerException if {@code factory} is null
     */
    public <A> ActorRef<A> spawn(Supplier<? extends A> factory) {
        return spawn(factory, ActorConfig.DEFAULT);
    }

    /**
     * Creates an actor from {@code factory} with {@code config}. The factory runs once, on the
     * calling thread, before this method returns.
     *
     * @param <A> the actor object's type
     * @param factory makes the actor's object, which only the actor's activations touch
     * @param config the actor's name, priority, scheduler index and mailbox
     * @return the new actor's reference
     * @throws ActorCreationException if the factory throws or returns null
     * @throws IllegalArgumentException if the system's scheduler is a
     *     {@link SchedulerUnion} without a member at {@code config}'s scheduler index, or whose
     *     member there is a union without one (a union passes the index on to its member)
     * @throws RejectedExecutionException if the system is closed
     * @throws NullPointerException if an argument is null
     */
    public <A> ActorRef<A> spawn(Supplier<? extends A> factory, ActorConfig config) {
        Objects.requireNonNull(factory, "factory");
        return spawnCell(self -> factory.get(), config);
    }

    /**
     * Creates an actor whose factory receives the actor's own reference, so the actor can send
     * messages to itself, typically to come back onto its own thread when a future completes:
     *
     * <pre>{@code
     * ActorRef<Pinger> pinger = system.spawnWithSelf(self -> new Pinger(self, ponger));
     * // in Pinger:  ponger.ask(Ponger::pong).thenAccept(r -> self.tell(p -> p.onPong(r)));
     * }</pre>
     *
     * <p>Write it where the target type fixes {@code A} (an assignment as above, or
     * {@code system.<Pinger>spawnWithSelf(...)}). Messages the factory sends to the reference are
     * processed once the factory has returned.
     *
     * <p>This is not an overload of {@link #spawn(Supplier)}: a constructor reference
     * {@code X::new} fits both a {@code Supplier} and a {@code Function} whenever {@code X} has
     * a no-argument and a one-argument constructor, and the call would be ambiguous.
     *
     * @param <A> the actor object's type
     * @param factory makes the actor's object from the actor's own reference
     * @return the new actor's reference (the one the factory got)
     * @throws ActorCreationException if the factory throws or returns null
     * @throws RejectedExecutionException if the system is closed
     * @throws NullPointerException if {@code factory} is null
     */
    public <A> ActorRef<A> spawnWithSelf(Function<? super ActorRef<A>, ? extends A> factory) {
        return spawnWithSelf(factory, ActorConfig.DEFAULT);
    }

    /**
     * As {@link #spawnWithSelf(Function)}, with {@code config}.
     *
     * @param <A> the actor object's type
     * @param factory makes the actor's object from the actor's own reference
     * @param config the actor's name, priority, scheduler index and mailbox
     * @return the new actor's reference (the one the factory got)
     * @throws ActorCreationException if the factory throws or returns null
     * @throws IllegalArgumentException if the system's scheduler is a
     *     {@link SchedulerUnion} without a member at {@code config}'s scheduler index, or whose
     *     member there is a union without one (a union passes the index on to its member)
     * @throws RejectedExecutionException if the system is closed
     * @throws NullPointerException if an argument is null
     */
    public <A> ActorRef<A> spawnWithSelf(Function<? super ActorRef<A>, ? extends A> factory, ActorConfig config) {
        Objects.requireNonNull(factory, "factory");
        return spawnCell(factory, config);
    }

    private <A> ActorRef<A> spawnCell(Function<? super ActorRef<A>, ? extends A> factory, ActorConfig config) {
        Objects.requireNonNull(config, "config");
        checkSchedulerIndex(config.schedulerIndex());
        ensureOpen();
        if (uncountedEnds) {
            sweepUncountedEnds();
        }
        String actorName = config.name() != null ? config.name() : "actor-" + actorSeq.incrementAndGet();
        ActorCell<A> cell = new ActorCell<>(this, scheduler, config, actorName);
        A actor;
        try {
            actor = factory.apply(cell);
        } catch (Throwable t) {
            // End the cell before describing t: t's toString() is the application's code and may
            // throw, and neither may that leave the factory's asks to itself pending for good nor
            // replace the factory's failure as what spawn throws.
            cell.failToStart(t);
            throw new ActorCreationException(actorName,
                    "factory of actor '" + actorName + "' threw " + Strays.describe(t), t);
        }
        if (actor == null) {
            ActorCreationException failure = new ActorCreationException(actorName,
                    "factory of actor '" + actorName + "' returned null", null);
            cell.failToStart(failure);
            throw failure;
        }
        // This thread holds the actor's activation (a cell is made held) until start gives it up.
        // Something thrown on the way (an OutOfMemoryError adding the cell to the set, a stack
        // overflow) left the actor held for good, its factory's messages neither processed nor
        // rejected, and counted live for good: stats said one actor too many, and if it was in
        // the set, close() stopped it and an owned scheduler's close waited for that stop for
        // good. So it ends as an actor whose factory failed, which takes it out of the set once
        // it is registered (markEnded); registered before it is added, so that an add that threw
        // after it added is taken back too.
        try {
            cell.registered = true;
            Runnable hook = spawnRegistrationHook;
            if (hook != null) {
                hook.run();
            }
            actors.add(cell);
            cell.start(actor);                 // the last call: returned, it has given the activation up
        } catch (Throwable notStarted) {
            cell.failToStart(notStarted);
            throw notStarted;
        }
        cell.activateIfQueued();
        if (closed) {                // close() may have missed the actor: stop it ourselves
            cell.stop();
            throw closedRejection();
        }
        return cell;
    }

    /**
     * Refuses a scheduler index that a union on the way has no member for: the union would refuse
     * the actor's first activation, ending the actor at its first message. A union passes the
     * hints on unchanged, so a member that is itself a union routes by the same index: checked at
     * the top alone, a nested union of fewer members let the spawn succeed and ended the actor at
     * its first message all the same.
     */
    private void checkSchedulerIndex(int index) {
        Scheduler s = scheduler;
        String where = "the system's scheduler union";
        while (s instanceof SchedulerUnion union) {
            if (index >= union.size()) {
                throw new IllegalArgumentException("schedulerIndex " + index + " is out of range: " + where
                        + " has " + union.size() + " member" + (union.size() == 1 ? "" : "s"));
            }
            s = union.member(index);
            where = "member " + index + " of " + where + ", a union too, which routes by the same index,";
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw closedRejection();
        }
    }

    /**
     * What a spawn on a closed system throws: a {@code RejectedExecutionException}, as the pools,
     * the async runtime and the cluster's client throw for work submitted after they were shut
     * down (it was an {@code IllegalStateException}, alone among them), and recorded as they record
     * theirs, as a {@code RejectedSubmit} event naming the system, on the spawner's thread. Only a
     * spawn is a refused submit: a message to an actor the close stopped is a dead letter, counted
     * as such.
     */
    private RejectedExecutionException closedRejection() {
        return JfrGate.rejected(name, new RejectedExecutionException("actor system '" + name + "' is closed"));
    }

    // ------------------------------------------------------------------ callbacks from actors

    void deadLetter() {
        Runnable hook = deadLetterHook;
        if (hook != null) {
            hook.run();
        }
        deadLetters.increment();
    }

    /**
     * Counts the end of {@code cell}, called once by its holder after its lifecycle left RUNNING:
     * its processed messages join the total, then the actor leaves the set (see {@link #countEnd}),
     * by whoever claims the cell's tally: this call, or a sweep that found it ended first
     * ({@link #sweepUncountedEnds}), so its messages are added once. A throw on the way (a stack
     * overflow at the entry) leaves the counts right: an actor still in the set is counted from its
     * cell unless its count has reached the total, and live only while RUNNING; the cell then sets
     * {@link #uncountedEnds}.
     */
    void actorEnded(ActorCell<?> cell, long processed) {
        Runnable hook = actorEndedHook;
        if (hook != null) {
            hook.run();
        }
        countEnd(cell, processed);
        if (uncountedEnds) {
            sweepUncountedEnds();
        }
    }

    /**
     * Moves {@code cell}'s {@code processed} messages into the total and the cell out of the set,
     * inside the ends' bracket, for {@link #actorEnded} and {@link #sweepUncountedEnds}.
     *
     * <p>Every step is a call, and any of them can fail (a stack overflow at its entry, the actor
     * ending deep in a stack; an {@code OutOfMemoryError}); the state left behind must keep the
     * counts right. Removing the cell first, as this did until session 77, was the claim that
     * decided who adds, and an add that failed after it left the messages counted nowhere: the
     * CI's stack-limit test read a total of 0 after one actor had processed 51,167. So the claim
     * is the cell's {@code endTally}, moved from {@code TALLY_IN_CELL} to {@code TALLY_MOVING} by a
     * compare-and-set (whoever wins, this end or a sweep, adds; the loser does nothing); the add
     * follows, and then a plain store, no call, says where the count is now: in the total, or,
     * the add having thrown, back in the cell, which stays in the set counted from itself until a
     * sweep moves it ({@link #uncountedEnds}, set by the caller that caught the throw). Then the
     * cell leaves the set; a removal that fails leaves a cell whose count is in the total, skipped
     * by snapshots, for a sweep to remove.
     *
     * <p>Why a snapshot never counts the messages twice ({@link #counts}): it reads the total
     * before each cell's tally, and the claim's store precedes the add. A cell read as
     * {@code TALLY_IN_CELL} was claimed after that read, so its add came after the total was read;
     * a cell read as claimed is skipped, its add perhaps not yet in the total read (short, never
     * over, and the bracket has the snapshot taken again).
     *
     * <p>A close of the bracket that fails (see {@link #endsOwed}) is owed, and the next end or
     * spawn pays it; a snapshot reads it as made meanwhile.
     */
    private void countEnd(ActorCell<?> cell, long processed) {
        ends.begin();
        try {
            if (cell.casEndTally(ActorCell.TALLY_IN_CELL, ActorCell.TALLY_MOVING)) {
                int tally = ActorCell.TALLY_IN_CELL;    // until the add has returned
                try {
                    Runnable hook = endedCountHook;
                    if (hook != null) {
                        hook.run();
                    }
                    endedProcessed.addAndGet(processed);
                    tally = ActorCell.TALLY_IN_TOTAL;
                } finally {
                    cell.endTally = tally;          // a store, no call: the add's outcome
                }
                actors.remove(cell);
            }
        } finally {
            try {
                Runnable hook = bracketEndHook;
                if (hook != null) {
                    hook.run();
                }
                ends.end();
            } catch (Throwable closeFailed) {
                endsOwed++;                     // a read and a write, no call: see endsOwed
                uncountedEnds = true;           // a store: the next end or spawn pays it
                throw closeFailed;
            }
        }
    }

    /**
     * Moves into the total the processed messages of every ended actor an uncounted end left in
     * {@link #actors}, and takes it out, as {@link #actorEnded} would have (see
     * {@link #countEnd}); takes out a cell whose count reached the total but whose removal failed;
     * and closes the ends' brackets whose close failed ({@link #endsOwed}). Called where
     * {@link #uncountedEnds} was found set. The flag is cleared before the walk, so an end that
     * fails meanwhile sets it again for the next caller; a walk that throws (a stack overflow, at
     * an actor's end deep in a stack) sets it again itself, and gives back the closes it had taken
     * and not made. An actor the walk finds ended may not have made its own call yet: whichever
     * claims its tally adds its messages (read after its lifecycle, whose store follows its last
     * message), the other finds it claimed. A cell found {@code TALLY_MOVING} is being moved by
     * its claimant, which removes it.
     */
    private void sweepUncountedEnds() {
        if (!(boolean) UNCOUNTED_ENDS.getAndSet(this, false)) {
            return;                  // another caller is sweeping, or has swept
        }
        long owed = 0;
        try {
            long due = endsOwed;
            if (due > 0) {
                ENDS_OWED.getAndAdd(this, -due);    // taken: a close that fails meanwhile adds on
                owed = due;
                ends.end(due);                      // after the take: see stats()
                owed = 0;
            }
            for (ActorCell<?> cell : actors) {
                if (cell.isStopped()) {
                    int tally = cell.endTally;
                    if (tally == ActorCell.TALLY_IN_CELL) {
                        countEnd(cell, cell.processedCount());
                    } else if (tally == ActorCell.TALLY_IN_TOTAL) {
                        actors.remove(cell);
                    }
                }
            }
        } catch (Throwable sweepFailed) {
            endsOwed += owed;        // the closes taken and not made (a read and a write)
            uncountedEnds = true;    // a store, no call: the next end or spawn walks again
            throw sweepFailed;
        }
    }

    /**
     * Hands {@code failure} to the failure handler; never throws (its callers hold, or have just
     * given up, an actor's activation). A handler that throws must not take the actor down with
     * it, nor lose the failure it was given: dropped, its exception took that failure with it, and
     * a failed tell left no trace. So its exception goes to the thread's uncaught-exception
     * handler, as what user code throws where nobody waits for it does elsewhere in Spindle
     * ({@link Strays#report}), with the failure suppressed in it (unless the handler rethrew the
     * failure itself, which then goes alone).
     */
    void reportFailure(ActorCell<?> cell, Throwable failure) {
        try {
            failureHandler.onFailure(cell, failure);
        } catch (Throwable handlerFailed) {
            try {
                if (handlerFailed != failure && failure != null) {
                    handlerFailed.addSuppressed(failure);
                }
                Strays.report(handlerFailed);
            } catch (Throwable lost) {
                // the report overflowed the stack too (or a suppression could not be added):
                // nowhere left to report to
            }
        }
    }

    // ------------------------------------------------------------------ state

    /** Tests only: how many actors the system's set holds, ended or not. Reads, changes nothing. */
    int actorsInTheSet() {
        return actors.size();
    }

    /**
     * A snapshot of the counters: messages processed, dead letters, live actors. Exact once
     * no message is in flight and no actor's end is being counted; an actor whose end is being
     * counted as the snapshot is taken counts as live in it, so a snapshot that says no actor is
     * live has the exact count of processed messages (once no message is in flight).
     *
     * @return the snapshot
     */
    public ActorSystemStats stats() {
        // An ended actor's count moves from its cell to the total in two steps (countEnd): read
        // through the ends' bracket, a snapshot that raced one is taken again, and the ends the
        // last one raced count as live (they were, as it began), so that no snapshot says "none
        // live" with a short count. Its sum may then fall short, never exceed. The getter never
        // waits.
        Counts c = ends.read(new MoveBracket.Snapshot<>() {
            @Override
            public Counts read() {
                return counts();
            }

            @Override
            public long closesOwed() {
                return endsOwed;
            }

            @Override
            public Counts withMovers(Counts counts, long movers) {
                return new Counts(counts.processed, (int) Math.min(Integer.MAX_VALUE, counts.live + movers));
            }
        });
        // Published as a counter (Micrometer's spindle.actor.messages), it must never go down:
        // report the highest sum seen, still at most the true count, and exact when the snapshot
        // raced no end.
        long processed = processedReported.accumulateAndGet(c.processed, Math::max);
        return new ActorSystemStats(processed, deadLetters.sum() + deadLettersUncounted, c.live);
    }

    /** What one walk of {@link #stats()} reads. */
    private record Counts(long processed, int live) {
    }

    private Counts counts() {
        long processed = endedProcessed.get();
        int live = 0;
        Consumer<ActorRef<?>> hook = snapshotWalkHook;
        for (ActorCell<?> cell : actors) {
            // The lifecycle first, then the count: an actor read as ended has its final count (the
            // holder's store of the lifecycle follows its last message's count), and one read as
            // running is counted live. Read the other way round, an actor that took a message and
            // ended between the two reads, its end not yet begun in the bracket, was neither live
            // nor counted with that message: a snapshot that said no actor was live with a short
            // total. The count only while its tally is in the cell, read after the total: a cell
            // whose count has been claimed for the total is skipped (see countEnd: never twice)
            boolean running = !cell.isStopped();
            if (hook != null) {
                hook.accept(cell);
            }
            if (cell.endTally == ActorCell.TALLY_IN_CELL) {
                processed += cell.processedCount();
            }
            if (running) {
                live++;
            }
        }
        return new Counts(processed, live);
    }

    /**
     * The {@code n} deepest mailboxes of the live actors, deepest first; empty mailboxes are not
     * listed. Each is read as {@link MailboxDepth} describes (an estimate while actors run; an
     * unbounded mailbox counted up to {@link #MAILBOX_COUNT_LIMIT} links), so one call does at
     * most that much work per actor with messages waiting, and none on the actors' own paths.
     *
     * @param n the most mailboxes to list, 1 to 1000
     * @return up to {@code n} mailboxes, deepest first
     * @throws IllegalArgumentException if {@code n} is not in {@code 1..1000}
     */
    public List<MailboxDepth> deepestMailboxes(int n) {
        if (n < 1 || n > 1000) {
            throw new IllegalArgumentException("n must be in [1, 1000], was " + n);
        }
        PriorityQueue<MailboxDepth> top = new PriorityQueue<>(n, Comparator.comparingLong(MailboxDepth::depth));
        for (ActorCell<?> cell : actors) {
            long depth = cell.depth(MAILBOX_COUNT_LIMIT);
            if (depth == 0 || (top.size() == n && depth <= top.peek().depth())) {
                continue;
            }
            if (top.size() == n) {
                top.poll();
            }
            top.add(new MailboxDepth(cell.name(), depth,
                    cell.capacity == ActorConfig.UNBOUNDED && depth >= MAILBOX_COUNT_LIMIT, cell.capacity));
        }
        List<MailboxDepth> deepest = new ArrayList<>(top);
        deepest.sort(Comparator.comparingLong(MailboxDepth::depth).reversed());
        return deepest;
    }

    /** {@return the system's name} */
    public String name() {
        return name;
    }

    /** {@return the scheduler the actors run on} */
    public Scheduler scheduler() {
        return scheduler;
    }

    /** {@return whether the scheduler was created by the system, which closes it in {@link #close()}} */
    public boolean ownsScheduler() {
        return ownsScheduler;
    }

    /** {@return whether {@link #close()} was called} */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Stops every live actor (messages already enqueued are processed first) and refuses
     * further spawns; then, if the system owns its scheduler, closes it, which waits for the
     * actors to finish (called from an actor's thread it does not wait: the scheduler is shut
     * down once every actor has processed its stop). With a caller-owned scheduler it returns
     * without waiting. Idempotent.
     *
     * <p>If the scheduler refuses an actor's stop with an {@code Error} (which
     * {@link ActorRef#stop()} passes on to its caller, as {@code tell} does; the actor ends as
     * rejected), {@code close()} still stops every other actor and closes an owned scheduler,
     * then throws the first such {@code Error} with the later ones
     * {@linkplain Throwable#addSuppressed suppressed}.
     *
     * <p>Called again on a thread whose {@code close()} is under way (from a stage of an ask that
     * close is failing on that thread, say), it returns at once: the outer call finishes closing,
     * and waiting here would wait for it.
     */
    @Override
    public void close() {
        Thread self = Thread.currentThread();
        if (!closingThreads.add(self)) {
            // An interrupted close fails the asks of actors whose activations shutdownNow dropped
            // on this thread, before those actors end: waiting for them here would wait for good.
            return;
        }
        try {
            closeOnThisThread();
        } finally {
            closingThreads.remove(self);
        }
    }

    private void closeOnThisThread() {
        Error failure = null;
        synchronized (closeLock) {     // a later caller waits until the first has stopped the actors
            if (!closed) {
                closed = true;
                List<CompletableFuture<Void>> ended = new ArrayList<>();
                for (ActorCell<?> cell : actors) {
                    ended.add(cell.termination);
                    try {
                        cell.stop();
                    } catch (Error e) {
                        // the scheduler refused this stop (stop() passes on only Errors). The
                        // closed flag is set, so no later close() would stop the actors after
                        // this one: one refused stop must not end the loop
                        if (failure == null) {
                            failure = e;
                        } else if (e != failure) {     // a scheduler may throw one shared instance
                            failure.addSuppressed(e);
                        }
                    }
                }
                stoppedActorsEnded = CompletableFuture.allOf(ended.toArray(new CompletableFuture<?>[0]));
            }
        }
        if (ownsScheduler) {           // every caller waits for the scheduler (idempotent)
            try {
                closeScheduler(scheduler);
            } catch (RuntimeException | Error e) {
                if (failure == null || e == failure) {
                    throw e;
                }
                failure.addSuppressed(e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Closes the scheduler the system owns (always an {@link ExecutorService}: see
     * {@link #defaultScheduler}) as {@code ExecutorService.close()} (Java 19) does, except for what an
     * interrupt does to the activations still waiting. {@code close()} answers an interrupt with
     * {@code shutdownNow()} and drops the tasks it returns; an actor whose activation was dropped
     * so never runs again, and its asks never completed, its tells were neither processed nor
     * dead letters. So the system closes it with the pools' own loop ({@link Closing}), whose
     * handler of dropped tasks ends every actor whose activation comes back as rejected
     * ({@link ActorCell#rejectDiscarded}), as when a scheduler refuses an activation. Called on
     * one of the pool's own threads (an actor closing its system) it does not wait, as
     * {@code close()} does not (the pool cannot terminate while the caller runs, nor the calling
     * actor end), and it shuts the pool down only once every stopped actor has ended, on the
     * thread that ends the last: shut down at once, the pool would refuse an activation a sender
     * outside it holds (see {@link #stoppedActorsEnded}), as when the closer waits outside.
     */
    private void closeScheduler(Scheduler s) {
        ExecutorService pool = (ExecutorService) s;
        BlockingSupport worker = BlockingSupport.current();
        boolean fromOwnWorker = worker != null && worker.serves(pool);
        CompletableFuture<Void> ended = stoppedActorsEnded;
        if (fromOwnWorker && ended != null && !ended.isDone()) {
            // The calling actor's own stop waits behind the message that called close(), so
            // this thread cannot wait for the others: the last of them to end shuts the pool down.
            ended.whenComplete((v, t) -> pool.shutdown());
            return;
        }
        if (!fromOwnWorker && ended != null) {
            // Let every stopped actor end while the pool still takes activations from outside
            // (see stoppedActorsEnded); an interrupt goes on to shutdownNow below, as before.
            try {
                ended.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException e) {
                // a termination future completes normally only
            }
        }
        Closing.close(pool, fromOwnWorker, task -> {
            // an activation is ended here, with the system's own cause, and only here: ended a
            // second time (cancelIfFuture tells a Droppable too) it would be drained by a thread
            // that no longer holds it
            if (!ActorCell.rejectDiscarded(task, new RejectedExecutionException("actor system '" + name
                    + "' was interrupted while closing, and stopped its scheduler before the actor ran again"))) {
                Closing.cancelIfFuture(task);
            }
        });
    }

    @Override
    public String toString() {
        ActorSystemStats s = stats();
        return "ActorSystem[" + name + (closed ? ", closed" : "") + ", live=" + s.liveActors()
                + ", processed=" + s.messagesProcessed() + ", deadLetters=" + s.deadLetters() + "]";
    }

    // ------------------------------------------------------------------ builder

    /** Configures an {@link ActorSystem}. */
    public static final class Builder {
        private String name;
        private Scheduler scheduler;
        private FailureHandler failureHandler = FailureHandler.printing();

        private Builder() {
        }

        /**
         * The system's name, used in messages. Default {@code actors-<n>}.
         *
         * @param name the name, not blank
         * @return this builder
         * @throws IllegalArgumentException if {@code name} is blank
         * @throws NullPointerException if {@code name} is null
         */
        public Builder name(String name) {
            Objects.requireNonNull(name, "name");
            if (name.isBlank()) {
                throw new IllegalArgumentException("name must not be blank");
            }
            this.name = name;
            return this;
        }

        /**
         * Runs the actors on {@code scheduler}, owned by the caller, who closes it after the
         * system. Default: a scheduler with one worker per core, owned by the system.
         *
         * @param scheduler runs the actors' activations
         * @return this builder
         * @throws NullPointerException if {@code scheduler} is null
         */
        public Builder scheduler(Scheduler scheduler) {
            this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
            return this;
        }

        /**
         * Receives exceptions thrown by {@code tell} messages. Default:
         * {@link FailureHandler#printing()}. An exception the handler throws goes to the calling
         * thread's uncaught-exception handler, with the failure it was handling suppressed in it.
         *
         * @param handler called with each failed {@code tell} message's actor and exception
         * @return this builder
         * @throws NullPointerException if {@code handler} is null
         */
        public Builder failureHandler(FailureHandler handler) {
            this.failureHandler = Objects.requireNonNull(handler, "failureHandler");
            return this;
        }

        /**
         * Makes the scheduler a system given none owns, from the system's name: always
         * {@link #defaultScheduler}, but for tests, which pass one they can hold at a chosen
         * {@code execute}. It must also be an {@link ExecutorService} (see {@link #closeScheduler}).
         */
        Function<String, Scheduler> ownScheduler = ActorSystem::defaultScheduler;

        /** {@return the system, with a default scheduler of its own if none was given} */
        public ActorSystem build() {
            return new ActorSystem(this);
        }
    }
}
