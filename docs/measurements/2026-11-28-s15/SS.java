import dev.spindle.async.*;
import dev.spindle.bench.async.*;
/** spawn_many on W workers: stats per run. */
public class SS {
    public static void main(String[] a) throws Exception {
        int w = Integer.parseInt(a[0]); int runs = Integer.parseInt(a[1]);
        AsyncRuntime rt = AsyncRuntime.builder().workers(w).policy(AsyncPolicy.WORK_STEALING).name("ss").build();
        AsyncWorkload wl = AsyncWorkloads.create("spawn_many", dev.spindle.bench.workload.Size.QUICK);
        for (int i = 0; i < 2000; i++) wl.run(rt);
        var s0 = rt.stats(); long t0 = System.nanoTime();
        for (int i = 0; i < runs; i++) wl.run(rt);
        long t1 = System.nanoTime(); var s1 = rt.stats();
        System.out.printf("ns/task %.1f  per run: completed %.0f polls %.0f steals %.1f parks %.1f unparks %.1f wakeups %.1f%n", (t1-t0)/(double)runs/wl.operations(),
            (s1.completed()-s0.completed())/(double)runs, (s1.polls()-s0.polls())/(double)runs, (s1.steals()-s0.steals())/(double)runs, (s1.parks()-s0.parks())/(double)runs, (s1.unparks()-s0.unparks())/(double)runs, (s1.wakeups()-s0.wakeups())/(double)runs);
        System.out.println(s1);
        System.exit(0);
    }
}
