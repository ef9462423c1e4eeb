import dev.spindle.cluster.*;
import java.time.Duration;
import java.util.*;

/**
 * Tiny independent tasks per second on a LocalCluster (4 workers x 2 threads, no latency): n tasks
 * submitted as one graph, timed until every future is done. Three passes over the sizes given as
 * arguments (default 1000 2000 5000 10000 20000). Run from the repository root:
 * java -cp spindle-core/target/classes:spindle-cluster/target/classes docs/measurements/2026-11-26-cl2/SubmitScaling.java
 */
public class SubmitScaling {
  public static void main(String[] a) throws Exception {
    int[] sizes = a.length == 0 ? new int[] {1000, 2000, 5000, 10000, 20000}
        : Arrays.stream(a).mapToInt(Integer::parseInt).toArray();
    try (LocalCluster c = LocalCluster.builder().workers(4).threadsPerWorker(2).latency(Duration.ZERO)
        .balanceInterval(Duration.ofMillis(20)).build()) {
      for (int r = 0; r < 3; r++) for (int n : sizes) {
        Graph.Builder g = Graph.builder();
        for (int i = 0; i < n; i++) { long v = i; g.task("inc-" + r + "x" + n + "-" + i, args -> v + 1); }
        long t0 = System.nanoTime();
        Map<String, ClusterFuture<?>> fs = c.client().submit(g.build());
        long t1 = System.nanoTime();
        for (ClusterFuture<?> f : fs.values()) f.get();
        long t2 = System.nanoTime();
        System.out.printf("pass %d n=%d submit %.1f ms, total %.1f ms, %.0f tasks/s%n", r + 1, n, (t1 - t0) / 1e6,
            (t2 - t0) / 1e6, n / ((t2 - t0) / 1e9));
        fs.values().forEach(ClusterFuture::release);
      }
    }
  }
}
