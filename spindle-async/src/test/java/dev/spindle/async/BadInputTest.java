/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.io.AsyncTcpListener;
import dev.spindle.async.io.AsyncTcpStream;
import dev.spindle.async.io.Reactor;
import dev.spindle.async.io.ReactorGroup;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Bad input to the public API of spindle-async fails at the call, with the documented exception
 * and a message that names the parameter.
 */
class BadInputTest {

    @Test
    void combinatorsNameANullList() {
        assertThatThrownBy(() -> Async.all(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("tasks");
        assertThatThrownBy(() -> Async.select(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("tasks");
        assertThatThrownBy(() -> Async.any(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("tasks");
    }

    @Test
    void semaphoreReleaseBeyondIntegerMaxValueIsRefused() {
        AsyncSemaphore s = new AsyncSemaphore(Integer.MAX_VALUE);
        assertThatThrownBy(s::release)
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("permits");
        assertThat(s.availablePermits()).isEqualTo(Integer.MAX_VALUE);
        assertThat(s.tryAcquire()).isTrue();
    }

    @Test
    void readIntoAReadOnlyBufferIsRefusedAtTheCall() throws Exception {
        try (ReactorGroup reactors = ReactorGroup.open(1);
                AsyncTcpListener listener = AsyncTcpListener.bind(null, reactors);
                AsyncRuntime rt = AsyncRuntime.builder().workers(1).build()) {
            try (AsyncTcpStream client = rt.run(AsyncTcpStream.connect(listener.localAddress(), reactors.next()));
                    AsyncTcpStream server = rt.run(listener.accept())) {
                ByteBuffer readOnly = ByteBuffer.allocate(8).asReadOnlyBuffer();
                assertThatThrownBy(() -> server.read(readOnly))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("dst");
            }
        }
    }

    @Test
    void reactorGroupAndChannelCountsAreChecked() {
        assertThatThrownBy(() -> ReactorGroup.open(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0");
        assertThatThrownBy(() -> new AsyncChannel<String>(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("capacity");
        assertThatThrownBy(() -> new AsyncSemaphore(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("permits");
    }

    // ---- regression guards

    @Test
    void runtimeBuilderAndSpawnCheckTheirArguments() {
        assertThatThrownBy(() -> AsyncRuntime.builder().workers(AsyncRuntime.MAX_WORKERS + 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("workers");
        assertThatThrownBy(() -> AsyncRuntime.builder().budget(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("budget");
        AsyncRuntime rt = AsyncRuntime.builder().workers(1).build();
        assertThatThrownBy(() -> rt.busiestTasks(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("n must be");
        assertThatThrownBy(() -> rt.spawn(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("task");
        rt.close();
        assertThatThrownBy(() -> rt.spawn(Async.ready(1))).isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void timeoutAndSleepNameTheirDuration() {
        assertThatThrownBy(() -> Async.timeout(Async.ready(1), null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("duration");
        assertThatThrownBy(() -> Async.sleep(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("duration");
        assertThat(Async.sleep(Duration.ofSeconds(Long.MAX_VALUE))).isNotNull();
        assertThatThrownBy(() -> Async.select(List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void reactorCloseOfTheSharedOneIsRefused() {
        assertThatThrownBy(() -> Reactor.shared().close()).isInstanceOf(IllegalStateException.class);
    }
}
