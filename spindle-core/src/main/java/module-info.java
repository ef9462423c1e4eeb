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
    // the bounded read of a source that may never answer, shared by the console and the
    // Micrometer binders; not public API. Both are automatic modules on the module path, named
    // by their jars' Automatic-Module-Name
    exports dev.spindle.internal.observe to dev.spindle.console, dev.spindle.micrometer;
    // JFR instantiates the setting control (CountThreshold) reflectively
    opens dev.spindle.internal.jfr to jdk.jfr;
}
