/**
 * Spindle actors: plain objects behind a mailbox, run on any {@link dev.spindle.Scheduler}.
 * Depends only on {@code dev.spindle.core}, which it re-exports because its API takes a
 * {@code Scheduler}.
 */
module dev.spindle.actor {
    requires transitive dev.spindle.core;
    requires jdk.jfr;                 // flight recorder events

    exports dev.spindle.actor;
}
