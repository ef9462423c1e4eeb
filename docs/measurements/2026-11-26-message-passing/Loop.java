/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
import dev.spindle.bench.runtime.BenchRuntime;
import dev.spindle.bench.runtime.RuntimeKind;
import dev.spindle.bench.runtime.Runtimes;
import dev.spindle.bench.workload.ChainedSpawn;
import dev.spindle.bench.workload.MessageWorkload;
import dev.spindle.bench.workload.PingPong;

/**
 * Runs one message-passing workload on one runtime in a loop for a profiler (JFR).
 * usage: java -XX:StartFlightRecording=settings=profile,filename=x.jfr -cp spindle.jar:. Loop KIND WORKLOAD SECONDS
 */
public final class Loop {
    public static void main(String[] a) throws Exception {
        RuntimeKind k = a[0].equals("spindle") ? RuntimeKind.SPINDLE : a[0].equals("fjp") ? RuntimeKind.FJP : RuntimeKind.FJP_ASYNC;
        MessageWorkload w = a[1].equals("ping-pong") ? new PingPong(1000, 20)
                : a[1].equals("spawn-many-local") ? dev.spindle.bench.workload.SpawnMany.local(10_000)
                : a[1].equals("skynet") ? new dev.spindle.bench.workload.Skynet(1_000_000, 10) : new ChainedSpawn(1000);
        long end = System.nanoTime() + Long.parseLong(a[2]) * 1_000_000_000L;
        long runs = 0;
        try (BenchRuntime rt = Runtimes.create(k, 2)) {
            rt.prestart();
            while (System.nanoTime() < end) {
                w.run(rt);
                runs++;
            }
        }
        System.out.println(a[0] + " " + a[1] + " runs " + runs);
    }
}
