/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class SerialAllowListTest {

    @Test
    void thePatternIsTheOneTheHazelcastTransportHadBuiltItself() {
        // the exact string FrameCodec.allowList built before the pattern moved here
        assertThat(SerialAllowList.pattern("dev.spindle.cluster.hazelcast", List.of("com.example", "org.acme"), 64,
                1_000_000, 100_000_000, 0)).isEqualTo("maxdepth=64;maxrefs=1000000;maxarray=100000000;"
                + "dev.spindle.cluster.hazelcast.*;dev.spindle.cluster.Message$*;dev.spindle.cluster.Client*;"
                + "java.lang.*;java.util.*;java.math.*;java.lang.invoke.SerializedLambda;"
                + "com.example.**;org.acme.**;!*");
    }

    @Test
    void aStreamLimitIsAddedWhenGiven() {
        assertThat(SerialAllowList.pattern("p", List.of(), 20, 10, 30, 40))
                .startsWith("maxdepth=20;maxrefs=10;maxarray=30;maxbytes=40;p.*;").endsWith(";!*");
    }

    @Test
    void filterSyntaxCannotBeSmuggledInAsAPackage() {
        assertThatThrownBy(() -> SerialAllowList.pattern("p", List.of("com.example;java.io.*"), 1, 1, 1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a package name");
        assertThatThrownBy(() -> SerialAllowList.checkPackage("*")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SerialAllowList.checkPackage(null)).isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> SerialAllowList.pattern("p", List.of(), 0, 1, 1, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
