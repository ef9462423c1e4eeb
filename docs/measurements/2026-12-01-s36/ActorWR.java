import dev.spindle.bench.actor.*;
import dev.spindle.bench.workload.Size;
/** One build's side of an in-JVM A/B of an actor suite workload, Spindle actors on a WorkSharingPool. */
public class WR {
    static ActorKit kit; static ActorWorkload wl;
    public static void init(int workers, String name) { kit = ActorKits.byId("spindle-wsh").open(workers); wl = ActorWorkloads.create(name, Size.FULL); }
    public static long round() { long t0 = System.nanoTime(); wl.run(kit); return System.nanoTime() - t0; }
}
