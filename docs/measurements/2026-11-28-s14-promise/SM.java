import dev.spindle.async.*;
public class SM {
    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]); int tasks = 10_000;
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(workers).build()) {
            for (int r = 0; r < 200; r++) {
                JoinHandle<Long> parent = rt.spawn(new AsyncTask<Long>() {
                    JoinHandle<Long>[] handles; int next; long sum; int polls;
                    @SuppressWarnings("unchecked")
                    public Poll<Long> poll(Context cx) {
                        polls++;
                        if (handles == null) {
                            handles = new JoinHandle[tasks];
                            for (int i = 0; i < tasks; i++) { long v = i; handles[i] = rt.spawn(c -> Poll.ready(v)); }
                        }
                        while (next < tasks) {
                            Poll<Long> p = handles[next].poll(cx);
                            if (p.isPending()) return Poll.pending();
                            sum += p.value(); next++;
                        }
                        return Poll.ready((long) polls);
                    }
                });
                long polls = parent.get();
                if (r % 40 == 0 || r == 199) System.out.println("round " + r + " root polls " + polls + " wakes " + parent.wakeCount());
            }
            System.out.println(rt.stats());
        }
    }
}
