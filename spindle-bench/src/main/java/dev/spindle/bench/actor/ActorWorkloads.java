/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import dev.spindle.bench.workload.Size;
import dev.spindle.bench.workload.WorkloadRegistry;
import java.util.List;

/**
 * Every actor workload by name, at each {@link Size}. {@link Size#FULL} is the Savina suite's
 * size; {@link Size#QUICK} is the same except for
 * the two longest, chameneos (100,000 meetings instead of 200,000) and big (5,000 pings per
 * actor instead of 20,000), so that {@code spindle bench actors} stays well within three
 * minutes on two cores with four runtimes; {@link Size#TINY} is for unit tests.
 */
public final class ActorWorkloads {

    private static final WorkloadRegistry<ActorWorkload> ALL = new WorkloadRegistry<>("actor workload");

    static {
        ALL.add("pingpong", s -> new SavinaPingPong(s.pick(200, SavinaPingPong.FULL_PINGS, SavinaPingPong.FULL_PINGS)));
        ALL.add("threadring", s -> new ThreadRing(s.pick(10, ThreadRing.FULL_ACTORS, ThreadRing.FULL_ACTORS),
                s.pick(1_000, ThreadRing.FULL_HOPS, ThreadRing.FULL_HOPS)));
        ALL.add("chameneos", s -> new Chameneos(s.pick(10, Chameneos.FULL_CHAMENEOS, Chameneos.FULL_CHAMENEOS),
                s.pick(500, 100_000, Chameneos.FULL_MEETINGS)));
        ALL.add("big", s -> new Big(s.pick(10, Big.FULL_ACTORS, Big.FULL_ACTORS),
                s.pick(50, 5_000, Big.FULL_PINGS)));
        ALL.add("fjthrput", s -> new FjThroughput(s.pick(100, FjThroughput.FULL_MESSAGES, FjThroughput.FULL_MESSAGES),
                s.pick(6, FjThroughput.FULL_ACTORS, FjThroughput.FULL_ACTORS)));
        ALL.add("count", s -> new Count(s.pick(1_000, Count.FULL_COUNT, Count.FULL_COUNT)));
        ALL.add("tell-only", s -> new TellOnly(s.pick(2, TellOnly.FULL_SENDERS, TellOnly.FULL_SENDERS),
                s.pick(500, TellOnly.FULL_MESSAGES, TellOnly.FULL_MESSAGES)));
    }

    private ActorWorkloads() {
    }

    /** The names of all actor workloads, in report order. */
    public static List<String> names() {
        return ALL.names();
    }

    /**
     * Builds the actor workload called {@code name} at {@code size}.
     *
     * @throws IllegalArgumentException naming the valid workloads if there is none by that name
     */
    public static ActorWorkload create(String name, Size size) {
        return ALL.create(name, size);
    }
}
