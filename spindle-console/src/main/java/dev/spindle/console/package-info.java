/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
/**
 * A live web console for Spindle: {@link dev.spindle.console.Console} serves one page from the
 * JDK's HTTP server and pushes samples of the registered schedulers, actor systems and clusters
 * over server-sent events.
 */
package dev.spindle.console;
