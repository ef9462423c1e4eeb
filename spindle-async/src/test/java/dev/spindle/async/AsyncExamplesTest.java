/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The Javadoc examples, compiled and run (with the test executor in place of a runtime). */
class AsyncExamplesTest {

    @Test
    void classExample() {
        AsyncChannel<Integer> channel = new AsyncChannel<>(4);
        TestExecutor ex = new TestExecutor();
        ex.spawn(channel.send(21));
        AsyncTask<Integer> job = Async.timeout(
                Async.then(channel.receive(),
                        n -> Async.map(Async.sleep(Duration.ofMillis(10)), ignored -> n * 2)),
                Duration.ofSeconds(1));
        assertThat(ex.blockOn(job)).isEqualTo(42);
    }

    @Test
    void loopAndWhileTrueExamples() {
        AsyncChannel<Integer> channel = new AsyncChannel<>(8);
        TestExecutor ex = new TestExecutor();
        ex.spawn(Async.then(channel.send(1), x -> Async.then(channel.send(2), y -> channel.send(3))));
        AsyncTask<Integer> sum = Async.loop(new int[] {0, 0}, acc -> acc[0] == 3
                ? Async.ready(Async.Step.done(acc[1]))
                : Async.map(channel.receive(),
                        (Integer m) -> Async.Step.next(new int[] {acc[0] + 1, acc[1] + m})));
        assertThat(ex.blockOn(sum)).isEqualTo(6);

        AsyncChannel<Integer> in = new AsyncChannel<>(8);
        AsyncChannel<Integer> out = new AsyncChannel<>(8);
        ex.spawn(Async.then(in.send(5), x -> Async.then(in.send(6), y -> in.send(-1))));
        AsyncTask<Void> pump = Async.whileTrue(() -> Async.then(in.receive(),
                (Integer m) -> m < 0 ? Async.ready(false) : Async.map(out.send(m), x -> true)));
        ex.blockOn(pump);
        assertThat(out.size()).isEqualTo(2);
    }

    @Test
    void recoverSelectFromAndSemaphoreExamples() {
        AsyncChannel<Integer> channel = new AsyncChannel<>(1);
        channel.close();
        AsyncTask<Integer> next = Async.recover(channel.receive(), e -> {
            if (e instanceof ChannelClosedException) return null;
            throw Async.unchecked(e);
        });
        assertThat(TestExecutor.run(next)).isNull();

        AsyncChannel<Integer> a = new AsyncChannel<>(1);
        AsyncChannel<Integer> b = new AsyncChannel<>(1);
        TestExecutor ex = new TestExecutor();
        ex.spawn(b.send(9));
        AsyncTask<Async.Selected<Integer>> first = Async.select(List.of(a.receive(), b.receive()));
        Async.Selected<Integer> s = ex.blockOn(first);
        assertThat(s.index()).isEqualTo(1);
        assertThat(s.value()).isEqualTo(9);

        CompletableFuture<String> f = CompletableFuture.supplyAsync(() -> "computed");
        AsyncTask<Integer> length = Async.map(Async.from(f), String::length);
        assertThat(TestExecutor.run(length)).isEqualTo(8);

        AsyncSemaphore connections = new AsyncSemaphore(10);
        AsyncTask<String> guarded = Async.then(connections.acquire(), permit -> {
            try {
                return Async.ready("called");
            } finally {
                connections.release();
            }
        });
        assertThat(TestExecutor.run(guarded)).isEqualTo("called");
        assertThat(connections.availablePermits()).isEqualTo(10);
    }
}
