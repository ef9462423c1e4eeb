/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import dev.spindle.internal.observe.BoundedReads;

/**
 * Something registered with the console: a scheduler, an actor system or a cluster. One thread at
 * a time calls {@link #sample}, then {@link #delivered}, never two samples at once (a reader thread
 * of the console, handed each call through an executor), so a source may keep the previous
 * reading (for rates) in plain fields. The {@link ThreadCpu} it is given is shared: a sample that
 * outlasted its wait (see {@code Console}) may still be using it while the next sample runs, so
 * a source reads it only while holding its lock.
 */
abstract class Source {

    private final String name;

    /**
     * Its reads on the console's reader threads: the one in flight, which a sample that finds it
     * past its wait shows as not answering (see {@code Console.sample}), or the last one.
     */
    final BoundedReads.Slot<String> reads = new BoundedReads.Slot<>();

    Source(String name) {
        this.name = name;
    }

    /** The name the application registered it under. */
    final String name() {
        return name;
    }

    /**
     * Appends one JSON object describing the source now.
     *
     * @param nanos {@link System#nanoTime()} of this sample, the same for every source: the
     *     sample's {@code time}, from which the page counts a cluster's task runs back
     * @param readNanos {@link System#nanoTime()} as this source's read started, from which its
     *     rates are taken: a sample reads its sources one after another, and waits for one that
     *     has just got stuck, so a source after it is read up to that wait after the sample's
     *     start; rates over the time between two samples' starts set the counts of the wait and
     *     an interval over an interval alone (ten times the true rate under a 100 ms interval)
     * @param cpu the worker threads' CPU clocks, refreshed once per sample
     */
    abstract void sample(StringBuilder sb, long nanos, long readNanos, ThreadCpu cpu);

    /** {@link #sample(StringBuilder, long, long, ThreadCpu)} of a source read as its sample starts. */
    final void sample(StringBuilder sb, long nanos, ThreadCpu cpu) {
        sample(sb, nanos, nanos, cpu);
    }

    /**
     * The last {@link #sample} was sent, as it wrote it: what it passed on once (a cluster's log
     * entries) is passed, and its readings are those the next rates start from. Not called for a
     * sample that threw, or was given up on as stuck: its entries go with the next one, and the
     * next rates run from the last sample sent (a stuck read returns late, its counters of then
     * under its sample's earlier time).
     */
    void delivered() {
    }

    /** Opens this source's JSON object with its kind and name; the caller adds the rest. */
    final StringBuilder begin(StringBuilder sb, String kind) {
        sb.append('{');
        Json.field(sb, "kind", kind);
        return Json.field(sb, "name", name);
    }

    /**
     * The longest text of the application's sent (a scheduler's own name, an actor's name, a
     * task's key or class, a spawn site, an error): each sample goes to every open page, so one
     * long text must not make them all as long.
     */
    static final int MAX_TEXT = 200;

    /**
     * {@code s}, cut to {@link #MAX_TEXT} characters with an ellipsis if longer; never between
     * the two halves of a surrogate pair (an emoji), which would show a broken character.
     */
    static String clip(String s) {
        if (s.length() <= MAX_TEXT) {
            return s;
        }
        int end = MAX_TEXT - 1;
        if (Character.isHighSurrogate(s.charAt(end - 1)) && Character.isLowSurrogate(s.charAt(end))) {
            end--;
        }
        return s.substring(0, end) + "…";
    }

    /**
     * A per-second rate from two readings of a counter; NaN when there is no earlier reading, or
     * the counter went down: a supplier that reads whichever scheduler is current may read one
     * restarted under the name, which counts from zero again, and the difference from the old
     * one's last reading is no rate (it showed as thousands a second below zero).
     */
    static double rate(long now, long before, long elapsedNanos) {
        if (elapsedNanos <= 0 || before < 0 || now < before) {
            return Double.NaN;
        }
        return (now - before) * 1e9 / elapsedNanos;
    }
}
