/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AsyncRuntime;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A reactor count beyond any use (a byte or connection count passed by mistake) is a bad
 * argument, refused before anything is allocated or opened: {@code Integer.MAX_VALUE} was an
 * {@link OutOfMemoryError} ("Requested array size exceeds VM limit") from the group's array, and
 * a count just past the bound opened selectors (and started threads) one after another until the
 * file descriptors ran out.
 */
class AGroupOfTooManyReactorsIsRefusedTest {

    @Test
    void theLargestIntIsAnIllegalArgumentForEitherKindOfGroup() {
        assertThatThrownBy(() -> ReactorGroup.open(Integer.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(String.valueOf(Integer.MAX_VALUE))
                .hasMessageContaining(String.valueOf(ReactorGroup.MAX_REACTORS));
        assertThatThrownBy(() -> ReactorGroup.openDriven(Integer.MAX_VALUE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(String.valueOf(Integer.MAX_VALUE));
    }

    @Test
    void oneMoreThanTheBoundOpensNoReactor() {
        AtomicInteger opened = new AtomicInteger();
        ReactorGroup.Opener counting = () -> {
            opened.incrementAndGet();
            throw new IOException("the test opens no selector");
        };
        assertThatThrownBy(() -> ReactorGroup.open(ReactorGroup.MAX_REACTORS + 1, counting))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(opened).hasValue(0);
    }

    @Test
    void theBoundIsTheMostWorkersThatCouldDriveADrivenGroup() {
        // a driven group of more reactors than any runtime's workers could never be driven:
        // build() refuses more drivers than workers
        assertThat(ReactorGroup.MAX_REACTORS).isEqualTo(AsyncRuntime.MAX_WORKERS);
    }
}
