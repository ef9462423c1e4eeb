import dev.spindle.bench.runtime.*;
import dev.spindle.bench.workload.*;
import java.util.*;
public class PPLong {
  public static void main(String[] a) throws Exception {
    RuntimeKind k = a[0].equals("s") ? RuntimeKind.SPINDLE : RuntimeKind.FJP;
    int bounces = Integer.parseInt(a[1]);
    double secs = Double.parseDouble(a[2]);
    String wl = a.length > 3 ? a[3] : "pp";
    Workload w = wl.equals("pp") ? new PingPong(1000, bounces) : new Skynet(1_000_000, 10);
    BenchRuntime rt = Runtimes.create(k, 2);
    rt.prestart();
    long end = System.nanoTime() + (long) (secs * 1e9);
    List<Long> t = new ArrayList<>();
    while (System.nanoTime() < end) { long t0 = System.nanoTime(); w.run(rt); t.add(System.nanoTime() - t0); }
    List<Long> tail = new ArrayList<>(t.subList(t.size() / 2, t.size()));
    Collections.sort(tail);
    System.out.printf("%s %s bounces=%d runs=%d median(2nd half) %.1f us p25 %.1f p75 %.1f%n", a[0], wl, bounces, t.size(), tail.get(tail.size()/2)/1e3, tail.get(tail.size()/4)/1e3, tail.get(3*tail.size()/4)/1e3);
    rt.close();
  }
}
