import dev.spindle.async.*;
import java.util.concurrent.*;

public class SM {
    static long round(AsyncRuntime rt, int tasks) throws Exception {
        JoinHandle<Long> parent = rt.spawn(new AsyncTask<Long>() {
            JoinHandle<Long>[] hs; int next; long sum;
            @SuppressWarnings("unchecked")
            public Poll<Long> poll(Context cx) {
                if (hs == null) { hs = new JoinHandle[tasks]; for (int i = 0; i < tasks; i++) { long v = i; hs[i] = rt.spawn(c -> Poll.ready(v)); } }
                while (next < tasks) { Poll<Long> p = hs[next].poll(cx); if (p.isPending()) return Poll.pending(); sum += p.value(); next++; }
                return Poll.ready(sum);
            }
        });
        return parent.get(60, TimeUnit.SECONDS);
    }
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]); int tasks = 10_000;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(Integer.parseInt(a[1])).name("s").build()) {
            double[] t = new double[rounds];
            for (int r = 0; r < rounds; r++) { long t0 = System.nanoTime(); round(rt, tasks); t[r] = (System.nanoTime() - t0) / (double) tasks; }
            java.util.Arrays.sort(t, rounds / 2, rounds);
            System.out.printf("ns/task 2nd half min %.1f med %.1f%n", t[rounds / 2], t[rounds / 2 + rounds / 4]);
        }
    }
}
