/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When {@code build()} cannot claim one of its drivers, it gives back those it had claimed and
 * throws the claim's failure. A driver whose {@code unclaim()} threw ended that rollback: the
 * drivers after it stayed claimed for good (no runtime could ever drive them), and the caller
 * got the unclaim's exception instead of the reason the build failed. The runtime's own
 * give-back at termination already went on past such a driver.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BuildRollbackSurvivesThrowingUnclaimTest {

    static class Driver implements IoDriver {
        final AtomicBoolean claimed = new AtomicBoolean();
        private final boolean claimFails;
        private final boolean unclaimFails;

        Driver(boolean claimFails, boolean unclaimFails) {
            this.claimFails = claimFails;
            this.unclaimFails = unclaimFails;
        }

        @Override
        public void claim() {
            if (claimFails) {
                throw new IllegalStateException("driven by another runtime already (injected)");
            }
            claimed.set(true);
        }

        @Override
        public void unclaim() {
            if (unclaimFails) {
                throw new IllegalStateException("unclaim failed (injected)");
            }
            claimed.set(false);
        }

        @Override
        public int select(long timeoutNanos) {
            return 0;
        }

        @Override
        public void dispatch() {
        }

        @Override
        public void wakeup() {
        }
    }

    @Test
    void aThrowingUnclaimNeitherKeepsTheOtherClaimsNorHidesWhyTheBuildFailed() {
        Driver first = new Driver(false, true);
        Driver second = new Driver(false, false);
        Driver taken = new Driver(true, false);
        AsyncRuntime.Builder b = AsyncRuntime.builder().workers(3).driveIo(List.of(first, second, taken));

        assertThatThrownBy(b::build)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("driven by another runtime already")
                .satisfies(e -> assertThat(e.getSuppressed()).singleElement()
                        .satisfies(s -> assertThat(s).hasMessageContaining("unclaim failed")));
        assertThat(second.claimed).as("the claim after the throwing unclaim was given back").isFalse();
    }
}
