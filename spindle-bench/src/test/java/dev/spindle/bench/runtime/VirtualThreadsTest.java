/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class VirtualThreadsTest {

    @Test
    void availableFromJdk21AndRefusedBeforeNamingTheJavaVersion() {
        assertThat(VirtualThreads.available()).isEqualTo(Runtime.version().feature() >= 21);
        assertThatThrownBy(() -> VirtualThreads.newPerTaskExecutor(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("workers must be at least 1, was 0");
        if (!VirtualThreads.available()) {
            assertThatThrownBy(() -> VirtualThreads.newPerTaskExecutor(2))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessage("virtual threads need JDK 21+, this is Java " + System.getProperty("java.version"));
        }
    }

    @Test
    void theExecutorRunsEachTaskOnAVirtualThreadAndTheCarriersAreInForce() throws Exception {
        assumeTrue(VirtualThreads.available(), "virtual threads need JDK 21+");
        ExecutorService threads = VirtualThreads.newPerTaskExecutor(2);
        try {
            Future<Boolean> virtual = threads.submit(() -> (Boolean) Thread.class.getMethod("isVirtual")
                    .invoke(Thread.currentThread()));
            assertThat(virtual.get(10, TimeUnit.SECONDS)).isTrue();
            String inForce = VirtualThreads.carriers();
            assertThat(inForce).isEqualTo(System.getProperty(VirtualThreads.PARALLELISM_PROPERTY)).isNotNull();
            assertThat(VirtualThreads.carriersInWords(7))
                    .isEqualTo("carriers " + inForce + " (jdk.virtualThreadScheduler.parallelism)");
        } finally {
            assertThat(VirtualThreads.shutdown(threads, Duration.ofSeconds(10))).isTrue();
        }
        assertThat(threads.isTerminated()).isTrue();
    }

    @Test
    void shutdownInterruptsWhatOutlivesThePatience() throws InterruptedException {
        ExecutorService threads = Executors.newSingleThreadExecutor();
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(1);
        threads.execute(() -> {
            started.countDown();
            try {
                never.await();
            } catch (InterruptedException e) {
                // interrupted by shutdownNow: end
            }
        });
        assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(VirtualThreads.shutdown(threads, Duration.ofMillis(1))).isFalse();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
}
