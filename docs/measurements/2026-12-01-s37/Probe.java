import dev.spindle.async.*;
import dev.spindle.bench.async.*;
import dev.spindle.bench.workload.Size;
import dev.spindle.SchedulerStats;
/** Per-round scheduler counters of one suite workload: polls, wake-ups, steals, parks, unparks per operation. */
public class Probe {
    public static void main(String[] a) {
        AsyncRuntime rt = AsyncRuntime.builder().workers(Integer.getInteger("w", 2)).name("r").build();
        AsyncWorkload wl = AsyncWorkloads.create(a[0], Size.FULL);
        int rounds = Integer.parseInt(a[1]);
        for (int i = 0; i < rounds; i++) wl.run(rt);
        SchedulerStats s0 = rt.stats(); long a0 = Alloc.all();
        long t0 = System.nanoTime();
        for (int i = 0; i < rounds; i++) wl.run(rt);
        long t = System.nanoTime() - t0; long al = Alloc.all() - a0;
        SchedulerStats s1 = rt.stats();
        double ops = (double) wl.operations() * rounds;
        System.out.printf("bytes/op %.1f ",  al / ((double) wl.operations() * rounds)); System.out.printf("%s: %.1f ns/op polls %.3f wakeups %.3f steals %.3f parks %.3f unparks %.3f completed %.3f%n", a[0], t / ops,
            (s1.polls() - s0.polls()) / ops, (s1.wakeups() - s0.wakeups()) / ops, (s1.steals() - s0.steals()) / ops,
            (s1.parks() - s0.parks()) / ops, (s1.unparks() - s0.unparks()) / ops, (s1.completed() - s0.completed()) / ops);
        System.exit(0);
    }
}
