/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.bench.actor.ActorKit;
import dev.spindle.bench.actor.Addr;
import dev.spindle.bench.actor.Handler;
import dev.spindle.bench.workload.Size;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A run of the actor suite that fails reports its failure, and closes every runtime. When a
 * workload hung on Pekko (a handler that never returned), closing that actor system failed too
 * ("did not terminate": the handler still ran), and that failure, thrown from the harness's finally
 * block, replaced the workload's: the report named no workload, and the runtimes after it were
 * never closed. Found by review; failed before the fix (the close's failure came out, and the
 * Spindle runtime stayed open).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ActorHarnessFailureTest {

    /** A real kit, noted in {@code closed} when closed; {@code hung}, it spawns nothing and does not terminate. */
    private record Watched(ActorKit real, boolean hung, Set<String> closed) implements ActorKit {

        @Override
        public String id() {
            return real.id();
        }

        @Override
        public <M> Addr<M> spawn(Function<Addr<M>, Handler<M>> behaviour) {
            if (hung) {
                throw new IllegalStateException("pingpong on " + id() + " did not complete within 60 s");
            }
            return real.spawn(behaviour);
        }

        @Override
        public Throwable firstFailure() {
            return real.firstFailure();
        }

        @Override
        public void close() {
            closed.add(id());
            real.close();
            if (hung) {
                throw new IllegalStateException("Pekko actor system " + id() + " did not terminate");
            }
        }
    }

    @Test
    void aWorkloadThatHungIsReportedAndEveryRuntimeIsClosed() {
        Set<String> closed = ConcurrentHashMap.newKeySet();
        ActorHarness h = new ActorHarness(new ActorHarness.Options().size(Size.TINY).workers(1).rounds(1)
                .warmupRounds(1).workloads(List.of("pingpong")).runtimes(List.of("pekko-t5", "spindle-ws")),
                (spec, workers) -> new Watched(spec.open(workers), spec.id().equals("pekko-t5"), closed));

        Throwable thrown = catchThrowable(h::run);

        assertThat(thrown).hasMessageContaining("pingpong on pekko-t5 did not complete");
        assertThat(thrown.getSuppressed()).extracting(Throwable::getMessage)
                .containsExactly("Pekko actor system pekko-t5 did not terminate");
        assertThat(closed).containsExactlyInAnyOrder("pekko-t5", "spindle-ws");
    }
}
