/**
 * Spindle core: work-stealing queues ({@code dev.spindle.queue}), schedulers
 * ({@code dev.spindle.pool}) and the types they share ({@code dev.spindle}). No dependencies
 * beyond the JDK ({@code java.base}, and {@code jdk.jfr} for its flight recorder events).
 */
module dev.spindle.core {
    requires jdk.jfr;             // the flight recorder events (dev.spindle.internal.jfr)

    exports dev.spindle;
    exports dev.spindle.queue;
    exports dev.spindle.pool;
    // the pools' idle protocol, shared with the async runtime, and whether a thread is a
    // pool's worker (BlockingSupport.serves, for the actor system's close); not public API
    exports dev.spindle.internal to dev.spindle.async, dev.spindle.actor;
    exports dev.spindle.internal.jfr to dev.spindle.async, dev.spindle.actor, dev.spindle.cluster;
    // JFR instantiates the setting control (CountThreshold) reflectively
    opens dev.spindle.internal.jfr to jdk.jfr;
}
