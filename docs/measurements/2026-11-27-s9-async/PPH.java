import dev.spindle.async.*;
import java.lang.management.ManagementFactory;
import javax.management.*;
import java.util.concurrent.*;

/** Class histogram of everything ping_pong allocates (run with Epsilon GC): async, then CF. */
public class PPH {
    static String histo() throws Exception {
        MBeanServer s = ManagementFactory.getPlatformMBeanServer();
        return (String) s.invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[]{new String[]{"-all"}}, new String[]{String[].class.getName()});
    }
    static java.util.Map<String,long[]> parse(String h) {
        var m = new java.util.HashMap<String,long[]>();
        for (String line : h.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 4 && f[0].endsWith(":")) m.put(f[3], new long[]{Long.parseLong(f[1]), Long.parseLong(f[2])});
        }
        return m;
    }
    static void diff(String label, java.util.Map<String,long[]> a, java.util.Map<String,long[]> b, int pairs) {
        System.out.println("== " + label);
        var rows = new java.util.ArrayList<String[]>();
        long tot = 0;
        for (var e : b.entrySet()) {
            long[] x = a.getOrDefault(e.getKey(), new long[2]);
            long dn = e.getValue()[0] - x[0], db = e.getValue()[1] - x[1];
            if (db > pairs / 10) { tot += db; rows.add(new String[]{String.format("%8.2f %8.1f", dn/(double)pairs, db/(double)pairs), e.getKey()}); }
        }
        rows.sort((p, q) -> Double.compare(Double.parseDouble(q[0].trim().split("\\s+")[1]), Double.parseDouble(p[0].trim().split("\\s+")[1])));
        for (var r : rows) System.out.println(r[0] + "  " + r[1]);
        System.out.printf("total %.1f bytes per pair%n", tot/(double)pairs);
    }
    public static void main(String[] a) throws Exception {
        int pairs = 20_000;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("p").build()) {
            ForkJoinPool pool = new ForkJoinPool(1);
            for (int r = 0; r < 20; r++) { PPC.async(rt, pairs); PPC.cf(pool, pairs); }
            Thread.sleep(200);
            var h0 = parse(histo());
            PPC.async(rt, pairs);
            Thread.sleep(200);
            var h1 = parse(histo());
            PPC.cf(pool, pairs);
            Thread.sleep(200);
            var h2 = parse(histo());
            diff("async", h0, h1, pairs);
            diff("cf", h1, h2, pairs);
            pool.shutdown();
        }
    }
}
