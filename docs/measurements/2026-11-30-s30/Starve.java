// The probe of session 30: n tasks each joining a task it submitted to the same pool (fjp, sp = WorkStealingPool, ws = WorkSharingPool).
// javac -cp spindle-core.jar Starve.java && java -cp spindle-core.jar:. Starve WORKERS TASKS fjp|sp|ws
import dev.spindle.pool.*;
import java.util.concurrent.*;
public class Starve {
    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]), outer = Integer.parseInt(a[1]);
        ExecutorService pool = a[2].equals("fjp") ? new ForkJoinPool(workers) : a[2].equals("ws") ? WorkSharingPool.builder().workers(workers).build() : WorkStealingPool.builder().workers(workers).build();
        CompletableFuture<?>[] fs = new CompletableFuture<?>[outer];
        for (int i = 0; i < outer; i++) {
            fs[i] = CompletableFuture.supplyAsync(() -> CompletableFuture.supplyAsync(() -> 42, pool).join(), pool);
        }
        try { CompletableFuture.allOf(fs).get(5, TimeUnit.SECONDS); System.out.println(a[2] + " ok"); }
        catch (TimeoutException e) { System.out.println(a[2] + " HANG"); }
        pool.shutdownNow(); System.exit(0);
    }
}
