/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.runtime.RuntimeKind;
import dev.spindle.bench.runtime.Runtimes;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProbesTest {

    @ParameterizedTest
    @EnumSource(RuntimeKind.class)
    void latencyProbeRecordsOneSamplePerTask(RuntimeKind kind) {
        try (BenchRuntime rt = Runtimes.create(kind, 2)) {
            rt.prestart();
            Histogram h = SubmitLatencyProbe.newHistogram();
            new SubmitLatencyProbe(TimeUnit.MICROSECONDS.toNanos(50)).measure(rt, 40, h);
            assertThat(h.getTotalCount()).isEqualTo(40);
            assertThat(h.getMinValue()).isGreaterThanOrEqualTo(0);
            assertThat(SubmitLatencyProbe.micros(h, 50)).isLessThanOrEqualTo(SubmitLatencyProbe.micros(h, 99.9));
        }
    }

    @ParameterizedTest
    @EnumSource(RuntimeKind.class)
    void idleCpuProbeSeesThePoolThreads(RuntimeKind kind) {
        IdleCpuProbe.Result r = new IdleCpuProbe(20, 100).measure(kind, 2);
        assertThat(r.runtime()).isEqualTo(kind);
        assertThat(r.threads()).isEqualTo(2);
        assertThat(r.windowNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        assertThat(r.percentOfCore()).isBetween(0.0, 200.0 + 1e-9);
    }

    @Test
    void idleCpuProbeSeesAThreadThatSpins() throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        Thread spinner = new Thread(() -> {
            long x = 0;
            while (!stop.get()) {
                x += System.nanoTime() & 1;
            }
            if (x == 42) {
                System.out.print("");
            }
        }, "probe-test-spinner");
        spinner.setDaemon(true);
        spinner.start();
        try {
            IdleCpuProbe.Result r = new IdleCpuProbe(0, 200).measure(new OneThreadRuntime(spinner));
            assertThat(r.threads()).isEqualTo(1);
            // A busy thread gets some share of a core even on a heavily shared machine (under a
            // load of 20 on 2 cores it got about 10 %); an idle or unmeasured thread reads 0.
            assertThat(r.percentOfCore()).isGreaterThan(1.0);
        } finally {
            stop.set(true);
            spinner.join(5_000);
        }
    }

    /** Pretends that {@code thread} is a pool's only worker. */
    private static final class OneThreadRuntime implements BenchRuntime {
        private final Thread thread;

        OneThreadRuntime(Thread thread) {
            this.thread = thread;
        }

        @Override
        public RuntimeKind kind() {
            return RuntimeKind.TPE;
        }

        @Override
        public int workers() {
            return 1;
        }

        @Override
        public void execute(Runnable task) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean ownsThread(Thread t) {
            return t == thread;
        }

        @Override
        public void prestart() {
        }

        @Override
        public void close() {
        }
    }
}
