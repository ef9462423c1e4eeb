/**
 * Spindle async: poll-based tasks with wakers, run by an {@code AsyncRuntime}. Depends only on
 * {@code dev.spindle.core}.
 */
module dev.spindle.async {
    requires transitive dev.spindle.core;
    requires jdk.jfr;                 // flight recorder events

    exports dev.spindle.async;
    exports dev.spindle.async.io;
    // dev.spindle.async.internal is not exported: how the runtime closes a connection of
    // dev.spindle.async.io whose task's value it dropped, without depending on that package
}
