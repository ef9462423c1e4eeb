/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
import dev.spindle.pool.WorkStealingPool;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

/**
 * Per-hop cost of a chain of execute() hand-offs on ONE worker (no peer to wake or steal), and
 * of a burst (one task submitting N): ns per task, median of rounds. Measurement aid only.
 * usage: java -cp spindle.jar:. OneWorkerChain ROUNDS
 */
public final class OneWorkerChain {
    static final int LINKS = 10_000;

    static final class Link implements Runnable {
        final WorkStealingPool pool; final int left; final CountDownLatch done;
        Link(WorkStealingPool pool, int left, CountDownLatch done) { this.pool = pool; this.left = left; this.done = done; }
        public void run() {
            if (left == 0) done.countDown(); else pool.execute(new Link(pool, left - 1, done));
        }
    }

    public static void main(String[] a) throws Exception {
        int rounds = Integer.parseInt(a[0]);
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).maxSpareWorkers(0).build()) {
            double[] chain = new double[rounds], burst = new double[rounds];
            for (int r = -rounds; r < rounds; r++) {
                CountDownLatch done = new CountDownLatch(1);
                long t0 = System.nanoTime();
                pool.execute(new Link(pool, LINKS, done));
                done.await();
                long t1 = System.nanoTime();
                CountDownLatch all = new CountDownLatch(LINKS);
                long t2 = System.nanoTime();
                pool.execute(() -> { for (int i = 0; i < LINKS; i++) pool.execute(all::countDown); });
                all.await();
                long t3 = System.nanoTime();
                if (r >= 0) { chain[r] = (t1 - t0) / (double) LINKS; burst[r] = (t3 - t2) / (double) LINKS; }
            }
            Arrays.sort(chain); Arrays.sort(burst);
            System.out.printf("chain %.1f ns/link  burst %.1f ns/task (median of %d, one worker)%n", chain[rounds / 2], burst[rounds / 2], rounds);
        }
    }
}
