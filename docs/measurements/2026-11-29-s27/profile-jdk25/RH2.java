import dev.spindle.SchedulerStats;
import dev.spindle.pool.WorkStealingPool;
import java.util.concurrent.ForkJoinPool;
import java.util.Arrays;

public class RH2 {
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]); double secs = Double.parseDouble(a[1]); int windows = Integer.parseInt(a[2]);
        WorkStealingPool dflt = WorkStealingPool.builder().workers(2).name("dflt").build();
        WorkStealingPool nosp = WorkStealingPool.builder().workers(2).maxSpareWorkers(0).name("nosp").build();
        ForkJoinPool fjp = new ForkJoinPool(2);
        String[] names = {"dflt", "nosp", "fjp"};
        double[][] med = new double[3][windows];
        for (int w = 0; w < windows; w++) {
            for (int k = 0; k < 3; k++) {
                int kk = (k + w) % 3;
                double[] t = new double[4000]; int c = 0;
                long end = System.nanoTime() + (long) (secs * 1e9);
                while (System.nanoTime() < end && c < t.length) {
                    long t0 = System.nanoTime();
                    if (kk == 0) dflt.invoke(new FW.SF(n)); else if (kk == 1) nosp.invoke(new FW.SF(n)); else fjp.invoke(new FW.FT(n));
                    t[c++] = (System.nanoTime() - t0) / 1e6;
                }
                double[] s = Arrays.copyOf(t, c); Arrays.sort(s); med[kk][w] = s[c / 2];
            }
        }
        for (int k = 0; k < 3; k++) {
            double[] s = med[k].clone(); Arrays.sort(s);
            System.out.printf("%s: median of window medians %.2f ms; windows %s%n", names[k], s[windows / 2], Arrays.toString(Arrays.stream(med[k]).map(x -> Math.round(x * 100) / 100.0).toArray()));
        }
        for (WorkStealingPool p : new WorkStealingPool[] {dflt, nosp}) {
            SchedulerStats st = p.stats();
            StringBuilder sb = new StringBuilder(p.toString().length() > 0 ? st.name() : "");
            for (SchedulerStats.WorkerStats w : st.workers()) sb.append(" [").append(w.index()).append(w.spare() ? " spare" : "").append(" completed=").append(w.completed()).append(" steals=").append(w.steals()).append("]");
            System.out.println(sb);
        }
        dflt.close(); nosp.close(); fjp.shutdown();
    }
}
