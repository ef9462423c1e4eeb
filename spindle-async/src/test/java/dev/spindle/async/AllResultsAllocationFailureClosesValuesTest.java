/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.async.AsyncCombinatorTest.HandContext;
import dev.spindle.async.internal.DroppedValues;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An {@code all} whose children have all completed makes its result list; an
 * {@link OutOfMemoryError} there made its poll throw with the values neither handed out nor
 * dropped (its {@code delivered} flag was already set, and nobody cancels a task whose poll threw):
 * a connection an accept in it returned stayed open for good, its peer waiting. Now the values are
 * dropped (closed, for the library's resources) before the error goes on.
 */
class AllResultsAllocationFailureClosesValuesTest {

    /** A resource as the library's connections are: registered to be closed when dropped. */
    static final class Resource {
        static {
            DroppedValues.closeWhenDropped(Resource.class, r -> r.closed.set(true));
        }

        final AtomicBoolean closed = new AtomicBoolean();
    }

    @AfterEach
    void clearSeam() {
        Async.beforeResultContainer = null;
    }

    @Test
    void aFailedResultListAllocationClosesTheValues() {
        Resource a = new Resource();
        Resource b = new Resource();
        AsyncTask<List<Resource>> all = Async.all(List.of(Async.ready(a), Async.ready(b)));
        Async.beforeResultContainer = () -> {
            throw new OutOfMemoryError("test: the result list cannot be allocated");
        };
        assertThatThrownBy(() -> all.poll(new HandContext()))
                .isInstanceOf(OutOfMemoryError.class).hasMessageContaining("result list");
        assertThat(a.closed).as("first value closed").isTrue();
        assertThat(b.closed).as("second value closed").isTrue();
    }
}
