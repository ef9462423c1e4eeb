/**
 * Spindle core: work-stealing queues ({@code dev.spindle.queue}), schedulers
 * ({@code dev.spindle.pool}) and the types they share ({@code dev.spindle}). No dependencies
 * beyond {@code java.base}.
 */
module dev.spindle.core {
    exports dev.spindle;
    exports dev.spindle.queue;
    exports dev.spindle.pool;
    // the pools' idle protocol, shared with the async runtime; not public API
    exports dev.spindle.internal to dev.spindle.async;
}
