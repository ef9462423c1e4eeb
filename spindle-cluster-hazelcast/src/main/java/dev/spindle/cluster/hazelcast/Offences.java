/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import java.lang.System.Logger.Level;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one member refused, by kind: counted for the operator's statistics and logged once per
 * offender, so a member that retries a refused action every few milliseconds costs one log line,
 * not thousands. An offender is a Hazelcast member UUID when the transport knows it, else the
 * claimed sender or a fixed word ({@code "unsigned"}). Thread-safe.
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

    /** Offenders remembered per kind for the log-once rule; beyond this, repeats may log again. */
    private static final int MAX_REMEMBERED = 10_000;

    private static final System.Logger LOG = System.getLogger(Offences.class.getName());

    private final String member;
    private final Map<Kind, AtomicLong> counts = new EnumMap<>(Kind.class);
    private final Map<Kind, Set<Object>> logged = new EnumMap<>(Kind.class);

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
        Set<Object> seen = logged.get(kind);
        boolean first = seen.size() < MAX_REMEMBERED ? seen.add(offender) : !seen.contains(offender);
        boolean perMember = kind == Kind.REFUSED_MEMBER || kind == Kind.REFUSED_COORDINATOR;
        if (first || !perMember) {
            counts.get(kind).incrementAndGet();
        }
        if (first) {
            LOG.log(Level.WARNING, "{0}: {1} from {2}: {3} (logged once per offender)", member,
                    kind.name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '), offender, detail);
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
