import dev.spindle.SchedulerStats;
import dev.spindle.actor.ActorRef;
import dev.spindle.actor.ActorSystem;
import dev.spindle.pool.WorkSharingPool;
import java.util.concurrent.CountDownLatch;

public class PP {
    static final class Side { ActorRef<Side> other; int left; CountDownLatch done; }

    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a.length > 0 ? a[0] : "2");
        int rounds = Integer.parseInt(a.length > 1 ? a[1] : "40");
        WorkSharingPool pool = WorkSharingPool.builder().workers(workers).name("pp").build();
        ActorSystem sys = ActorSystem.create(pool);
        SchedulerStats s0 = pool.stats();
        long[] t = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            Side ping = new Side(), pong = new Side();
            ActorRef<Side> pi = sys.spawn(() -> ping), po = sys.spawn(() -> pong);
            ping.other = po; pong.other = pi;
            CountDownLatch done = new CountDownLatch(1);
            ping.done = done; ping.left = 40_000;
            long st = System.nanoTime();
            pi.tell(PP::hit);
            done.await();
            t[r] = System.nanoTime() - st;
            if (r == rounds / 2) s0 = pool.stats();
            pi.stop(); po.stop();
        }
        SchedulerStats s1 = pool.stats();
        java.util.Arrays.sort(t, rounds / 2, rounds);
        System.out.printf("median 2nd half %.2f ms/run (%.1f ns/msg)%n", t[rounds * 3 / 4] / 1e6, t[rounds * 3 / 4] / 80_000.0);
        for (int i = 0; i < s1.workers().size(); i++) {
            var b = s0.workers().get(i); var e = s1.workers().get(i);
            System.out.printf("w%d completed %d parks %d unparks %d steals %d overflowed %d queued %d%n", i,
                e.completed() - b.completed(), e.parks() - b.parks(), e.unparks() - b.unparks(), e.steals() - b.steals(),
                e.overflowed() - b.overflowed(), e.queued() - b.queued());
        }
        var mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (Thread th : Thread.getAllStackTraces().keySet()) {
            if (th.getName().startsWith("pp")) System.out.printf("%s cpu %.0f ms%n", th.getName(), mx.getThreadCpuTime(th.getId()) / 1e6);
        }
        long wall = 0; for (long x : t) wall += x; System.out.printf("total run wall %.0f ms%n", wall / 1e6);
        pool.shutdown();
        System.exit(0);
    }

    static void hit(Side s) {
        if (s.done != null) {
            if (s.left-- == 0) { s.done.countDown(); return; }
        }
        s.other.tell(PP::hit);
    }
}
