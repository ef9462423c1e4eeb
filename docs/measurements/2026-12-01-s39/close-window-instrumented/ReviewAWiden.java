package dev.spindle.async;
/** Review instrumentation only: sleeps when -DreviewA.widen=true. */
final class ReviewAWiden {
    static volatile boolean on = Boolean.getBoolean("reviewA.widen");
    static void pause() {
        if (on) {
            try { Thread.sleep(50); } catch (InterruptedException e) { Thread.currentThread().interrupt(); }
        }
    }
}
