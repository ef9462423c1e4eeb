import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
import java.util.*;
public class PPWarm2 {
  public static void main(String[] a) throws Exception {
    Workload w = new PingPong(1000, 20);
    int chunk = 250;
    long start = System.nanoTime();
    for (int pool = 0; pool < 3; pool++) {
      BenchRuntime rt = Runtimes.create(RuntimeKind.SPINDLE, 2);
      rt.prestart();
      StringBuilder sb = new StringBuilder("pool " + pool + ":");
      for (int c = 0; c < 12; c++) {
        long[] t = new long[chunk];
        for (int i = 0; i < chunk; i++) { long t0 = System.nanoTime(); w.run(rt); t[i] = System.nanoTime() - t0; }
        Arrays.sort(t);
        sb.append(String.format(" [%.1fs %.0f]", (System.nanoTime() - start) / 1e9, t[chunk / 2] / 1e3));
      }
      System.out.println(sb);
      rt.close();
    }
  }
}
