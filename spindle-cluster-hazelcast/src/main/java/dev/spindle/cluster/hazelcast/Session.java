/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One member's side of the coordinator's session: the session id (the coordinator draws a random
 * one at start; a worker adopts it when the coordinator has proved itself, see {@link Handshake}),
 * this member's sender id and sequence numbers, and a {@link ReplayWindow} per sender.
 *
 * <p>The sequence numbers are counted per addressee: each member sees the numbers of the frames
 * sent to it with no gaps, so a replay window bounds how far a frame may be overtaken among the
 * sender's frames <em>to this member</em>. Frames between two members travel on paths that do not
 * keep their order (a worker's one message thread for the coordinator's tasks, its fetch pool for
 * the coordinator's probes and other workers' fetch requests, a callback thread for the replies to
 * its own fetches); with one sequence for every addressee, as before, a frame overtaken by a single
 * later one was refused as too old whenever the sender had sent {@value ReplayWindow#WINDOW}
 * frames to other members in between (a coordinator of many workers does so in a moment), and a
 * refused frame of tasks was lost with nobody told.
 *
 * <p>A frame is accepted only if its signature checked (done before, by {@link FrameCodec}), it
 * names this session (so nothing from an earlier session of the same secret is accepted, although
 * attempt numbers restart there), its sender is a member proved in this session (the caller's
 * check), it comes from the sender's current incarnation (so a late frame of a lost process whose
 * id rejoined is not taken for the new one's), and its sequence number is new for that
 * incarnation (so a frame is acted on once). What fails
 * is counted as a replay and logged once per claimed sender.
 */
final class Session {

    private final int self;
    private final long incarnation;
    private final Offences offences;
    private final AtomicReference<UUID> id = new AtomicReference<>();
    /** The last sequence number sent to each addressee (see the class comment). */
    private final Map<Integer, AtomicLong> seqs = new ConcurrentHashMap<>();
    private final Map<Integer, Window> windows = new ConcurrentHashMap<>();

    /**
     * The replay window of one sender's current incarnation, and the window of the incarnation
     * before it. The previous one is kept because the incarnation a frame is checked against
     * is read from the roster before the check: while an id rejoins, a thread may check a frame
     * of the old process against the old incarnation after frames of the new one were
     * accepted. Replacing the new window then (as before session 41) let the next frame of the
     * new incarnation start a fresh one, which accepted replays of frames already acted on.
     * With both kept, neither incarnation's window is ever reset by the other; a third
     * incarnation drops the oldest, whose process was lost two rejoins ago.
     */
    private static final class Window {
        final long incarnation;
        final ReplayWindow window = new ReplayWindow();
        /** The incarnation before, meaningful only when {@link #previousWindow} is not null. */
        final long previousIncarnation;
        /** The window of the incarnation before, the very object it had (no copy), or null. */
        final ReplayWindow previousWindow;

        Window(long incarnation, Window before) {
            this.incarnation = incarnation;
            this.previousIncarnation = before == null ? 0L : before.incarnation;
            this.previousWindow = before == null ? null : before.window;
        }

        /** The window of {@code inc} if this holds one, else null. */
        ReplayWindow of(long inc) {
            return inc == incarnation ? window : previousWindow != null && inc == previousIncarnation ? previousWindow : null;
        }
    }

    /** A session end for member {@code self}, whose frames carry {@code incarnation}. */
    Session(int self, long incarnation, Offences offences) {
        this.self = self;
        this.incarnation = incarnation;
        this.offences = offences;
    }

    /** This member's incarnation, carried in every frame it sends. */
    long incarnation() {
        return incarnation;
    }

    /** Adopts {@code session} if none is set; returns whether this member is now in it. */
    boolean join(UUID session) {
        return id.compareAndSet(null, session) || session.equals(id.get());
    }

    /** The session, or {@code null} before one is joined. */
    UUID id() {
        return id.get();
    }

    /**
     * A frame of this session from this member to {@code to}'s process {@code toIncarnation}
     * ({@link Wire#COORDINATOR_INCARNATION} for the coordinator), with this member's next sequence
     * number to {@code to}.
     */
    Wire.Frame frame(int to, long toIncarnation, Object body) {
        return frame(to, toIncarnation, List.of(body));
    }

    /** A frame of a batch of bodies, in this session from this member, with its next sequence number to {@code to}. */
    Wire.Frame frame(int to, long toIncarnation, List<Object> bodies) {
        UUID s = id.get();
        if (s == null) {
            throw new IllegalStateException("no session yet");
        }
        long seq = seqs.computeIfAbsent(to, k -> new AtomicLong()).incrementAndGet();
        return new Wire.Frame(s, self, incarnation, to, toIncarnation, seq, bodies);
    }

    /**
     * Whether a verified frame may be acted on: addressed here (to this member's incarnation: a
     * frame sealed for the process that held this id before is refused, counted and logged as a
     * replay, since this process's replay window has never seen it), in this session, from the
     * sender's current incarnation {@code incarnation} (as proven, see {@link Roster#incarnation})
     * and new from that incarnation. The caller has checked that the sender is proven in this
     * session. A frame of an earlier incarnation (a late frame of a lost process whose id has
     * rejoined) is refused, counted and logged once per sender and incarnation; each incarnation
     * has its own replay window, as its sequence numbers start again.
     */
    boolean accept(Wire.Frame f, long incarnation) {
        UUID s = id.get();
        if (f.to() != self) {
            return false;                     // for another member: not an offence, not ours
        }
        if (s == null || !s.equals(f.session())) {
            offences.record(Offences.Kind.REPLAY, "sender " + f.sender() + " of session " + f.session(),
                    "a frame of another session");
            return false;
        }
        if (f.toIncarnation() != this.incarnation) {
            offences.record(Offences.Kind.REPLAY, "sender " + f.sender() + " to incarnation " + f.toIncarnation(),
                    "a frame for another incarnation of member " + self + " (a process lost or replaced)");
            return false;
        }
        if (f.incarnation() != incarnation) {
            offences.record(Offences.Kind.REPLAY, "sender " + f.sender() + " incarnation " + f.incarnation(),
                    "a frame of another incarnation of sender " + f.sender() + " (a process lost or replaced)");
            return false;
        }
        ReplayWindow w = windows.compute(f.sender(),
                (k, old) -> old != null && old.of(incarnation) != null ? old : new Window(incarnation, old)).of(incarnation);
        if (!w.accept(f.seq())) {
            offences.record(Offences.Kind.REPLAY, "sender " + f.sender(),
                    "sequence number " + f.seq() + " seen before or too old");
            return false;
        }
        return true;
    }
}
