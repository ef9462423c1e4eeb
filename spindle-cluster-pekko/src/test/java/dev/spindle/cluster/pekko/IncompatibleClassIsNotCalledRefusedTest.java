/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.cluster.JavaSerial;
import dev.spindle.cluster.testkit.HostilePayloads;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A value of a class the allow-list allows, written by another version of that class (its
 * serialVersionUID differs: a member of another build), is refused; the refusal must say that, not
 * that the allow-list refused it: told so, an operator widens the allow-list, which changes nothing.
 */
class IncompatibleClassIsNotCalledRefusedTest {

    private final WireCodec codec = new WireCodec(List.of(), 1 << 20);

    @Test
    void aValueOfAnotherVersionOfAnAllowedClassIsRefusedAsIncompatibleNotByTheAllowList() {
        byte[] stream = HostilePayloads.bigIntegerOfAnotherVersion();

        assertThatThrownBy(() -> codec.deserialize(stream)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("java.math.BigInteger")
                .hasMessageContaining("incompatible")
                .hasMessageNotContaining("refused by the allow-list");
        // the allow-list's own refusals still say so
        byte[] refused = JavaSerial.serialize(java.net.URI.create("http://example.org/"));
        assertThatThrownBy(() -> codec.deserialize(refused)).isInstanceOf(SecurityException.class)
                .hasMessageContaining("refused by the allow-list");
    }
}
