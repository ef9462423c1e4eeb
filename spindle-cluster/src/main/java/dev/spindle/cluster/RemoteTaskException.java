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

    /** The class name of the exception the task threw on the worker; serialised. */
    private final String remoteClass;

    /**
     * Rebuilds a worker's failure from its text form. The message of this exception is
     * {@code remoteClass + ": " + message}.
     *
     * @param remoteClass the class name of the exception the task threw
     * @param message its message, or {@code null}
     * @param trace its stack trace, or {@code null} for none
     * @throws NullPointerException if {@code remoteClass} is null
     */
    public RemoteTaskException(String remoteClass, String message, StackTraceElement[] trace) {
        super(Objects.requireNonNull(remoteClass, "remoteClass") + ": " + message);
        this.remoteClass = remoteClass;
        setStackTrace(trace == null ? new StackTraceElement[0] : trace);
    }

    /**
     * The class name of the exception the task threw on the worker.
     *
     * @return the fully qualified class name, as the worker reported it
     */
    public String remoteClass() {
        return remoteClass;
    }
}
