/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.JavaSerial;
import dev.spindle.cluster.testkit.HostilePayloads;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A value of a class the allow-list allows, written by another version of that class (its
 * serialVersionUID differs: a member of another build of the application, or of another JDK), is
 * refused; the refusal must say that, not that the allow-list refused the class: told so, an
 * operator adds the package to the allowed ones, which changes nothing, and looks no further.
 */
class IncompatibleClassIsNotCalledRefusedTest {

    private final FrameCodec codec = new FrameCodec("incompatible-class-secret-0123".getBytes(StandardCharsets.UTF_8),
            List.of());

    @Test
    void aValueOfAnotherVersionOfAnAllowedClassIsRefusedAsIncompatibleNotByTheAllowList() {
        byte[] stream = HostilePayloads.bigIntegerOfAnotherVersion();

        assertThatThrownBy(() -> codec.deserialize(stream)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("java.math.BigInteger")
                .hasMessageContaining("incompatible")
                .hasMessageNotContaining("refused by the allow-list");
        assertThat(codec.rejected()).isEqualTo(1);
        // the allow-list's own refusals still say so
        byte[] refused = JavaSerial.serialize(java.net.URI.create("http://example.org/"));
        assertThatThrownBy(() -> codec.deserialize(refused)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("java.net.URI refused by the allow-list");
    }
}
