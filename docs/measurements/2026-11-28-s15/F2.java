import dev.spindle.pool.*;
import java.util.concurrent.*;
/** Two independent 1-worker pools running fib(30) at the same time: CPU per round, to separate the cost of sharing a pool from that of sharing the machine. */
public class F2 {
    public static void main(String[] a) throws Exception {
        String kind = a[0]; long secs = Long.parseLong(a[1]); int pools = Integer.parseInt(a[2]);
        var os = (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        java.util.concurrent.atomic.AtomicLong rounds = new java.util.concurrent.atomic.AtomicLong();
        java.util.concurrent.atomic.AtomicBoolean measuring = new java.util.concurrent.atomic.AtomicBoolean();
        long end = System.nanoTime() + secs * 1_000_000_000L;
        Thread[] ts = new Thread[pools];
        for (int p = 0; p < pools; p++) {
            ts[p] = new Thread(() -> {
                WorkStealingPool sp = kind.equals("spindle") ? WorkStealingPool.builder().workers(1).build() : null;
                ForkJoinPool fp = kind.equals("fjp") ? new ForkJoinPool(1) : null;
                while (System.nanoTime() < end) {
                    if (sp != null) sp.invoke(new FV.SF(30)); else fp.invoke(new FV.FT(30));
                    if (measuring.get()) rounds.incrementAndGet();
                }
            });
            ts[p].start();
        }
        Thread.sleep(secs * 500);
        long c0 = os.getProcessCpuTime(); long w0 = System.nanoTime(); measuring.set(true);
        for (Thread t : ts) t.join();
        long c1 = os.getProcessCpuTime(); long w1 = System.nanoTime();
        System.out.printf("%s pools=%d rounds %d cpu/round %.1f ms wall/round(per pool) %.1f ms%n", kind, pools, rounds.get(), (c1-c0)/1e6/rounds.get(), (w1-w0)/1e6/rounds.get()*pools);
        System.exit(0);
    }
}
