/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A worker thread the factory made but whose {@code start()} failed (the JVM's
 * {@code OutOfMemoryError: unable to create native thread}, the usual way a thread cannot be had)
 * fails the build with an {@link IllegalStateException} that carries that failure as its cause,
 * as a {@code ThreadPoolExecutor} and a {@code ForkJoinPool} let it reach the caller. The
 * exception said only that the thread "could not be started": the reason was dropped, and a user
 * out of threads or memory was left to guess. The threads started before it exit, as before.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WorkerThreadThatFailsToStartIsReportedTest {

    /** A thread whose start fails as the JVM's does when no native thread can be had. */
    static final class UnstartableThread extends Thread {
        static final OutOfMemoryError FAILURE =
                new OutOfMemoryError("unable to create native thread: possibly out of memory or process/resource limits reached");

        UnstartableThread(Runnable r) {
            super(r);
        }

        @Override
        public synchronized void start() {
            throw FAILURE;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"stealing", "sharing", "priority", "pinned"})
    void theBuildFailsWithTheStartFailureAsItsCauseAndLeavesNoThreadRunning(String kind) throws Exception {
        AtomicInteger made = new AtomicInteger();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        ThreadFactory factory = r -> {
            Thread t = made.incrementAndGet() == 2 ? new UnstartableThread(r) : new Thread(r);
            t.setDaemon(true);
            threads.add(t);
            return t;
        };
        Function<ThreadFactory, Object> build = switch (kind) {
            case "stealing" -> f -> WorkStealingPool.builder().workers(3).name("p").threadFactory(f).build();
            case "sharing" -> f -> WorkSharingPool.builder().workers(3).name("p").threadFactory(f).build();
            case "priority" -> f -> PriorityPool.builder().workers(3).name("p").threadFactory(f).build();
            default -> f -> PinnedPool.builder().workers(3).name("p").threadFactory(f).build();
        };

        Throwable thrown = catchThrowable(() -> build.apply(factory));

        assertThat(thrown).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("pool p")
                .hasMessageContaining("worker 1")
                .hasCause(UnstartableThread.FAILURE);
        assertThat(threads).hasSize(3);
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(20));
            assertThat(t.isAlive()).as("%s exited", t.getName()).isFalse();
        }
    }
}
