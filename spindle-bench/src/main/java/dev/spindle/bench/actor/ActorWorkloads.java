/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import dev.spindle.bench.workload.Size;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Every actor workload by name, at each {@link Size}. {@link Size#FULL} is the Savina suite's
 * size; {@link Size#QUICK} is the same except for
 * the two longest, chameneos (100,000 meetings instead of 200,000) and big (5,000 pings per
 * actor instead of 20,000), so that {@code spindle bench actors} stays well within three
 * minutes on two cores with four runtimes; {@link Size#TINY} is for unit tests.
 */
public final class ActorWorkloads {

    private static final Map<String, Function<Size, ActorWorkload>> ALL = new LinkedHashMap<>();

    static {
        ALL.put("pingpong", s -> new SavinaPingPong(pick(s, 200, SavinaPingPong.FULL_PINGS, SavinaPingPong.FULL_PINGS)));
        ALL.put("threadring", s -> new ThreadRing(pick(s, 10, ThreadRing.FULL_ACTORS, ThreadRing.FULL_ACTORS),
                pick(s, 1_000, ThreadRing.FULL_HOPS, ThreadRing.FULL_HOPS)));
        ALL.put("chameneos", s -> new Chameneos(pick(s, 10, Chameneos.FULL_CHAMENEOS, Chameneos.FULL_CHAMENEOS),
                pick(s, 500, 100_000, Chameneos.FULL_MEETINGS)));
        ALL.put("big", s -> new Big(pick(s, 10, Big.FULL_ACTORS, Big.FULL_ACTORS),
                pick(s, 50, 5_000, Big.FULL_PINGS)));
        ALL.put("fjthrput", s -> new FjThroughput(pick(s, 100, FjThroughput.FULL_MESSAGES, FjThroughput.FULL_MESSAGES),
                pick(s, 6, FjThroughput.FULL_ACTORS, FjThroughput.FULL_ACTORS)));
        ALL.put("count", s -> new Count(pick(s, 1_000, Count.FULL_COUNT, Count.FULL_COUNT)));
        ALL.put("tell-only", s -> new TellOnly(pick(s, 2, TellOnly.FULL_SENDERS, TellOnly.FULL_SENDERS),
                pick(s, 500, TellOnly.FULL_MESSAGES, TellOnly.FULL_MESSAGES)));
    }

    private ActorWorkloads() {
    }

    private static int pick(Size s, int tiny, int quick, int full) {
        switch (s) {
            case TINY:
                return tiny;
            case QUICK:
                return quick;
            default:
                return full;
        }
    }

    /** The names of all actor workloads, in report order. */
    public static List<String> names() {
        return List.copyOf(ALL.keySet());
    }

    /**
     * Builds the actor workload called {@code name} at {@code size}.
     *
     * @throws IllegalArgumentException naming the valid workloads if there is none by that name
     */
    public static ActorWorkload create(String name, Size size) {
        Function<Size, ActorWorkload> f = ALL.get(name);
        if (f == null) {
            throw new IllegalArgumentException("unknown actor workload '" + name + "'; valid: " + String.join(", ", names()));
        }
        return f.apply(size);
    }
}
