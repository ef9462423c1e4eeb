/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import dev.spindle.cluster.LogText;
import java.lang.System.Logger.Level;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one member refused, by kind: counted for the operator's statistics and logged once per
 * offender, so a member that retries a refused action every few milliseconds costs one log line,
 * not thousands (and past {@value #MAX_REMEMBERED} offenders of a kind, a new one is counted and
 * not logged). An offender is a Hazelcast member UUID when the transport knows it, else the
 * claimed sender or a fixed word ({@code "unsigned"}). An offender other than a UUID, and the
 * detail, are often the peer's own text (a class name read from a frame, a joiner's address, a
 * claimed session): both are logged {@linkplain LogText#printable printable} and cut to a bounded
 * length, so that a peer cannot write a line of its own into the log, and offenders are
 * remembered so, so that the remembered names stay small. Thread-safe.
 */
final class Offences {

    /** The kinds of refusal, each with its own counter. */
    enum Kind {
        /** A member that did not prove the secret, or claimed a taken worker id; counted once per member. */
        REFUSED_MEMBER,
        /** A second member that claimed to be the coordinator; counted once per member. */
        REFUSED_COORDINATOR,
        /** A frame with a missing or wrong signature. */
        BAD_SIGNATURE,
        /**
         * A correctly signed frame of another session, a sequence number seen before, or a frame
         * of a worker's earlier incarnation (its process was lost and the id rejoined).
         */
        REPLAY,
        /** A frame whose declared length exceeds the limit; nothing was allocated for it. */
        OVERSIZED,
        /** A signed payload naming a class outside the allow-list, or unreadable. */
        REFUSED_CLASS
    }

    /**
     * Offenders remembered per kind for the log-once rule. Beyond this, a new offender is counted
     * but not logged (one line says so, once per kind): logged, every refusal of a fresh offender
     * (a refused class name, a made-up session, a member UUID per join) wrote a line, as fast as a
     * sender could name one.
     */
    private static final int MAX_REMEMBERED = 10_000;
    /** The longest offender name logged and remembered, in characters. */
    static final int MAX_NAME = 512;
    /** The longest detail logged, in characters. */
    static final int MAX_DETAIL = 1024;

    private static final System.Logger LOG = System.getLogger(Offences.class.getName());

    private final String member;
    private final Map<Kind, AtomicLong> counts = new EnumMap<>(Kind.class);
    private final Map<Kind, Set<Object>> logged = new EnumMap<>(Kind.class);
    /** The kinds whose remembered offenders filled up, said once in the log. */
    private final Set<Kind> full = ConcurrentHashMap.newKeySet();

    /** @param member this member's name, for the log lines */
    Offences(String member) {
        this.member = member;
        for (Kind k : Kind.values()) {
            counts.put(k, new AtomicLong());
            logged.put(k, ConcurrentHashMap.newKeySet());
        }
    }

    /**
     * Counts one offence; logs it if it is the offender's first of this kind.
     *
     * @return whether this was the offender's first offence of this kind
     */
    boolean record(Kind kind, Object offender, String detail) {
        // a UUID is printable and small as it is, and forget() finds it by equality
        if (!(offender instanceof java.util.UUID)) {
            offender = LogText.printable(offender, MAX_NAME);
        }
        Set<Object> seen = logged.get(kind);
        boolean remembered = seen.size() < MAX_REMEMBERED && seen.add(offender);
        boolean first = remembered || !seen.contains(offender);
        boolean perMember = kind == Kind.REFUSED_MEMBER || kind == Kind.REFUSED_COORDINATOR;
        if (first || !perMember) {
            counts.get(kind).incrementAndGet();
        }
        String what = kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        if (remembered) {
            LOG.log(Level.WARNING, "{0}: {1} from {2}: {3} (logged once per offender)", member, what, offender,
                    LogText.printable(detail, MAX_DETAIL));
        } else if (first && full.add(kind)) {
            LOG.log(Level.WARNING, "{0}: {1} from {2}: {3}; more than {4} offenders of this kind: new ones are "
                    + "counted, not logged", member, what, offender, LogText.printable(detail, MAX_DETAIL),
                    MAX_REMEMBERED);
        }
        return first;
    }

    /** Forgets a member that left, so the remembered set stays small (UUIDs are never reused). */
    void forget(Object offender) {
        for (Set<Object> s : logged.values()) {
            s.remove(offender);
        }
    }

    long count(Kind kind) {
        return counts.get(kind).get();
    }
}
