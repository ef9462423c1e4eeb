/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * Not public API: what the observability modules share, the bounded read of a source that may
 * never answer ({@code BoundedReads}). Exported only to {@code dev.spindle.console} and
 * {@code dev.spindle.micrometer}, the names their jars give themselves as automatic modules
 * ({@code Automatic-Module-Name}); on the class path it is reachable like any public class, and
 * documented nowhere as API.
 */
package dev.spindle.internal.observe;
