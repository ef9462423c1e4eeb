import dev.spindle.queue.*;
import java.util.concurrent.atomic.*;
/** Owner pushes N then pops; a thief batch-steals meanwhile. ns per element, median of rounds. */
public class DQ {
    public static void main(String[] a) throws Exception {
        int n = 10_000, rounds = Integer.parseInt(a[0]);
        WorkStealingDeque<Object> d = new WorkStealingDeque<>(64, 1 << 16);
        WorkStealingDeque<Object> mine = new WorkStealingDeque<>(64, 1 << 16);
        AtomicLong taken = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        Object x = new Object();
        Thread thief = new Thread(() -> {
            long k = 0;
            while (!stop.get()) {
                Object o = d.stealBatchOrNull(mine, 32);
                if (o != null) { k++; while (mine.pop() != null) k++; taken.addAndGet(k); k = 0; }
                else Thread.onSpinWait();
            }
        });
        thief.start();
        long[] t = new long[rounds]; long[] push = new long[rounds]; long[] stolenDuring = new long[rounds];
        for (int r = 0; r < rounds; r++) {
            long before = taken.get();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) d.offer(x);
            long tp = System.nanoTime() - t0; push[r] = tp; stolenDuring[r] = taken.get() - before;
            long own = 0;
            while (d.pop() != null) own++;
            while (taken.get() - before + own < n) Thread.onSpinWait();
            t[r] = System.nanoTime() - t0;
        }
        stop.set(true); thief.join();
        java.util.Arrays.sort(t, rounds / 2, rounds); java.util.Arrays.sort(push, rounds / 2, rounds); java.util.Arrays.sort(stolenDuring, rounds / 2, rounds);
        int m = rounds / 2 + rounds / 4;
        System.out.printf("round ns/elem %.2f  push ns/elem %.2f  stolen during push %d%n", t[m] / (double) n, push[m] / (double) n, stolenDuring[m]);
    }
}
