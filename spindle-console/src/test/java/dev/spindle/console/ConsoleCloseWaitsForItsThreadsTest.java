/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.SchedulerStats;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code close()} interrupted the console's threads and returned at once: the sampler could still
 * be in a scheduler's {@code stats()} (an application that closed the console and then its pool
 * had the pool read after it was closed), and the stream and request threads still ran, holding
 * their connections. Now it waits for them (a bounded wait).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsoleCloseWaitsForItsThreadsTest {

    @Test
    void closeReturnsOnlyOnceItsThreadsHaveEnded() throws Exception {
        Set<Thread> before = new HashSet<>(Thread.getAllStackTraces().keySet());
        Thread closer = Thread.currentThread();
        CountDownLatch inStats = new CountDownLatch(1);
        // a stats() that, interrupted by close(), takes its time to return: it returns once
        // close() is seen waiting for it (or after 20 s, for a close() that does not wait)
        Supplier<SchedulerStats> slowStats = () -> {
            inStats.countDown();
            try {
                new CountDownLatch(1).await(30, TimeUnit.SECONDS);
            } catch (InterruptedException closing) {
                long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (!waitingInClose(closer) && System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
            }
            throw new IllegalStateException("closed");
        };
        Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start();
        try {
            HttpResponse<java.io.InputStream> page = ConsoleTest.HTTP.send(
                    HttpRequest.newBuilder(console.uri().resolve("/events")).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            assertThat(page.statusCode()).isEqualTo(200);
            console.register("slow", slowStats);
            assertThat(inStats.await(30, TimeUnit.SECONDS)).as("the sampler is in stats()").isTrue();
            List<Thread> mine = new ArrayList<>();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (!before.contains(t) && t.getName().startsWith("spindle-console")) {
                    mine.add(t);
                }
            }
            assertThat(mine).extracting(Thread::getName)
                    .anyMatch(n -> n.startsWith("spindle-console-sampler"))
                    .anyMatch(n -> n.startsWith("spindle-console-http-"));

            console.close();

            assertThat(mine).filteredOn(Thread::isAlive).extracting(Thread::getName)
                    .as("the console's threads alive when close() returned").isEmpty();
            page.body().close();
        } finally {
            console.close();
        }
    }

    /** Whether {@code t} is waiting (with a timeout) inside {@code Console.close()}. */
    private static boolean waitingInClose(Thread t) {
        if (t.getState() != Thread.State.TIMED_WAITING) {
            return false;
        }
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().equals(Console.class.getName()) && e.getMethodName().equals("close")) {
                return true;
            }
        }
        return false;
    }
}
