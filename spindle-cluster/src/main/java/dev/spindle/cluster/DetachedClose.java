/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Closes what a transport's coordinator holds once its member stopped under it (downed, shut down
 * by another part of the application, its executor shut down by a peer), not by its own
 * {@code close()}: once, on a daemon thread of its own, with the reason logged. Left up, the
 * scheduler could reach no worker and hear from none: its futures stayed pending and its client
 * took tasks that went nowhere.
 *
 * <p>Why a thread of its own: the stop is reported on a thread of the stopping member (Pekko's
 * termination callback, Hazelcast's lifecycle listener, which holds the lifecycle lock, or a sender
 * thread), and the scheduler's close waits for its futures' callbacks. A callback that closes the
 * coordinator in turn waits for what that thread holds (the actor system's termination, which
 * waits for its callbacks; the lifecycle lock), and a close on a sender thread would stop the
 * thread it runs on. The thread is made without the caller's inheritable thread locals, so that
 * nothing of a transport's thread carries over into the close or stays reachable from it. A close
 * that throws is logged with the reason, not left to the thread's uncaught-exception handler.
 *
 * <p>Why once: a member reports its stop more than once (Hazelcast's shutting-down and shutdown
 * events), and several reasons may come at once; the reason is logged once. Once the owner closes
 * (or has closed) by itself ({@link #ownerCloses}; each transport says when), the member's stop
 * that follows is its own doing: nothing is started or logged.
 *
 * <p>What differs stays with each transport: what is closed (Pekko's scheduler; the whole
 * Hazelcast coordinator, which also shuts its member down), the reasons and their levels. A
 * Hazelcast worker leaving the cluster (its coordinator left, it was retired or cut off) is the
 * same shape the other way round: its member is shut down once, on a thread of its own, for the
 * first reason, which the worker records ({@link #start(Level, String, Runnable)}) for its exit
 * status.
 *
 * <pre>{@code
 * DetachedClose whenStopped = new DetachedClose(LOG, "the coordinator", "spindle-coordinator-closing", this::close);
 * // in the member's stop listener:
 * whenStopped.start(Level.WARNING, "the member stopped without close(): the coordinator closes");
 * // first in close():
 * whenStopped.ownerCloses();
 * }</pre>
 *
 * <p>For transport implementers: public only so that the transports in other modules share one
 * definition; it is not an API for applications.
 */
public final class DetachedClose {

    private static final Runnable NOTHING = () -> { };

    private final System.Logger log;
    private final String what;
    private final String threadName;
    private final Runnable close;
    /** Set by the first {@link #start}, or by {@link #ownerCloses}: the close starts at most once. */
    private final AtomicBoolean done = new AtomicBoolean();

    /**
     * A close not started yet.
     *
     * @param log where the reason and a close's throwable are logged: the transport's logger
     * @param what what {@code close} closes, for the log ("the coordinator")
     * @param threadName the name of the thread that runs the close
     * @param close the close, safe to run after (and while) the owner's own close runs
     * @throws NullPointerException if an argument is null
     */
    public DetachedClose(System.Logger log, String what, String threadName, Runnable close) {
        this.log = Objects.requireNonNull(log, "log");
        this.what = Objects.requireNonNull(what, "what");
        this.threadName = Objects.requireNonNull(threadName, "threadName");
        this.close = Objects.requireNonNull(close, "close");
    }

    /**
     * Logs {@code why} at {@code level} and starts the close on a new daemon thread, unless it
     * was started already or the owner closes by itself; the caller does not wait for it.
     *
     * @param level the level of the reason's log line
     * @param why why the close runs
     * @return whether this call started the close
     * @throws NullPointerException if an argument is null
     */
    public boolean start(Level level, String why) {
        return start(level, why, NOTHING);
    }

    /**
     * As {@link #start(Level, String)}, but runs {@code first} on the caller's thread if, and only
     * if, this call starts the close, before the close's thread starts: for an owner that records
     * which reason won, to be read once the close has run (a Hazelcast worker's exit status, read
     * once its member has shut down). Recorded after {@code start} returned, the reason could be
     * read too late; recorded under a guard of the owner's own, the once-guard would be in two
     * places. If {@code first} throws, the close still starts, and the throwable is thrown here.
     *
     * @param level the level of the reason's log line
     * @param why why the close runs
     * @param first what to run once this call has won, before the close starts; it should not block
     * @return whether this call started the close
     * @throws NullPointerException if an argument is null
     */
    public boolean start(Level level, String why, Runnable first) {
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(why, "why");
        Objects.requireNonNull(first, "first");
        if (!done.compareAndSet(false, true)) {
            return false;
        }
        try {
            first.run();
        } finally {
            closeDetached(level, why);   // a first that throws still leaves nothing open
        }
        return true;
    }

    /** Logs {@code why} and runs the close on a new daemon thread, catching and logging what it throws. */
    private void closeDetached(Level level, String why) {
        log.log(level, why);
        Runnable closeNow = () -> {
            try {
                close.run();
            } catch (Throwable e) {
                log.log(Level.ERROR, "closing " + what + " (" + why + ") threw", e);
            }
        };
        Thread t = new Thread(null, closeNow, threadName, 0, false);   // no inheritable thread locals
        t.setDaemon(true);
        t.start();
    }

    /**
     * The owner closes, or has closed, by itself: a later {@link #start} does nothing (the member's
     * stop that follows is the owner's doing). A close started already runs on.
     */
    public void ownerCloses() {
        done.set(true);
    }
}
