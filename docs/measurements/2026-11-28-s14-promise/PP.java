import dev.spindle.async.*;
import dev.spindle.bench.async.*;
import java.util.concurrent.*;
import java.util.*;

/** One workload, async-ws vs cf-fjp, alternated windows; prints ns per op per window. */
public class PP {
    static double ab, cb;
    static long alloc() {
        var mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) { long b = mx.getThreadAllocatedBytes(t.getId()); if (b > 0) sum += b; }
        return sum;
    }
    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]);
        String wl = a[1];
        int windows = Integer.parseInt(a[2]);
        String only = a.length > 3 ? a[3] : "both";
        AsyncWorkload w;
        switch (wl) {
            case "ping_pong": w = new PingPongAsync(1000); break;
            default: w = AsyncWorkloads.create(wl, dev.spindle.bench.workload.Size.QUICK);
        }
        if (w == null) {
            for (var c : AsyncWorkloads.class.getMethods()) {}
            throw new IllegalArgumentException(wl);
        }
        AsyncRuntime rt = AsyncRuntime.builder().workers(workers).policy(AsyncPolicy.WORK_STEALING).name("bench-async-ws").build();
        ForkJoinPool fjp = new ForkJoinPool(workers);
        List<Double> as = new ArrayList<>(), cs = new ArrayList<>();
        for (int win = 0; win < windows; win++) {
            if (!only.equals("cf")) {
                long t0 = System.nanoTime(); int n = 0;
                long b0 = alloc();
                while (System.nanoTime() - t0 < 1_000_000_000L) { w.run(rt); n++; }
                double ns = (System.nanoTime() - t0) / (double) n / w.operations();
                as.add(ns); ab = (alloc() - b0) / (double) n / w.operations();
            }
            if (!only.equals("async")) {
                long t0 = System.nanoTime(); int n = 0;
                long b0 = alloc();
                while (System.nanoTime() - t0 < 1_000_000_000L) { w.run(fjp); n++; }
                double ns = (System.nanoTime() - t0) / (double) n / w.operations();
                cs.add(ns); cb = (alloc() - b0) / (double) n / w.operations();
            }
            System.out.printf("bytes/op async %.0f cf %.0f ", ab, cb); System.out.printf("win %d async %s cf %s%n", win, as.isEmpty() ? "-" : String.format("%.0f", as.get(as.size()-1)), cs.isEmpty() ? "-" : String.format("%.0f", cs.get(cs.size()-1)));
        }
        Collections.sort(as); Collections.sort(cs);
        System.out.printf("median ns/op: async %s cf %s%n", as.isEmpty()? "-" : String.format("%.0f", as.get(as.size()/2)), cs.isEmpty()? "-" : String.format("%.0f", cs.get(cs.size()/2)));
        System.out.println(rt.stats());
        rt.close(); fjp.shutdown();
        System.exit(0);
    }
}
