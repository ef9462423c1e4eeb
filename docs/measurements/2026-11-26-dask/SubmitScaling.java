import dev.spindle.cluster.*;
import java.time.Duration;
import java.util.*;
public class SubmitScaling {
  public static void main(String[] a) throws Exception {
    try (LocalCluster c = LocalCluster.builder().workers(4).threadsPerWorker(2).latency(Duration.ZERO).balanceInterval(Duration.ofMillis(20)).build()) {
      for (int r = 0; r < 3; r++) for (int n : new int[]{500, 1000, 2000, 4000}) {
        Graph.Builder g = Graph.builder();
        for (int i = 0; i < n; i++) { long v = i; g.task("inc-" + r + "x" + n + "-" + i, args -> v + 1); }
        long t0 = System.nanoTime();
        Map<String, ClusterFuture<?>> fs = c.client().submit(g.build());
        long t1 = System.nanoTime();
        for (ClusterFuture<?> f : fs.values()) f.get();
        long t2 = System.nanoTime();
        System.out.printf("n=%d submit %.1f ms, total %.1f ms, %.0f tasks/s%n", n, (t1-t0)/1e6, (t2-t0)/1e6, n/((t2-t0)/1e9));
        fs.values().forEach(ClusterFuture::release);
      }
    }
  }
}
