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
    void oneSelectorThreadPerFourWorkersAndOneDrivenSelectorPerTwoUnlessSetExplicitly() {
        assertThat(SpindleEchoServer.reactors(1, false)).isEqualTo(1);
        assertThat(SpindleEchoServer.reactors(7, false)).isEqualTo(1);
        assertThat(SpindleEchoServer.reactors(16, false)).isEqualTo(4);
        assertThat(SpindleEchoServer.reactors(1, true)).isEqualTo(1);
        assertThat(SpindleEchoServer.reactors(3, true)).isEqualTo(1);
        assertThat(SpindleEchoServer.reactors(16, true)).isEqualTo(8);
        assertThat(EchoServers.description(EchoServers.SPINDLE_DRIVEN, 16)).contains("8 selectors, driven");
        System.setProperty(SpindleEchoServer.REACTORS_PROPERTY, "3");
        assertThat(SpindleEchoServer.reactors(16, false)).isEqualTo(3);
        assertThat(SpindleEchoServer.reactors(16, true)).isEqualTo(3);
        assertThat(EchoServers.description(EchoServers.SPINDLE, 16)).contains("3 selector threads");
    }

    @Test
    void aBadReactorCountIsRefusedByName() {
        for (String bad : new String[] {"0", "-2", "many"}) {
            System.setProperty(SpindleEchoServer.REACTORS_PROPERTY, bad);
            assertThatThrownBy(() -> SpindleEchoServer.reactors(4, true))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(SpindleEchoServer.REACTORS_PROPERTY).hasMessageContaining(bad);
        }
    }
}
