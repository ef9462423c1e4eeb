/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * What a failed run prints. A failure without a message printed "error: null", which names
 * neither what failed nor how; and the exceptions suppressed by the failure (a close that failed
 * after the run had failed, as try-with-resources records it) were never printed, so the second
 * failure was lost unless SPINDLE_DEBUG was set.
 */
class FailureReportTest {

    private static String report(Exception ex) {
        CommandLine cl = SpindleCli.commandLine().getSubcommands().get("bench");
        StringWriter text = new StringWriter();
        cl.setErr(new PrintWriter(text));
        assertThat(SpindleCli.onFailure(ex, cl, null)).isEqualTo(1);
        return text.toString();
    }

    /** Before: "spindle bench: error: null". */
    @Test
    void aFailureWithoutAMessageIsNamedByItsType() {
        assertThat(report(new IllegalStateException())).startsWith("spindle bench: error: java.lang.IllegalStateException")
                .doesNotContain("error: null");
    }

    /** Before: neither suppressed exception was printed. */
    @Test
    void theSuppressedExceptionsArePrinted() {
        IllegalStateException top = new IllegalStateException("run failed", new IOException("io"));
        top.addSuppressed(new IOException("close failed"));
        top.getCause().addSuppressed(new IllegalArgumentException("cleanup of the cause failed"));
        assertThat(report(top)).startsWith("spindle bench: error: run failed")
                .containsOnlyOnce("caused by: java.io.IOException: io")
                .containsOnlyOnce("suppressed: java.io.IOException: close failed")
                .containsOnlyOnce("suppressed: java.lang.IllegalArgumentException: cleanup of the cause failed");
    }

    /** A suppressed exception that is also a cause, or suppresses its own thrower, is printed once. */
    @Test
    void aSuppressedExceptionSeenBeforeIsNotPrintedAgain() {
        IOException cause = new IOException("io");
        IllegalStateException top = new IllegalStateException("run failed", cause);
        top.addSuppressed(cause);
        cause.addSuppressed(top);
        assertThat(report(top)).containsOnlyOnce("java.io.IOException: io").doesNotContain("suppressed: java.lang");
    }
}
