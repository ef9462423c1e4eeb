/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import dev.spindle.SchedulerStats;
import dev.spindle.SchedulerStats.WorkerStats;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A pool or async runtime, read through its {@code stats()}: the totals (workers running a task
 * now among them, {@link SchedulerStats#activeWorkers()}), and per worker its busy
 * share (from its thread's CPU clock), queue depth, and tasks done, steals and parks per second
 * (from the change since the previous sample). A scheduler whose stats read no live worker (it
 * has terminated) shows no busy share: its threads have ended, and a thread of their names
 * belongs to another scheduler.
 */
class SchedulerSource extends Source {

    /** A worker's reading before its first sample: none. */
    private static final long[] NO_READING = {-1, -1, -1, -1, -1};

    private final Supplier<SchedulerStats> stats;
    /**
     * The readings the rates start from: those of the last sample {@linkplain #delivered()
     * delivered}, not merely taken. A read the console gave up on as stuck still returns, late,
     * on its reader thread, with the counters as they were then, while its sample's time is when
     * it started: kept as the last reading, the next rates set the counts of the time after it
     * returned over the whole time since it started (a pool doing a thousand tasks a second
     * showed a few dozen, and a busy share near 0, once its stats answered again). Its sample is
     * never sent, so the next rates run from the last one that was, over the whole gap.
     */
    private Readings last = Readings.NONE;
    /** This sample's readings, until it is delivered; null if none since. */
    private Readings taken;

    SchedulerSource(String name, Supplier<SchedulerStats> stats) {
        super(name);
        this.stats = stats;
    }

    @Override
    void sample(StringBuilder sb, long nanos, long readNanos, ThreadCpu cpu) {
        SchedulerStats s = stats.get();
        Readings last = this.last;
        long elapsed = last.nanos < 0 ? 0 : readNanos - last.nanos;
        begin(sb, "scheduler");
        // the scheduler's own name (a builder's, of any length), cut like every text of the application's
        Json.field(sb, "scheduler", clip(s.name()));
        Json.field(sb, "parallelism", s.parallelism());
        Json.field(sb, "live", s.liveWorkers());
        Json.field(sb, "blocked", s.blockedWorkers());
        Json.field(sb, "active", s.activeWorkers());
        Json.field(sb, "sharedQueued", s.sharedQueued());
        Json.field(sb, "queued", s.queued());
        Json.field(sb, "completed", s.completed());
        Json.field(sb, "polls", s.polls());
        Json.field(sb, "steals", s.steals());
        Json.field(sb, "parks", s.parks());
        Json.field(sb, "unparks", s.unparks());
        Json.field(sb, "rejected", s.rejected());
        Json.field(sb, "failed", s.failed());
        Json.key(sb, "workers").append('[');
        Map<Integer, long[]> seen = new HashMap<>();
        // a terminated scheduler (none live) runs no thread: a thread of its workers' names is
        // another scheduler's, one started under its name since (a restart), whose CPU time it
        // showed as its own
        boolean threads = s.liveWorkers() > 0;
        for (WorkerStats w : s.workers()) {
            long[] before = last.workers.getOrDefault(w.index(), NO_READING);
            long[] now;
            if (threads) {
                synchronized (cpu) {   // shared with a stuck source's late sample: see Source
                    long cpuNanos = cpu.cpuNanos(s.name() + "-worker-" + w.index());
                    now = new long[] {w.completed() + w.polls(), w.steals(), w.parks(), cpuNanos, cpu.lastThreadId()};
                }
            } else {
                now = new long[] {w.completed() + w.polls(), w.steals(), w.parks(), -1, -1};
            }
            double doneRate = Source.rate(now[0], before[0], elapsed);
            double stealRate = Source.rate(now[1], before[1], elapsed);
            double parkRate = Source.rate(now[2], before[2], elapsed);
            // two readings of one thread only: a spare slot gets a new thread, whose CPU time
            // says nothing about the old one's
            double busy = now[3] < 0 || before[3] < 0 || elapsed <= 0 || now[4] != before[4]
                    ? Double.NaN : Math.max(0.0, Math.min(1.0, (now[3] - before[3]) / (double) elapsed));
            seen.put(w.index(), now);
            sb.append('{');
            Json.field(sb, "index", w.index());
            Json.key(sb, "spare").append(w.spare()).append(',');
            Json.field(sb, "busy", busy);
            Json.field(sb, "queued", w.queued());
            Json.field(sb, "donePerSec", doneRate);
            Json.field(sb, "stealsPerSec", stealRate);
            Json.field(sb, "parksPerSec", parkRate);
            Json.close(sb, '}').append(',');
        }
        Json.close(sb, ']').append(',');
        long[] totals = {s.completed() + s.polls(), s.steals(), s.parks()};
        Json.field(sb, "donePerSec", Source.rate(totals[0], last.totals[0], elapsed));
        Json.field(sb, "stealsPerSec", Source.rate(totals[1], last.totals[1], elapsed));
        Json.field(sb, "parksPerSec", Source.rate(totals[2], last.totals[2], elapsed));
        moreFields(sb);
        Json.close(sb, '}');
        taken = new Readings(readNanos, seen, totals);
    }

    @Override
    void delivered() {
        if (taken != null) {
            last = taken;
            taken = null;
        }
    }

    /**
     * One sample's readings: when its read started, per worker index done (completed plus polls), steals,
     * parks, CPU nanos and thread id, and the same three counts for the whole scheduler (a worker
     * slot that appears has no earlier reading). The workers' are rebuilt each sample from the
     * workers reported, so they hold no more than those, whatever their indices (a stats
     * supplier of the application's may report any).
     */
    private record Readings(long nanos, Map<Integer, long[]> workers, long[] totals) {
        static final Readings NONE = new Readings(-1, Map.of(), new long[] {-1, -1, -1});
    }

    /** Appends a subclass's own fields (with the field writers, trailing comma and all). */
    void moreFields(StringBuilder sb) {
    }
}
