/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.hazelcast;

/**
 * A task failed on a worker in another JVM. The original exception's class is not sent (it might
 * not pass the coordinator's deserialisation allow-list); its name, message and stack trace are.
 */
public final class RemoteTaskException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String remoteClass;

    RemoteTaskException(Throwable original) {
        super(original.getClass().getName() + ": " + original.getMessage());
        this.remoteClass = original.getClass().getName();
        setStackTrace(original.getStackTrace());
    }

    RemoteTaskException(String message) {
        super(message);
        this.remoteClass = RemoteTaskException.class.getName();
    }

    /** The class name of the exception the task threw on the worker. */
    public String remoteClass() {
        return remoteClass;
    }
}
