/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;

/**
 * The actor runtimes the actor workloads compare, by id. Adding one is one line in
 * {@link #ALL}: its id, its family (the report compares the best Spindle variant with the best
 * Pekko one), a description, and how to open it with a number of worker threads.
 */
public final class ActorKits {

    /** Which side of the comparison a runtime is on. */
    public enum Family {
        SPINDLE("Spindle"),
        PEKKO("Pekko");

        private final String label;

        Family(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    /**
     * One runtime variant.
     *
     * @param id the name on the command line and in reports
     * @param family Spindle or the baseline
     * @param description what it is, for reports
     * @param factory opens it with the given number of worker threads
     */
    public record Spec(String id, Family family, String description, IntFunction<ActorKit> factory) {

        /** Opens the runtime with {@code workers} worker threads. */
        public ActorKit open(int workers) {
            return factory.apply(workers);
        }
    }

    private static final List<Spec> ALL = List.of(
            new Spec("pekko-t5", Family.PEKKO,
                    "Pekko classic actors, default dispatcher (fork-join-executor), throughput 5",
                    w -> PekkoActorKit.create("pekko-t5", w, 5)),
            new Spec("pekko-t100", Family.PEKKO,
                    "Pekko classic actors, default dispatcher (fork-join-executor), throughput 100",
                    w -> PekkoActorKit.create("pekko-t100", w, 100)),
            new Spec("spindle-wsh", Family.SPINDLE, "Spindle actors on WorkSharingPool (the default)",
                    SpindleActorKit::workSharing),
            new Spec("spindle-ws", Family.SPINDLE, "Spindle actors on WorkStealingPool", SpindleActorKit::workStealing));

    private ActorKits() {
    }

    /** Every runtime variant, in report order. */
    public static List<Spec> all() {
        return ALL;
    }

    /** The ids of every runtime variant. */
    public static List<String> ids() {
        List<String> ids = new ArrayList<>();
        for (Spec s : ALL) {
            ids.add(s.id());
        }
        return List.copyOf(ids);
    }

    /**
     * The runtime variant called {@code id}.
     *
     * @throws IllegalArgumentException naming the valid ids if there is none by that name
     */
    public static Spec byId(String id) {
        for (Spec s : ALL) {
            if (s.id().equals(id.trim().toLowerCase(Locale.ROOT))) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown actor runtime '" + id + "'; valid: " + String.join(", ", ids()));
    }
}
