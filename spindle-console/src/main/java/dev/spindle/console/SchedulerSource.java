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
 * (from the change since the previous sample).
 */
class SchedulerSource extends Source {

    /** A worker's reading before its first sample: none. */
    private static final long[] NO_READING = {-1, -1, -1, -1, -1};

    private final Supplier<SchedulerStats> stats;
    private long lastNanos = -1;
    /**
     * Per worker index: done (completed plus polls), steals, parks, CPU nanos, its thread id, at
     * the last sample. Rebuilt each sample from the workers reported, so it holds no more than
     * those, whatever their indices (a stats supplier of the application's may report any).
     */
    private Map<Integer, long[]> last = new HashMap<>();
    /** The same for the whole scheduler (a worker slot that appears has no earlier reading). */
    private final long[] lastTotals = {-1, -1, -1};

    SchedulerSource(String name, Supplier<SchedulerStats> stats) {
        super(name);
        this.stats = stats;
    }

    @Override
    void sample(StringBuilder sb, long nanos, ThreadCpu cpu) {
        SchedulerStats s = stats.get();
        long elapsed = lastNanos < 0 ? 0 : nanos - lastNanos;
        lastNanos = nanos;
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
        for (WorkerStats w : s.workers()) {
            long[] before = last.getOrDefault(w.index(), NO_READING);
            long[] now;
            synchronized (cpu) {       // shared with a stuck source's late sample: see Source
                long cpuNanos = cpu.cpuNanos(s.name() + "-worker-" + w.index());
                now = new long[] {w.completed() + w.polls(), w.steals(), w.parks(), cpuNanos, cpu.lastThreadId()};
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
        last = seen;
        long[] totals = {s.completed() + s.polls(), s.steals(), s.parks()};
        Json.field(sb, "donePerSec", Source.rate(totals[0], lastTotals[0], elapsed));
        Json.field(sb, "stealsPerSec", Source.rate(totals[1], lastTotals[1], elapsed));
        Json.field(sb, "parksPerSec", Source.rate(totals[2], lastTotals[2], elapsed));
        System.arraycopy(totals, 0, lastTotals, 0, totals.length);
        moreFields(sb);
        Json.close(sb, '}');
    }

    /** Appends a subclass's own fields (with the field writers, trailing comma and all). */
    void moreFields(StringBuilder sb) {
    }
}
