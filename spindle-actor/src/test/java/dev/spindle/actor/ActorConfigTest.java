/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Hints;
import org.junit.jupiter.api.Test;

class ActorConfigTest {

    @Test
    void defaults() {
        ActorConfig c = ActorConfig.DEFAULT;
        assertThat(c.name()).isNull();
        assertThat(c.priority()).isZero();
        assertThat(c.schedulerIndex()).isZero();
        assertThat(c.maxMessagesPerActivation()).isEqualTo(100);
        assertThat(c.mailboxCapacity()).isEqualTo(ActorConfig.UNBOUNDED);
        assertThat(c.isBounded()).isFalse();
        assertThat(c.hints()).isEqualTo(Hints.DEFAULT);
    }

    @Test
    void builderSetsEveryValueAndPrecomputesTheHints() {
        ActorConfig c = ActorConfig.builder().name("a").priority(-7).schedulerIndex(3)
                .maxMessagesPerActivation(5).mailboxCapacity(9).build();
        assertThat(c.name()).isEqualTo("a");
        assertThat(c.priority()).isEqualTo(-7);
        assertThat(c.schedulerIndex()).isEqualTo(3);
        assertThat(c.maxMessagesPerActivation()).isEqualTo(5);
        assertThat(c.mailboxCapacity()).isEqualTo(9);
        assertThat(c.isBounded()).isTrue();
        assertThat(c.hints()).isEqualTo(Hints.DEFAULT.withPriority(-7).withSchedulerIndex(3));
        assertThat(c.hints()).isSameAs(c.hints());
        assertThat(c.toString()).contains("priority=-7", "mailboxCapacity=9");
    }

    @Test
    void isImmutableAndToBuilderCopies() {
        ActorConfig.Builder b = ActorConfig.builder().name("x").priority(1);
        ActorConfig first = b.build();
        b.priority(2).name("y");
        assertThat(first.priority()).isEqualTo(1);
        assertThat(first.name()).isEqualTo("x");
        ActorConfig copy = first.toBuilder().maxMessagesPerActivation(1).build();
        assertThat(copy.name()).isEqualTo("x");
        assertThat(copy.priority()).isEqualTo(1);
        assertThat(copy.maxMessagesPerActivation()).isEqualTo(1);
        assertThat(first.maxMessagesPerActivation()).isEqualTo(100);
    }

    @Test
    void badValuesNameTheParameter() {
        assertThatThrownBy(() -> ActorConfig.builder().maxMessagesPerActivation(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxMessagesPerActivation");
        assertThatThrownBy(() -> ActorConfig.builder().mailboxCapacity(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mailboxCapacity");
        assertThatThrownBy(() -> ActorConfig.builder().schedulerIndex(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schedulerIndex");
        assertThatThrownBy(() -> ActorConfig.builder().name(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
        assertThatThrownBy(() -> ActorConfig.builder().name(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("name");
        assertThat(ActorConfig.builder().priority(Integer.MIN_VALUE).build().priority())
                .isEqualTo(Integer.MIN_VALUE);
    }
}
