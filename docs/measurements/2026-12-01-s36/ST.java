import dev.spindle.async.*;
import dev.spindle.bench.async.*;
import dev.spindle.bench.workload.Size;
public class ST {
    public static void main(String[] a) {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).name("r").build();
        AsyncWorkload wl = AsyncWorkloads.create(a[0], Size.FULL);
        int n = Integer.parseInt(a[1]);
        for (int i = 0; i < n; i++) wl.run(rt);
        var s0 = rt.stats();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) wl.run(rt);
        long t = System.nanoTime() - t0;
        var s1 = rt.stats();
        System.out.println(s0);
        System.out.println(s1);
        System.out.printf("%s: %.1f us/round%n", a[0], t / 1e3 / n);
        rt.shutdown();
        System.exit(0);
    }
}
