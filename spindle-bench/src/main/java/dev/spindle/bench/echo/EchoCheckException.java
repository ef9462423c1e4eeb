/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.echo;

/**
 * An echo server broke the echo contract during a load run: it sent back different bytes, more
 * bytes, closed a connection early, or stopped answering. The run that sees it fails, so a broken
 * server never posts a figure.
 */
public final class EchoCheckException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public EchoCheckException(String message) {
        super(message);
    }
}
