/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.quick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.runtime.RuntimeKind;
import dev.spindle.bench.runtime.Runtimes;
import dev.spindle.bench.workload.Size;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A run that fails reports its failure, and closes every runtime. When a workload hung on a pool
 * ("did not complete within 120 s"), closing that pool failed too ("did not terminate within
 * 30 s": its tasks were still stuck), and that failure, thrown from the harness's finally block,
 * replaced the workload's: the report named no workload, and the runtimes after it were never
 * closed (their threads stayed). Found by review; failed before the fix (the close's failure
 * came out, and the two ForkJoinPools stayed open).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class QuickHarnessFailureTest {

    /**
     * A real runtime, noted in {@code closed} when closed; {@code hung}, it runs no task and does
     * not terminate, as a hung pool.
     */
    private static final class Watched implements BenchRuntime {
        private final BenchRuntime real;
        private final boolean hung;
        private final Set<RuntimeKind> closed;

        Watched(BenchRuntime real, boolean hung, Set<RuntimeKind> closed) {
            this.real = real;
            this.hung = hung;
            this.closed = closed;
        }

        @Override
        public RuntimeKind kind() {
            return real.kind();
        }

        @Override
        public int workers() {
            return real.workers();
        }

        @Override
        public void execute(Runnable task) {
            if (hung) {
                throw new IllegalStateException("chained-spawn did not complete within 120 s (1 still pending)");
            }
            real.execute(task);
        }

        @Override
        public boolean ownsThread(Thread thread) {
            return real.ownsThread(thread);
        }

        @Override
        public void prestart() {
            real.prestart();
        }

        @Override
        public void close() {
            closed.add(real.kind());
            real.close();
            if (hung) {
                throw new IllegalStateException(real.kind() + " did not terminate within 30 s");
            }
        }
    }

    @Test
    void aWorkloadThatHungIsReportedAndEveryRuntimeIsClosed() {
        Set<RuntimeKind> closed = ConcurrentHashMap.newKeySet();
        QuickHarness h = new QuickHarness(new QuickHarness.Options().size(Size.TINY).workers(1).rounds(1)
                .warmupRounds(1).workloads(List.of("chained-spawn")),
                (kind, workers) -> new Watched(Runtimes.create(kind, workers), kind == RuntimeKind.SPINDLE, closed));

        Throwable thrown = catchThrowable(h::run);

        assertThat(thrown).hasMessageContaining("chained-spawn did not complete");
        assertThat(thrown.getSuppressed()).extracting(Throwable::getMessage)
                .containsExactly("spindle did not terminate within 30 s");
        assertThat(closed).containsExactlyInAnyOrder(RuntimeKind.SPINDLE, RuntimeKind.FJP, RuntimeKind.FJP_ASYNC);
    }
}
