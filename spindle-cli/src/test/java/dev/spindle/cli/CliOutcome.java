/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * What one command line did, run in-process on a fresh {@link SpindleCli#commandLine()}.
 *
 * @param exit the exit code {@code execute} returned
 * @param out what the command printed to its standard output
 * @param err what it printed to its standard error
 */
record CliOutcome(int exit, String out, String err) {

    static CliOutcome run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = SpindleCli.commandLine();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return new CliOutcome(cl.execute(args), out.toString(), err.toString());
    }
}
