/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The settings checks every transport's builder shares: valid values pass, bad ones are named. */
class TransportSettingsTest {

    @Test
    void validValuesPassThrough() {
        assertThat(TransportSettings.bindAddress("10.0.0.1")).isEqualTo("10.0.0.1");
        assertThat(TransportSettings.port(0, 0)).isZero();
        assertThat(TransportSettings.port(65535, 1)).isEqualTo(65535);
        assertThat(TransportSettings.hostAndPort("h:1", "member")).isEqualTo("h:1");
        assertThat(TransportSettings.hostAndPort("::1:5701", "member")).isEqualTo("::1:5701");
        assertThat(TransportSettings.failureSeconds(2)).isEqualTo(2);
        assertThat(TransportSettings.inRange("n", 5, 5, 5)).isEqualTo(5);
    }

    @Test
    void badValuesAreNamed() {
        assertThatThrownBy(() -> TransportSettings.bindAddress(null)).isInstanceOf(NullPointerException.class)
                .hasMessage("address");
        assertThatThrownBy(() -> TransportSettings.bindAddress(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bindAddress must not be blank");
        assertThatThrownBy(() -> TransportSettings.port(0, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("port must be in 1..65535, got 0");
        assertThatThrownBy(() -> TransportSettings.port(65536, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TransportSettings.failureSeconds(1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("failureSeconds must be at least 2, got 1");
        assertThatThrownBy(() -> TransportSettings.atLeast("maxFrameBytes", 10, 4096))
                .hasMessage("maxFrameBytes must be at least 4096, got 10");
        assertThatThrownBy(() -> TransportSettings.inRange("n", 7, 1, 5)).hasMessage("n must be in 1..5, got 7");
    }

    @Test
    void aMemberAddressNeedsAHostAndAPortInRange() {
        for (String bad : new String[] {"nohost", ":5701", "h:", "h:x", "h:0", "h:65536", "h:-1"}) {
            assertThatThrownBy(() -> TransportSettings.hostAndPort(bad, "seed node")).as(bad)
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("seed node must be host:port, got '" + bad + "'");
        }
        assertThatThrownBy(() -> TransportSettings.hostAndPort(null, "member")).isInstanceOf(NullPointerException.class);
    }

    /** A transport's builder as the transports write one. */
    private static final class Builder extends MemberSettingsBuilder<Builder> {
        Builder() {
            super(7000, 1);
        }

        Builder own() {
            return this;
        }
    }

    @Test
    void aTransportsBuilderSharesTheCommonSettersAndTheirChecks() {
        Builder b = new Builder();
        assertThat(b.boundAddress()).isEqualTo("127.0.0.1");
        assertThat(b.chosenPort()).isEqualTo(7000);
        assertThat(b.failureTimeoutSeconds()).isEqualTo(TransportSettings.DEFAULT_FAILURE_SECONDS);
        assertThat(b.packages()).isEmpty();
        // the setters return the transport's builder, so its own methods chain after them
        assertThat(b.bindAddress("10.0.0.2").port(7001).allowPackage("com.example").failureSeconds(9).own()).isSameAs(b);
        assertThat(b.boundAddress()).isEqualTo("10.0.0.2");
        assertThat(b.chosenPort()).isEqualTo(7001);
        assertThat(b.packages()).containsExactly("com.example");
        assertThat(b.failureTimeoutSeconds()).isEqualTo(9);
        assertThatThrownBy(() -> b.port(0)).hasMessage("port must be in 1..65535, got 0");
        assertThatThrownBy(() -> b.allowPackage("a;!*")).hasMessage("not a package name: 'a;!*'");
        assertThatThrownBy(() -> b.packages().add("x")).isInstanceOf(UnsupportedOperationException.class);
    }
}
