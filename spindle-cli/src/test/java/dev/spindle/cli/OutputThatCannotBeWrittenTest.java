/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * A command whose standard output cannot be written (a full disk, {@code > /dev/full}, a pipe
 * whose reader has gone) fails with status 1 and says so on standard error. A
 * {@link PrintWriter} keeps its write errors to itself, so {@code ./spindle bench --json >
 * results.json} on a full disk lost the report of a run of many minutes and exited 0, as if it
 * had been written.
 */
class OutputThatCannotBeWrittenTest {

    /** A standard output on a full disk: every write fails. */
    private static final class FullDisk extends Writer {
        @Override
        public void write(char[] cbuf, int off, int len) throws IOException {
            throw new IOException("No space left on device");
        }

        @Override
        public void flush() throws IOException {
            throw new IOException("No space left on device");
        }

        @Override
        public void close() {
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "bench --help", "demo --n 1 --workers 1"})
    void aLostOutputIsAFailure(String args) {
        StringWriter err = new StringWriter();
        CommandLine cl = SpindleCli.commandLine();
        cl.setOut(new PrintWriter(new FullDisk(), true));
        cl.setErr(new PrintWriter(err, true));
        int status = cl.execute(args.split(" "));
        assertThat(status).as(err.toString()).isEqualTo(1);
        assertThat(err.toString()).contains("could not write its output to standard output");
    }
}
