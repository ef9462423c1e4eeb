/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SpindleEchoServerTest {

    @AfterEach
    void clearProperty() {
        System.clearProperty(SpindleEchoServer.REACTORS_PROPERTY);
    }

    @Test
    void oneReactorPerFourWorkersUnlessTheyAreSetExplicitly() {
        assertThat(SpindleEchoServer.reactors(1)).isEqualTo(1);
        assertThat(SpindleEchoServer.reactors(7)).isEqualTo(1);
        assertThat(SpindleEchoServer.reactors(16)).isEqualTo(4);
        System.setProperty(SpindleEchoServer.REACTORS_PROPERTY, "3");
        assertThat(SpindleEchoServer.reactors(16)).isEqualTo(3);
        assertThat(EchoServers.description(EchoServers.SPINDLE, 16)).contains("3 selector threads");
    }

    @Test
    void aBadReactorCountIsRefusedByName() {
        for (String bad : new String[] {"0", "-2", "many"}) {
            System.setProperty(SpindleEchoServer.REACTORS_PROPERTY, bad);
            assertThatThrownBy(() -> SpindleEchoServer.reactors(4))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(SpindleEchoServer.REACTORS_PROPERTY).hasMessageContaining(bad);
        }
    }
}
