/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Offenders are logged once each, and only so many are remembered: a member holding the secret
 * (or one refused class name after another) names a fresh offender with each frame.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OffenderLogBoundTest {

    private static final int REMEMBERED = 10_000;

    /**
     * Past 10,000 offenders remembered, every refusal of a new one was logged: one line per frame,
     * as fast as a sender could name fresh offenders, with no bound (the log flood the log-once
     * rule is there to prevent). Now the offenders past the bound are counted, and logged no more
     * than once in all.
     */
    @Test
    void offendersPastTheRememberedOnesAreCountedWithoutALineEach() {
        Logger log = Logger.getLogger(Offences.class.getName());
        AtomicInteger lines = new AtomicInteger();
        Handler counting = new Handler() {
            @Override
            public void publish(LogRecord r) {
                lines.incrementAndGet();
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        boolean parents = log.getUseParentHandlers();
        log.setUseParentHandlers(false);      // 10,000 lines on the console is no help
        log.addHandler(counting);
        try {
            Offences offences = new Offences("coordinator");
            for (int i = 0; i < REMEMBERED; i++) {
                offences.record(Offences.Kind.REFUSED_CLASS, "com.example.C" + i, "refused");
            }
            assertThat(lines).hasValue(REMEMBERED);
            for (int i = 0; i < 1_000; i++) {
                offences.record(Offences.Kind.REFUSED_CLASS, "com.example.D" + i, "refused");
                offences.record(Offences.Kind.REFUSED_MEMBER, "member " + i, "refused");
            }
            assertThat(lines.get() - REMEMBERED).as("lines logged for offenders past the bound")
                    .isLessThanOrEqualTo(1 + 1_000);   // the new kind's own 1,000, and at most one line more
            assertThat(offences.count(Offences.Kind.REFUSED_CLASS)).isEqualTo(REMEMBERED + 1_000);
            assertThat(offences.count(Offences.Kind.REFUSED_MEMBER)).isEqualTo(1_000);
            for (int i = 0; i < 10; i++) {
                offences.record(Offences.Kind.REFUSED_MEMBER, "member " + i, "again");
            }
            assertThat(offences.count(Offences.Kind.REFUSED_MEMBER)).as("each member counted once").isEqualTo(1_000);
        } finally {
            log.removeHandler(counting);
            log.setUseParentHandlers(parents);
        }
    }
}
