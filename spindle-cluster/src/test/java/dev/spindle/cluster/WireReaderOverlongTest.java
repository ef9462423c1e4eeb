/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A string of a frame in an overlong form (a character encoded in more bytes than its shortest
 * form, which {@link WireWriter} never writes and UTF-8 forbids) is refused as malformed: it was
 * read as the character, so that bytes a strict decoder refuses ("/" as C0 AF, NUL as C0 80)
 * became an ordinary key or class name.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WireReaderOverlongTest {

    /** A string field of {@code encoded}'s bytes, as its length prefix and bytes. */
    private static WireReader field(int... encoded) {
        byte[] frame = new byte[encoded.length + 1];
        frame[0] = (byte) (encoded.length + 1);
        for (int i = 0; i < encoded.length; i++) {
            frame[i + 1] = (byte) encoded[i];
        }
        return new WireReader(frame, 0, frame.length);
    }

    @Test
    void anOverlongTwoByteFormIsRefused() {
        assertThatThrownBy(() -> field('a', 0xC0, 0xAF, 'b').string(100, "key"))      // "a/b"
                .isInstanceOf(SecurityException.class).hasMessageStartingWith("malformed frame");
        assertThatThrownBy(() -> field(0xC0, 0x80).string(100, "key"))                // NUL
                .isInstanceOf(SecurityException.class).hasMessageStartingWith("malformed frame");
        assertThatThrownBy(() -> field(0xC1, 0xBF).string(100, "key"))                // DEL
                .isInstanceOf(SecurityException.class).hasMessageStartingWith("malformed frame");
    }

    @Test
    void anOverlongThreeByteFormIsRefused() {
        assertThatThrownBy(() -> field(0xE0, 0x80, 0xAF).string(100, "key"))          // "/"
                .isInstanceOf(SecurityException.class).hasMessageStartingWith("malformed frame");
        assertThatThrownBy(() -> field(0xE0, 0x9F, 0xBF).string(100, "key"))          // U+07FF
                .isInstanceOf(SecurityException.class).hasMessageStartingWith("malformed frame");
    }

    @Test
    void everyShortestFormStillReadsBack() {
        // the edges of each form, and unpaired surrogates, which the writer encodes one by one
        String s = "\u0000\u007F\u0080\u07FF\u0800\uD800\uDBFF\uDC00\uDFFF\uFFFF\uD83D\uDE00x";
        WireWriter out = new WireWriter().string(s);
        byte[] bytes = out.toByteArray();
        assertThat(new WireReader(bytes, 0, bytes.length).string(100, "key")).isEqualTo(s);
    }
}
