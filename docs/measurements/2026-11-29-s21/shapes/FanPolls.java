import dev.spindle.async.*;
import java.util.*;
import java.util.concurrent.*;
public class FanPolls {
    public static void main(String[] a) throws Exception {
        try (AsyncRuntime ws = AsyncRuntime.builder().workers(2).policy(AsyncPolicy.valueOf(a[0])).build()) {
            for (int r = 0; r < 3000; r++) {
                JoinHandle<Long>[] rootRef = new JoinHandle[1];
                List<JoinHandle<Long>> hs = new ArrayList<>(1000);
                JoinHandle<Long> root = ws.spawn(Async.then(Async.ready(null), x -> {
                    for (int i = 0; i < 1000; i++) { long v = i; hs.add(ws.spawn(cx -> Poll.ready(Shapes.work(v)))); }
                    return Async.map(Async.all(hs), l -> 0L);
                }));
                root.get(60, TimeUnit.SECONDS);
                if (r % 500 == 499) System.out.println("root woken " + root.wakeCount() + " times");
            }
        }
        System.exit(0);
    }
}
