/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Non-blocking TCP for async tasks: a selector-based {@link dev.spindle.async.io.Reactor} (or a
 * {@link dev.spindle.async.io.ReactorGroup}), {@link dev.spindle.async.io.AsyncTcpListener} and
 * {@link dev.spindle.async.io.AsyncTcpStream}.
 */
package dev.spindle.async.io;
