/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Non-blocking TCP for async tasks: a selector-based {@link dev.spindle.async.io.Reactor} (or a
 * {@link dev.spindle.async.io.ReactorGroup}), {@link dev.spindle.async.io.AsyncTcpListener} and
 * {@link dev.spindle.async.io.AsyncTcpStream}.
 *
 * <p>Every accept, connect, read and write is an {@link dev.spindle.async.AsyncTask}: one that
 * would block registers its task's waker with the reactor and returns pending, and readiness of
 * the socket wakes it. By default the JVM-wide {@link dev.spindle.async.io.ReactorGroup#shared()}
 * group serves the sockets on daemon selector threads; a group opened with
 * {@link dev.spindle.async.io.ReactorGroup#openDriven} has no threads and is driven by the idle
 * workers of one runtime instead. Listeners bind the address they are given: pass a loopback
 * address to keep a server local.
 */
package dev.spindle.async.io;
