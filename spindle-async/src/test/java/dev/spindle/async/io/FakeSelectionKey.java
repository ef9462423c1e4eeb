/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async.io;

import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.spi.AbstractSelectionKey;

/**
 * A selection key for the tests' hand-written selectors: it keeps the interest set it is given and
 * reports the ready set its selector puts in {@link #ready} (none unless set); nothing else happens
 * to it.
 */
final class FakeSelectionKey extends AbstractSelectionKey {
    private final SelectableChannel channel;
    private final Selector selector;
    private volatile int interest;
    /** The ready set {@link #readyOps()} reports; written by the selector that owns the key. */
    volatile int ready;

    FakeSelectionKey(SelectableChannel channel, Selector selector, int interest, Object attachment) {
        this.channel = channel;
        this.selector = selector;
        this.interest = interest;
        attach(attachment);
    }

    @Override
    public SelectableChannel channel() {
        return channel;
    }

    @Override
    public Selector selector() {
        return selector;
    }

    @Override
    public int interestOps() {
        return interest;
    }

    @Override
    public SelectionKey interestOps(int ops) {
        interest = ops;
        return this;
    }

    @Override
    public int readyOps() {
        return ready;
    }
}
