import dev.spindle.async.*;
import dev.spindle.bench.async.*;
import dev.spindle.bench.workload.Size;
import java.util.*;
import java.util.concurrent.*;

/**
 * One async workload (at the suite's size) on async-ws and cf-fjp in one JVM, alternating
 * one-second windows of back-to-back runs; prints each window's ns and bytes per operation and
 * the medians. Usage: java -cp spindle.jar:. PP WORKERS WORKLOAD WINDOWS [async|cf|both]
 */
public class PP {

    /** Bytes allocated so far by every live thread. */
    static long alloc() {
        var mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            long b = mx.getThreadAllocatedBytes(t.getId());
            if (b > 0) {
                sum += b;
            }
        }
        return sum;
    }

    /** Runs {@code run} back to back for a second: {ns per op, bytes per op}. */
    static double[] window(Runnable run, long ops) {
        long t0 = System.nanoTime();
        long b0 = alloc();
        int n = 0;
        while (System.nanoTime() - t0 < 1_000_000_000L) {
            run.run();
            n++;
        }
        double ns = (System.nanoTime() - t0) / (double) n / ops;
        return new double[] {ns, (alloc() - b0) / (double) n / ops};
    }

    static String last(List<Double> xs) {
        return xs.isEmpty() ? "-" : String.format("%.0f", xs.get(xs.size() - 1));
    }

    static String median(List<Double> xs) {
        Collections.sort(xs);
        return xs.isEmpty() ? "-" : String.format("%.0f", xs.get(xs.size() / 2));
    }

    public static void main(String[] a) {
        int workers = Integer.parseInt(a[0]);
        AsyncWorkload w = AsyncWorkloads.create(a[1], Size.QUICK);
        int windows = Integer.parseInt(a[2]);
        String only = a.length > 3 ? a[3] : "both";
        AsyncRuntime rt = AsyncRuntime.builder().workers(workers).policy(AsyncPolicy.WORK_STEALING)
                .name("bench-async-ws").build();
        ForkJoinPool fjp = new ForkJoinPool(workers);
        List<Double> as = new ArrayList<>(), cs = new ArrayList<>();
        double ab = 0, cb = 0;
        for (int win = 0; win < windows; win++) {
            if (!only.equals("cf")) {
                double[] r = window(() -> w.run(rt), w.operations());
                as.add(r[0]);
                ab = r[1];
            }
            if (!only.equals("async")) {
                double[] r = window(() -> w.run(fjp), w.operations());
                cs.add(r[0]);
                cb = r[1];
            }
            System.out.printf("bytes/op async %.0f cf %.0f win %d async %s cf %s%n", ab, cb, win, last(as), last(cs));
        }
        System.out.printf("median ns/op: async %s cf %s%n", median(as), median(cs));
        System.out.println(rt.stats());
        rt.close();
        fjp.shutdown();
        System.exit(0);
    }
}
