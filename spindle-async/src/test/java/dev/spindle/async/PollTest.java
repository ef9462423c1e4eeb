/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.NoSuchElementException;
import org.junit.jupiter.api.Test;

class PollTest {

    @Test
    void readyCarriesItsValueAndPendingHasNone() {
        Poll<String> r = Poll.ready("x");
        assertThat(r.isReady()).isTrue();
        assertThat(r.isPending()).isFalse();
        assertThat(r.value()).isEqualTo("x");
        assertThat(Poll.ready(null).value()).isNull();
        assertThat(Poll.ready(null).isReady()).isTrue();
        assertThat(Poll.<String>ready(null)).isSameAs(Poll.<Integer>ready(null)); // shared, allocates nothing
        Poll<String> p = Poll.pending();
        assertThat(p.isPending()).isTrue();
        assertThat(p).isSameAs(Poll.<Integer>pending());
        assertThatThrownBy(p::value).isInstanceOf(NoSuchElementException.class).hasMessageContaining("pending");
        assertThat(r.toString()).isEqualTo("Ready[x]");
        assertThat(p.toString()).isEqualTo("Pending");
    }
}
