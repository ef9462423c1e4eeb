import dev.spindle.async.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;

public class PP {
    static long round(AsyncRuntime rt, int pairs) throws Exception {
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger remaining = new AtomicInteger(pairs);
        rt.spawn(cx -> {
            for (int i = 0; i < pairs; i++) {
                int ping = i;
                rt.spawn(Async.then(Async.ready(null), ignored -> {
                    AsyncChannel<Integer> toPonger = new AsyncChannel<>(1);
                    AsyncChannel<Integer> toPinger = new AsyncChannel<>(1);
                    rt.spawn(Async.then(toPonger.receive(), v -> toPinger.send(v + 1)));
                    return Async.then(toPonger.send(ping), sent -> Async.map(toPinger.receive(), pong -> {
                        if (remaining.decrementAndGet() == 0) done.complete(1L);
                        return null;
                    }));
                }));
            }
            return Poll.ready(null);
        });
        return done.get(60, TimeUnit.SECONDS);
    }
    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]); int pairs = 10_000;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(Integer.parseInt(a[1])).name("p").build()) {
            double[] t = new double[rounds];
            for (int r = 0; r < rounds; r++) { long t0 = System.nanoTime(); round(rt, pairs); t[r] = (System.nanoTime() - t0) / (double) pairs; }
            java.util.Arrays.sort(t, rounds / 2, rounds);
            System.out.printf("ns/pair 2nd half min %.1f med %.1f%n", t[rounds / 2], t[rounds / 2 + rounds / 4]);
        }
    }
}
