/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What MiniJson's contract says it refuses: anything that is not JSON, numbers and escapes included. */
class MiniJsonRegressionTest {

    /**
     * A {@code \\u} escape was read with {@code Integer.parseInt(..., 16)}, which takes a sign: the
     * malformed {@code "\\u-001"} became U+FFFF and {@code "\\u+041"} an 'A', silently.
     */
    @Test
    void aUnicodeEscapeIsFourHexDigitsWithoutASign() {
        for (String bad : List.of("\"\\u-001\"", "\"\\u+041\"", "\"\\u 041\"")) {
            assertThatThrownBy(() -> MiniJson.parse(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a bad \\u escape");
        }
        assertThat(MiniJson.parse("\"\\u00E9\\u00e9\\uD83D\\uDE00\"")).isEqualTo("\u00e9\u00e9\uD83D\uDE00");
    }

    /**
     * Numbers went to {@code Double.valueOf}, which takes more than JSON's grammar: a leading zero
     * ({@code 01}), a point without digits after it ({@code 1.}, {@code 2.e3}).
     */
    @Test
    void numbersFollowJsonsGrammar() {
        for (String bad : List.of("01", "-01", "1.", "2.e3", "-", "1e", "1e+", "--1")) {
            assertThatThrownBy(() -> MiniJson.parse(bad)).as(bad)
                    .isInstanceOf(IllegalArgumentException.class).hasMessage("bad JSON at offset 0: a bad number");
        }
        assertThatThrownBy(() -> MiniJson.parse("[1, 1.]"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("bad JSON at offset 4: a bad number");
        assertThat(List.of("0", "-0", "10", "-1.5e-3", "1E+2", "2.5E10", "0.25", "1.0E10"))
                .allSatisfy(ok -> assertThat(MiniJson.parse(ok)).as(ok).isEqualTo(Double.valueOf(ok)));
    }
}
