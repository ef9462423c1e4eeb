/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.internal;

/**
 * Reports what user code threw where nobody waits for it (a waker, a cancel hook breaking its
 * contract) to the current thread's uncaught-exception handler, without letting it end the
 * thread: a worker, a selector thread or the timer thread goes on with the rest of its work. A
 * handler that throws in turn has nowhere left to report to; its exception is dropped, as the
 * pools drop one thrown by the handler of a failed task. Not part of the public API: the package
 * is exported only to Spindle's own modules.
 */
public final class Strays {

    private Strays() {
    }

    /** Hands {@code t} to the current thread's uncaught-exception handler; never throws. */
    public static void report(Throwable t) {
        Thread self = Thread.currentThread();
        try {
            self.getUncaughtExceptionHandler().uncaughtException(self, t);
        } catch (Throwable ignored) {
            // a handler that throws has nowhere left to report to
        }
    }

    /**
     * {@code t.toString()} for a message, or, if that throws (a {@code getMessage()} reading
     * state the failed code never set, say), {@code t}'s class name and what its
     * {@code toString()} threw; never throws. The JDK's cause constructors
     * ({@code new CompletionException(cause)}, {@code new ExecutionException(cause)}) and a
     * plain {@code "..." + t} print the cause bare: where that threw, the second exception was
     * thrown in place of the report of the first, and whoever waited never learned how the task
     * failed (ForkTaskFailedWithAnUnprintableExceptionTest,
     * JoinHandleFailedWithAnUnprintableExceptionTest, SpareFactoryFailingUnprintablyTest).
     */
    public static String describe(Throwable t) {
        try {
            return String.valueOf(t);
        } catch (Throwable e) {
            return t.getClass().getName() + " (its toString() threw " + e.getClass().getName() + ")";
        }
    }
}
