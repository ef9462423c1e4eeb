/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.actor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.pool.SchedulerUnion;
import dev.spindle.pool.WorkSharingPool;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Bad input to the public API of spindle-actor fails at the call, with the documented exception
 * and a message that names the parameter.
 */
class BadInputTest {

    @Test
    void spawnRefusesASchedulerIndexTheUnionDoesNotHave() throws Exception {
        try (SchedulerUnion union = SchedulerUnion.owning(WorkSharingPool.builder().workers(1).build());
                ActorSystem system = ActorSystem.create(union)) {
            ActorConfig config = ActorConfig.builder().schedulerIndex(1).build();
            assertThatThrownBy(() -> system.spawn(StringBuilder::new, config))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schedulerIndex");
            assertThatThrownBy(() -> system.spawnWithSelf(self -> new StringBuilder(), config))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("schedulerIndex");
            // an index in range still works
            ActorRef<StringBuilder> ok = system.spawn(StringBuilder::new,
                    ActorConfig.builder().schedulerIndex(0).build());
            assertThat(ok.ask(sb -> sb.append("x").toString()).get(10, TimeUnit.SECONDS)).isEqualTo("x");
        }
    }

    // ---- regression guards

    @Test
    void configAndSystemCheckTheirArguments() {
        assertThatThrownBy(() -> ActorConfig.builder().mailboxCapacity(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mailboxCapacity");
        assertThatThrownBy(() -> ActorConfig.builder().maxMessagesPerActivation(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxMessagesPerActivation");
        assertThatThrownBy(() -> ActorConfig.builder().name(" "))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
        try (ActorSystem system = ActorSystem.create()) {
            assertThatThrownBy(() -> system.deepestMailboxes(0))
                    .isInstanceOf(IllegalArgumentException.class);
            ActorRef<StringBuilder> a = system.spawn(StringBuilder::new);
            assertThatThrownBy(() -> a.tell(null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("message");
            assertThatThrownBy(() -> system.spawn(StringBuilder::new, null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("config");
        }
    }
}
