/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker's store sums the sizes its values declare ({@link Sized} may say anything from 0 to
 * {@code Long.MAX_VALUE}): two values of more than {@code Long.MAX_VALUE / 2} bytes each wrapped
 * the sum negative. A worker in another JVM reported that figure ({@link Message.MemoryReport}),
 * and the coordinator's codec refuses a negative size: the report was refused with the whole
 * frame it travelled in (a result in it too), and the store, seeing less than nothing in memory,
 * neither spilled nor paused. The store's figures now stay within {@code long}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HugeDeclaredSizesTest {

    @Test
    void valuesThatDeclareHugeSizesKeepTheStoresFiguresReadable() {
        DataStore store = new DataStore();
        long half = Long.MAX_VALUE / 2 + 1;
        store.put("a", "first", half);
        store.put("b", "second", half);
        store.put("c", "third", Long.MAX_VALUE);

        assertThat(store.memoryBytes()).as("bytes in memory").isPositive();
        Message.MemoryReport report = new Message.MemoryReport(1, store.memoryBytes(), store.spilledBytes(),
                store.paused());
        WireWriter out = new WireWriter();
        MessageCodec.writeBody(out, report, MessageCodec.NONE);
        byte[] bytes = out.toByteArray();
        assertThat(MessageCodec.readBody(new WireReader(bytes, 0, bytes.length), MessageCodec.NONE))
                .as("the worker's report, read by the coordinator").isEqualTo(report);

        store.remove("a");
        store.remove("b");
        store.remove("c");
        assertThat(store.memoryBytes()).as("bytes in memory once they are gone").isZero();
    }

    @Test
    void aHugeValueOverALimitStillPausesAStoreThatCannotSpillIt() {
        DataStore store = new DataStore(1_000);
        Sized notSerialisable = () -> Long.MAX_VALUE;      // Sized but not serialisable: it cannot spill
        store.put("small", "x", 10);
        store.put("huge", notSerialisable, Long.MAX_VALUE);
        store.put("huge2", notSerialisable, Long.MAX_VALUE);
        assertThat(store.memoryBytes()).isPositive();
        assertThat(store.paused()).as("over the pause fraction of its limit").isTrue();
    }
}
