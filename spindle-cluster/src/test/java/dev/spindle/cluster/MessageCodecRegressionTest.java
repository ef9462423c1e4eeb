/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What {@link MessageCodec#writeBody} writes, {@link MessageCodec#readBody} must read: a body
 * the writer lets through but the reader refuses makes the receiver drop its whole frame, every
 * other message batched with it included, and the tasks they carry hang. So a field over the
 * reader's bound is either cut to fit when written (an error message) or refused by the writer
 * with an {@link IllegalArgumentException}, which the transports turn into the task's failure.
 */
class MessageCodecRegressionTest {

    /** A long error message in three-byte characters, cut when written, is read back. */
    @Test
    void aLongErrorMessageOfThreeByteCharactersIsCutToWhatTheReaderAccepts() {
        WireMessage.Erred erred = new WireMessage.Erred(1, "k", 1, "E", "\u932f".repeat(MessageCodec.MAX_TEXT_BYTES),
                null, 0);

        WireMessage.Erred read = (WireMessage.Erred) roundTrip(erred);

        assertThat(read.message()).startsWith("\u932f\u932f").endsWith("...");
    }

    /** A key over the reader's bound is refused by the writer, in every message that carries one. */
    @Test
    void aKeyOverTheReadersBoundIsRefusedWhenWrittenNotWhenRead() {
        String longKey = "k".repeat(MessageCodec.MAX_NAME_BYTES + 1);
        List<Object> bodies = List.of(
                new WireMessage.Compute(longKey, 1, new byte[1], List.of(), Map.of(), 0),
                new WireMessage.Compute("k", 1, new byte[1], List.of(longKey), Map.of(longKey, List.of(0)), 0),
                new WireMessage.Finished(0, longKey, 1, new byte[1], 1, 1),
                new WireMessage.Erred(0, longKey, 1, "E", "m", null, 1),
                new Message.DataMissing(0, "k", 1, longKey, 0),
                new Message.ReleaseKey(longKey),
                new WireMessage.FetchRequest(longKey, 0, 1));
        for (Object body : bodies) {
            assertThatThrownBy(() -> MessageCodec.writeBody(new WireWriter(), body, MessageCodec.NONE))
                    .as("%s", body.getClass().getSimpleName())
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("key of " + (MessageCodec.MAX_NAME_BYTES + 1) + " bytes");
        }
        // at the bound it travels
        String longest = "k".repeat(MessageCodec.MAX_NAME_BYTES);
        assertThat(((Message.ReleaseKey) roundTrip(new Message.ReleaseKey(longest))).key()).isEqualTo(longest);
    }

    /**
     * A stack trace element with a name over the reader's bound (one an exception was given with
     * {@link Throwable#setStackTrace}) is refused by the writer, which the transports answer by
     * sending the failure without its trace, and does not reach the reader.
     */
    @Test
    void aStackTraceElementOverTheReadersBoundIsRefusedWhenWritten() {
        StackTraceElement[] trace = {new StackTraceElement("C".repeat(MessageCodec.MAX_NAME_BYTES + 1), "m", "F.java", 1)};
        WireMessage.Erred erred = new WireMessage.Erred(0, "k", 1, "E", "m", trace, 1);

        assertThatThrownBy(() -> MessageCodec.writeBody(new WireWriter(), erred, MessageCodec.NONE))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("of " + (MessageCodec.MAX_NAME_BYTES + 1) + " bytes encoded");
    }

    private static Object roundTrip(Object body) {
        WireWriter out = new WireWriter();
        MessageCodec.writeBody(out, body, MessageCodec.NONE);
        WireReader in = new WireReader(out.toByteArray(), 0, out.size());
        Object read = MessageCodec.readBody(in, MessageCodec.NONE);
        in.expectEnd();
        return read;
    }
}
