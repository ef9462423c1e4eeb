import dev.spindle.SchedulerStats;
import dev.spindle.pool.*;
import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
import java.util.concurrent.*;

/** Parks and unparks per task of each message-passing workload on a 2-worker WorkStealingPool. */
public class Wakes {
    record Rt(WorkStealingPool ex) implements BenchRuntime {
        public RuntimeKind kind() { return RuntimeKind.SPINDLE; }
        public int workers() { return ex.parallelism(); }
        public void execute(Runnable t) { ex.execute(t); }
        public boolean ownsThread(Thread t) { return false; }
        public void prestart() { }
        public WorkStealingPool spindle() { return ex; }
        public void close() { ex.shutdown(); }
    }
    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]);
        Rt rt = new Rt(WorkStealingPool.builder().workers(workers).build());
        System.out.printf("%-18s %12s %10s %10s %12s %12s%n", "workload", "tasks", "parks", "unparks", "parks/task", "unparks/task");
        for (String wn : a[1].split(",")) {
            Workload w = Workloads.create(wn, Size.FULL);
            for (int i = 0; i < 20; i++) w.run(rt);            // warm-up
            Thread.sleep(50);
            SchedulerStats b = rt.ex().stats();
            for (int i = 0; i < 50; i++) w.run(rt);
            Thread.sleep(50);
            SchedulerStats s = rt.ex().stats();
            long tasks = s.completed() - b.completed(), parks = s.parks() - b.parks(), unparks = s.unparks() - b.unparks();
            System.out.printf("%-18s %12d %10d %10d %12.5f %12.5f%n", wn, tasks, parks, unparks, parks / (double) tasks, unparks / (double) tasks);
        }
        rt.ex().close();
    }
}
