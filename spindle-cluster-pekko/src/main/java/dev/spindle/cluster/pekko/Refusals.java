/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import dev.spindle.cluster.LogText;
import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts refusals of one kind (members, frames) and logs each offender once, so that an operator
 * sees every offender and a noisy one cannot flood the log. The set of offenders already logged
 * is bounded: past {@value #MAX_REMEMBERED} distinct offenders, refusals are still counted but
 * logged no more (one line says so), so an attacker inventing offender names cannot grow memory.
 * An offender's name and the reason may come from the peer (a refused TLS peer is named by its
 * certificate's subject, which anyone can make): both are logged {@linkplain LogText#printable printable},
 * so a peer cannot write a line of its own into the log, and cut to a bounded length, so the
 * names remembered stay small.
 * Thread-safe.
 */
final class Refusals {

    static final int MAX_REMEMBERED = 1024;
    /** The longest offender name logged and remembered, in characters. */
    static final int MAX_NAME = 512;
    /** The longest reason logged, in characters. */
    static final int MAX_WHY = 1024;
    private static final System.Logger LOG = System.getLogger(Refusals.class.getName());

    private final String what;
    private final AtomicLong count = new AtomicLong();
    private final Set<String> logged = ConcurrentHashMap.newKeySet();

    /** @param what the kind refused, for the log line ("member", "frame") */
    Refusals(String what) {
        this.what = what;
    }

    /** Counts one refusal of {@code offender}; logs it if this offender was not logged before. */
    void refuse(String offender, String why) {
        count.incrementAndGet();
        offender = LogText.printable(offender, MAX_NAME);
        why = LogText.printable(why, MAX_WHY);
        if (logged.size() < MAX_REMEMBERED) {
            if (logged.add(offender)) {
                LOG.log(Level.WARNING, "refused a {0} ({1}): {2} (further refusals of this offender are counted, not logged)",
                        what, offender, why);
            }
        } else if (logged.add("")) {
            LOG.log(Level.WARNING, "more than {0} offenders refused a {1}; no longer logging new ones", MAX_REMEMBERED, what);
        }
    }

    /** Refusals so far. */
    long count() {
        return count.get();
    }
}
