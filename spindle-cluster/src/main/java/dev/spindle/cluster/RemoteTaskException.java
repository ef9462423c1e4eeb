/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import java.util.Objects;

/**
 * A task failed on a worker in another JVM. A transport between JVMs sends the failure as text
 * (the original exception's class might not pass the receiver's deserialisation allow-list) and
 * rebuilds it as this exception: the original class name, message and stack trace.
 */
public final class RemoteTaskException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String remoteClass;

    /**
     * @param remoteClass the class name of the exception the task threw
     * @param message its message, or {@code null}
     * @param trace its stack trace, or {@code null} for none
     */
    public RemoteTaskException(String remoteClass, String message, StackTraceElement[] trace) {
        super(Objects.requireNonNull(remoteClass, "remoteClass") + ": " + message);
        this.remoteClass = remoteClass;
        setStackTrace(trace == null ? new StackTraceElement[0] : trace);
    }

    /** The class name of the exception the task threw on the worker. */
    public String remoteClass() {
        return remoteClass;
    }
}
