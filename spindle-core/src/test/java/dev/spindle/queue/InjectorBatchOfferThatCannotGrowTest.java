/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link Injector#tryOfferAll} stops at a segment the heap cannot hold and says how many it
 * appended, where {@link Injector#offerAll} throws without saying.
 */
class InjectorBatchOfferThatCannotGrowTest {

    @AfterEach
    void clearSeam() {
        Injector.beforeNewSegment = null;
    }

    private static Object[] batch(int from, int n) {
        Object[] b = new Object[n];
        for (int i = 0; i < n; i++) {
            b[i] = from + i;
        }
        return b;
    }

    private static List<Object> drain(Injector<Object> q) {
        List<Object> out = new ArrayList<>();
        q.drain(out::add);
        return out;
    }

    @Test
    void tryOfferAllAppendsWhatFitsAndReportsIt() {
        Injector<Object> q = new Injector<>();
        q.offerAll(batch(0, Injector.SEGMENT_SIZE - 10), Injector.SEGMENT_SIZE - 10);
        Injector.beforeNewSegment = () -> {
            throw new OutOfMemoryError("no room for a segment (thrown by the test)");
        };
        Object[] more = batch(Injector.SEGMENT_SIZE - 10, 30);
        assertThat(q.tryOfferAll(more, 30)).isEqualTo(10);
        assertThat(q.tryOfferAll(more, 0)).isZero();
        assertThat(q.tryOfferAll(batch(-1, 1), 1)).as("the segment is full: none fits").isZero();
        assertThatThrownBy(() -> q.offerAll(more, 30)).isInstanceOf(OutOfMemoryError.class);
        Injector.beforeNewSegment = null;
        List<Object> got = drain(q);
        assertThat(got).hasSize(Injector.SEGMENT_SIZE);
        assertThat(got.get(Injector.SEGMENT_SIZE - 1)).isEqualTo(Injector.SEGMENT_SIZE - 1);
        assertThat(q.tryOfferAll(more, 30)).isEqualTo(30);
        assertThat(drain(q)).containsExactly(more);
    }
}
