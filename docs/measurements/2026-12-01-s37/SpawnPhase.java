import dev.spindle.async.*;
import java.util.concurrent.*;
/** spawn_many's two phases on the async runtime: the parent's spawn loop, and the rest until every child is awaited. */
public class SpawnPhase {
    static final int N = 10_000;
    public static void main(String[] a) throws Exception {
        int w = Integer.getInteger("w", 2);
        AsyncRuntime rt = AsyncRuntime.builder().workers(w).name("r").build();
        int rounds = Integer.parseInt(a[0]);
        long[] loop = new long[rounds], total = new long[rounds];
        for (int pass = 0; pass < 2; pass++)
        for (int r = 0; r < rounds; r++) {
            long[] tl = new long[1];
            long t0 = System.nanoTime();
            JoinHandle<Long> p = rt.spawn(new AsyncTask<Long>() {
                JoinHandle<Long>[] hs; int next; long sum;
                @SuppressWarnings("unchecked")
                public Poll<Long> poll(Context cx) {
                    if (hs == null) {
                        long s = System.nanoTime();
                        hs = new JoinHandle[N];
                        for (int i = 0; i < N; i++) { long v = i; hs[i] = rt.spawn(c -> Poll.ready(v)); }
                        tl[0] = System.nanoTime() - s;
                    }
                    while (next < N) { Poll<Long> q = hs[next].poll(cx); if (q.isPending()) return Poll.pending(); sum += q.value(); next++; }
                    return Poll.ready(sum);
                }
            });
            p.get();
            total[r] = System.nanoTime() - t0; loop[r] = tl[0];
        }
        java.util.Arrays.sort(loop); java.util.Arrays.sort(total);
        System.out.printf("spindle w=%d: spawn loop p50 %.1f ns/task, total p50 %.1f ns/task%n", w, loop[rounds/2]/(double)N, total[rounds/2]/(double)N);
        System.exit(0);
    }
}
