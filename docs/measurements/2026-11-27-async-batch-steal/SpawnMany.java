import dev.spindle.async.*;
public class SpawnMany {
    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]); int secs = Integer.parseInt(a[1]);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(workers).build()) {
            int tasks = 10_000; long runs = 0;
            long end = System.nanoTime() + secs * 1_000_000_000L, t0 = 0;
            for (int warm = 0; ; warm++) {
                if (warm == 200) { t0 = System.nanoTime(); runs = 0; System.out.println("measuring"); }
                JoinHandle<Long> parent = rt.spawn(new AsyncTask<Long>() {
                    JoinHandle<Long>[] hs; int next; long sum;
                    @SuppressWarnings("unchecked")
                    public Poll<Long> poll(Context cx) {
                        if (hs == null) { hs = new JoinHandle[tasks]; for (int i = 0; i < tasks; i++) { long v = i; hs[i] = rt.spawn(c -> Poll.ready(v)); } }
                        while (next < tasks) { Poll<Long> p = hs[next].poll(cx); if (p.isPending()) return Poll.pending(); sum += p.value(); next++; }
                        return Poll.ready(sum);
                    }
                });
                parent.toCompletableFuture().get();
                runs++;
                if (warm >= 200 && System.nanoTime() > end) break;
            }
            System.out.printf("ns per spawned task %.1f%n", (System.nanoTime() - t0) / (double) runs / tasks);
        }
    }
}
