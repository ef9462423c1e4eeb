/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The one rule by which the transports log a peer's text: one line, of bounded length. */
class LogTextTest {

    @Test
    void controlAndSeparatorCharactersAreEscaped() {
        assertThat(LogText.printable("a\nb\rc\td\u001b[2Ke\u2028f\u2029g\u0085h\u202ei\\n", 100))
                .isEqualTo("a\\nb\\rc\\td\\u001b[2Ke\\u2028f\\u2029g\\u0085h\\u202ei\\n");
        assertThat(LogText.printable(null, 10)).isEqualTo("null");
        assertThat(LogText.printable(42, 10)).isEqualTo("42");
    }

    @Test
    void longTextIsCutAndSaysSo() {
        assertThat(LogText.printable("x".repeat(10_000), 50)).isEqualTo("x".repeat(50) + "...");
        assertThat(LogText.printable("x".repeat(50), 50)).isEqualTo("x".repeat(50));
        // not half of a character made of two chars before the cut
        assertThat(LogText.printable("x".repeat(49) + "\ud83d\ude00" + "y", 50)).isEqualTo("x".repeat(49) + "...");
        assertThatThrownBy(() -> LogText.printable("x", 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("max 0");
    }
}
