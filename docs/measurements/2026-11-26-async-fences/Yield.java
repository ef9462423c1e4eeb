import dev.spindle.async.*;
import dev.spindle.SchedulerStats;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.lang.management.*;

public class Yield {
    static long run(AsyncRuntime rt, int tasks, int yields) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger remaining = new AtomicInteger(tasks);
        for (int t = 0; t < tasks; t++) {
            rt.spawn(new AsyncTask<Void>() {
                int n;
                public Poll<Void> poll(Context cx) {
                    if (n == yields) { if (remaining.decrementAndGet() == 0) done.complete(1L); return Poll.ready(null); }
                    n++; cx.waker().wake(); return Poll.pending();
                }
            });
        }
        return done.get(60, TimeUnit.SECONDS);
    }
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]);
        AsyncPolicy pol = a.length > 1 ? AsyncPolicy.valueOf(a[1]) : AsyncPolicy.WORK_STEALING;
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        com.sun.management.OperatingSystemMXBean sos = (com.sun.management.OperatingSystemMXBean) os;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).policy(pol).name("y").build()) {
            SchedulerStats prev = rt.stats();
            for (int r = 0; r < rounds; r++) {
                long cpu0 = sos.getProcessCpuTime();
                long t0 = System.nanoTime();
                run(rt, 200, 1000);
                long t1 = System.nanoTime();
                long cpu1 = sos.getProcessCpuTime();
                SchedulerStats s = rt.stats();
                System.out.printf("round %d: %.1f ms cpu %.1f ms polls %d wakeups %d steals %d parks %d%n", r, (t1-t0)/1e6, (cpu1-cpu0)/1e6,
                    s.polls()-prev.polls(), s.wakeups()-prev.wakeups(), s.steals()-prev.steals(), s.parks()-prev.parks());
                prev = s;
            }
            System.out.println(rt.stats());
        }
    }
}
