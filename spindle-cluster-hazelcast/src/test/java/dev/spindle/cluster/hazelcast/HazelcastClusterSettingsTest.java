/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Bad settings fail in the builder, with a message naming the setting, not later inside Hazelcast. */
class HazelcastClusterSettingsTest {

    private static HazelcastClusterSettings.Builder builder() {
        return HazelcastClusterSettings.builder("jobs", "settings-secret-0123456789");
    }

    @Test
    void defaultsStayOnLoopback() {
        HazelcastClusterSettings s = builder().build();
        assertThat(s.bindAddress()).isEqualTo("127.0.0.1");
        assertThat(s.port()).isEqualTo(5701);
        assertThat(s.members()).containsExactly("127.0.0.1:5701");
        assertThat(s.failureSeconds()).isEqualTo(5);
        assertThat(s.maxFrameBytes()).isEqualTo(HazelcastClusterSettings.DEFAULT_MAX_FRAME_BYTES);
    }

    @Test
    void badSettingsAreRefused() {
        assertThatThrownBy(() -> HazelcastClusterSettings.builder(" ", "settings-secret-0123456789"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clusterName");
        assertThatThrownBy(() -> HazelcastClusterSettings.builder("jobs", "short"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 16 bytes");
        assertThatThrownBy(() -> builder().bindAddress(" ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder().port(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port must be in 1..65535, got 0");
        assertThatThrownBy(() -> builder().member("nohost")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("member must be host:port, got 'nohost'");
        assertThatThrownBy(() -> builder().allowPackage("com.example;!*")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a package name");
        assertThatThrownBy(() -> builder().failureSeconds(1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder().maxFrameBytes(4095)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMemberPortOutsideTheRangeIsRefusedInTheBuilder() {
        assertThatThrownBy(() -> builder().member("127.0.0.1:0")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("member must be host:port, got '127.0.0.1:0'");
        assertThatThrownBy(() -> builder().member("127.0.0.1:70000")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("member must be host:port, got '127.0.0.1:70000'");
    }
}
