import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
import java.util.*;
public class PPWarm {
  public static void main(String[] a) throws Exception {
    RuntimeKind k = a[0].equals("s") ? RuntimeKind.SPINDLE : RuntimeKind.FJP;
    String wl = a.length > 1 ? a[1] : "pp";
    Workload w = wl.equals("pp") ? new PingPong(1000, 20) : new Skynet(1_000_000, 10);
    int chunk = wl.equals("pp") ? 500 : 20;
    BenchRuntime rt = Runtimes.create(k, 2);
    rt.prestart();
    long start = System.nanoTime();
    StringBuilder sb = new StringBuilder(a[0] + " " + wl + ":");
    for (int c = 0; c < 24; c++) {
      long[] t = new long[chunk];
      for (int i = 0; i < chunk; i++) { long t0 = System.nanoTime(); w.run(rt); t[i] = System.nanoTime() - t0; }
      Arrays.sort(t);
      sb.append(String.format(" [%.1fs %.0f]", (System.nanoTime() - start) / 1e9, t[chunk / 2] / 1e3));
    }
    System.out.println(sb);
    rt.close();
  }
}
