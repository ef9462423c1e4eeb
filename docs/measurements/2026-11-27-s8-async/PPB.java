import dev.spindle.async.*;
import java.lang.management.ManagementFactory;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

/** Bytes allocated per ping_pong pair (all threads), 1 worker, after warm-up. */
public class PPB {
    static long allThreadsAllocated() {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long[] ids = mx.getAllThreadIds();
        long sum = 0;
        for (long b : mx.getThreadAllocatedBytes(ids)) if (b > 0) sum += b;
        return sum;
    }
    public static void main(String[] a) throws Exception {
        int pairs = 10_000;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).name("p").build()) {
            for (int r = 0; r < 200; r++) PPC.async(rt, pairs);
            long b0 = allThreadsAllocated();
            int rounds = 100;
            for (int r = 0; r < rounds; r++) PPC.async(rt, pairs);
            long b1 = allThreadsAllocated();
            System.out.printf("bytes per pair %.1f%n", (b1 - b0) / (double) rounds / pairs);
        }
    }
}
