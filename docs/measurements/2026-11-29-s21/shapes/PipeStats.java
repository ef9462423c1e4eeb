import dev.spindle.async.*;
import dev.spindle.SchedulerStats;
public class PipeStats {
    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[1]);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(workers).policy(AsyncPolicy.valueOf(a[0])).build()) {
            for (int i = 0; i < 300; i++) Shapes.pipeSpindle(rt);
            for (int r = 0; r < 8; r++) {
                SchedulerStats s0 = rt.stats();
                long t0 = System.nanoTime();
                Shapes.pipeSpindle(rt);
                long t = System.nanoTime() - t0;
                SchedulerStats s1 = rt.stats();
                System.out.printf("%s w%d %.2f ms polls %d wakeups %d steals %d parks %d unparks %d%n", a[0], workers, t / 1e6,
                    s1.polls() - s0.polls(), s1.wakeups() - s0.wakeups(), s1.steals() - s0.steals(), s1.parks() - s0.parks(), s1.unparks() - s0.unparks());
            }
        }
        System.exit(0);
    }
}
