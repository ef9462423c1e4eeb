/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import dev.spindle.bench.workload.Size;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What an interleaved harness that compares runtimes can be told: which workloads and runtimes,
 * how many workers, rounds and warm-up rounds, at which size, with which progress display.
 * Each harness names its valid workloads and runtimes and its default rounds.
 *
 * @param <O> the concrete options type, returned by the setters for chaining
 */
public abstract class RunOptions<O extends RunOptions<O>> {

    private final List<String> validWorkloads;
    private final List<String> validRuntimes;
    private final String runtimeKind;

    List<String> workloads;
    List<String> runtimes;
    int workers = Runtime.getRuntime().availableProcessors();
    int rounds;
    int warmupRounds;
    Size size = Size.QUICK;
    Progress progress = Progress.none();

    /**
     * With every valid runtime selected by default.
     *
     * @param runtimeKind how error messages name a runtime ("actor runtime", "async runtime")
     */
    protected RunOptions(List<String> validWorkloads, List<String> validRuntimes, String runtimeKind,
            int defaultRounds, int defaultWarmupRounds) {
        this(validWorkloads, validRuntimes, validRuntimes, runtimeKind, defaultRounds, defaultWarmupRounds);
    }

    /**
     * @param defaultRuntimes the runtimes selected unless {@link #runtimes} says otherwise: some
     *        valid ones may not run on every JVM
     * @param runtimeKind how error messages name a runtime ("actor runtime", "async runtime")
     */
    protected RunOptions(List<String> validWorkloads, List<String> validRuntimes, List<String> defaultRuntimes,
            String runtimeKind, int defaultRounds, int defaultWarmupRounds) {
        this.validWorkloads = List.copyOf(validWorkloads);
        this.validRuntimes = List.copyOf(validRuntimes);
        this.runtimeKind = runtimeKind;
        this.workloads = this.validWorkloads;
        this.runtimes = checked(defaultRuntimes, this.validRuntimes, runtimeKind);
        this.rounds = defaultRounds;
        this.warmupRounds = defaultWarmupRounds;
    }

    @SuppressWarnings("unchecked")
    private O self() {
        return (O) this;
    }

    /**
     * Workload names, in the order to report them.
     *
     * @throws IllegalArgumentException for an unknown or repeated name, naming the valid ones or
     *         the repeated one, or an empty list
     */
    public O workloads(List<String> names) {
        this.workloads = checked(names, validWorkloads, "workload");
        return self();
    }

    /**
     * Runtime ids, in the order to report them.
     *
     * @throws IllegalArgumentException for an unknown or repeated id, naming the valid ones or
     *         the repeated one, or an empty list
     */
    public O runtimes(List<String> ids) {
        this.runtimes = checked(ids, validRuntimes, runtimeKind);
        return self();
    }

    public O workers(int n) {
        this.workers = atLeast("workers", n, 1);
        return self();
    }

    public O rounds(int n) {
        this.rounds = atLeast("rounds", n, 1);
        return self();
    }

    public O warmupRounds(int n) {
        this.warmupRounds = atLeast("warm-up rounds", n, 1);
        return self();
    }

    /** The workload sizes; {@link Size#QUICK} by default, {@link Size#TINY} for tests. */
    public O size(Size s) {
        this.size = s;
        return self();
    }

    public O progress(Progress p) {
        this.progress = p;
        return self();
    }

    public List<String> workloads() {
        return workloads;
    }

    public List<String> runtimes() {
        return runtimes;
    }

    /**
     * {@code names} trimmed and in lower case, each checked against {@code valid}. A repeated name
     * (after trimming and lower-casing) is refused, not dropped: it is as likely a typo for a name
     * that was meant as a harmless repeat, and {@code EchoHarness.Options.servers} refuses one too.
     *
     * @param what how error messages name one of them ("workload", "actor runtime")
     * @throws IllegalArgumentException for an unknown name, naming the valid ones, a repeated
     *         name, naming it, or an empty list
     */
    static List<String> checked(List<String> names, List<String> valid, String what) {
        if (names.isEmpty()) {
            throw new IllegalArgumentException("no " + what + " selected; valid: " + String.join(", ", valid));
        }
        List<String> out = new ArrayList<>();
        for (String n : names) {
            String name = n.trim().toLowerCase(Locale.ROOT);
            if (!valid.contains(name)) {
                throw new IllegalArgumentException("unknown " + what + " '" + n + "'; valid: " + String.join(", ", valid));
            }
            if (out.contains(name)) {
                throw new IllegalArgumentException(what + " '" + n + "' given twice");
            }
            out.add(name);
        }
        return List.copyOf(out);
    }

    private static int atLeast(String what, int v, int min) {
        if (v < min) {
            throw new IllegalArgumentException(what + " must be at least " + min + ", was " + v);
        }
        return v;
    }
}
