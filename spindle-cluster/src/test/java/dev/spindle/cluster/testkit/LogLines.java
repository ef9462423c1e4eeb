/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.testkit;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;

/**
 * The messages one class logs while this is open, each formatted as a log line shows it (its
 * parameters filled in): what the tests of every module check when a peer's or a client's text
 * must not write lines of its own into a log. The classes log through {@link System.Logger}, which
 * by default writes to the {@code java.util.logging} logger of the class's name; the handler added
 * there sees each record at the logger's level (INFO and above by default) and is removed on
 * {@link #close}. This holds that logger, so that it is not collected (with the handler) between
 * the logging and the check. {@link #records} keeps each record whole, for a check of its level or
 * of the throwable logged with it.
 */
public final class LogLines implements AutoCloseable {

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Logger logger;
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            records.add(r);
            lines.add(new SimpleFormatter().formatMessage(r));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    private LogLines(Class<?> source) {
        logger = Logger.getLogger(source.getName());
        logger.addHandler(handler);
    }

    /** Starts collecting the messages that {@code source} logs (through a logger of its class name). */
    public static LogLines of(Class<?> source) {
        return new LogLines(source);
    }

    /** The messages logged since this was opened, in order; a live view. */
    public List<String> lines() {
        return lines;
    }

    /** The records logged since this was opened, in order, as logged (level, throwable); a live view. */
    public List<LogRecord> records() {
        return records;
    }

    /** Stops collecting. */
    @Override
    public void close() {
        logger.removeHandler(handler);
    }
}
