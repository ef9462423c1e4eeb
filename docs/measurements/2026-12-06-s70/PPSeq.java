import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
import java.util.*;
public class PPSeq {
  public static void main(String[] a) throws Exception {
    int rounds = Integer.parseInt(a[0]);
    boolean alternate = a.length > 1 && a[1].equals("alt");
    Workload w = new PingPong(1000, 20);
    BenchRuntime s = Runtimes.create(RuntimeKind.SPINDLE, 2);
    BenchRuntime f = Runtimes.create(RuntimeKind.FJP, 2);
    s.prestart(); f.prestart();
    int per = 41;
    double[][] pos = new double[2][per];
    List<List<Long>> all = List.of(new ArrayList<>(), new ArrayList<>());
    for (int r = 0; r < rounds; r++) {
      for (int which = 0; which < 2; which++) {
        if (!alternate && which == 1) continue;
        BenchRuntime rt = which == 0 ? s : f;
        for (int i = 0; i < per; i++) {
          long t0 = System.nanoTime();
          w.run(rt);
          long d = System.nanoTime() - t0;
          if (r >= 5) { pos[which][i] += d / 1e3 / (rounds - 5); all.get(which).add(d); }
        }
      }
    }
    for (int which = 0; which < 2; which++) {
      StringBuilder sb = new StringBuilder(which == 0 ? "spindle by position:" : "fjp by position:");
      for (int i = 0; i < per; i += 4) sb.append(String.format(" %d:%.0f", i, pos[which][i]));
      System.out.println(sb);
      List<Long> x = all.get(which); Collections.sort(x);
      if (!x.isEmpty()) System.out.printf("  p25 %.0f p50 %.0f p75 %.0f p90 %.0f%n", x.get(x.size()/4)/1e3, x.get(x.size()/2)/1e3, x.get(3*x.size()/4)/1e3, x.get(9*x.size()/10)/1e3);
    }
    s.close(); f.close();
  }
}
