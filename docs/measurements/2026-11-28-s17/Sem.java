import dev.spindle.async.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
/** n tasks wait for a permit of an empty semaphore; then every handle is cancelled, newest first. */
public class Sem {
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(2).build()) {
            AsyncSemaphore sem = new AsyncSemaphore(0);
            AtomicInteger polled = new AtomicInteger();
            AsyncTask<Void> acq = null;
            List<JoinHandle<Void>> hs = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                hs.add(rt.spawn(sem.acquire()));   // the acquire itself: cancelling the handle cancels it
            }
            Thread.sleep(1000);                     // every acquire has polled and waits
            long t0 = System.nanoTime();
            for (int i = n - 1; i >= 0; i--) hs.get(i).cancel(false);
            sem.release();                          // ends at the free count once every cancel has run
            while (sem.availablePermits() < 1) Thread.sleep(1);
            long t1 = System.nanoTime();
            System.out.printf("n=%d cancel all waiters and see the released permit free: %.1f ms (permits %d)%n", n, (t1 - t0) / 1e6, sem.availablePermits());
        }
    }
}
