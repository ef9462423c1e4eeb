/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.spindle.cluster.Client;
import dev.spindle.cluster.ClusterFuture;
import dev.spindle.cluster.ClusterStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The membership scenario every transport between JVMs must pass, on worker JVMs it starts and
 * kills: a tree reduction starts on workers 0 and 1 (its gated leaves submitted once its first,
 * ungated leaves are done, since a worker need not start tasks in the order they were submitted);
 * worker 2 joins late; worker 1's JVM is killed and restarted under id 3; with a same-id restart
 * ({@link SameIdRestart}), worker 2's JVM
 * is then killed and restarted under id 2 (a new incarnation of the id), once the coordinator has
 * seen it leave or at once; worker 0 is retired; then the gated leaves are let go. The root must
 * be right, workers 2 and 3 must have done work, and every execution is logged per worker JVM
 * ({@link #ran}): each task ran, and at most once outside the killed JVMs (only their work may run
 * again; a retired worker's may not).
 */
public final class MembershipScenario {

    /** Starts a worker JVM with a given id (the same threads as the others), joining the cluster. */
    @FunctionalInterface
    public interface Launcher {
        WorkerJvm start(int id) throws Exception;
    }

    /** Whether, and when, a killed worker's JVM restarts under its own id in {@link #run}. */
    public enum SameIdRestart {
        /** Never: the transport restarts a killed worker under a new id only. */
        NONE,
        /** Once the coordinator has seen the killed process leave. */
        AFTER_LOSS,
        /**
         * At once, before the coordinator can have seen the old process leave: the old JVM is
         * frozen ({@link WorkerJvm#freeze}: silent, its connections open, as a crashed host looks
         * until the heartbeat timeout runs out; a JVM killed on this host has its sockets closed,
         * which a transport may notice within a second), the new one starts, and it must keep its
         * claim on the id until the old one is declared lost, then join as the new incarnation;
         * the frozen JVM is killed once the new one is in. Needs the line a worker prints once it
         * is admitted ({@link Workers#Workers(Launcher, IntFunction)}).
         */
        IMMEDIATE
    }

    /** The worker JVMs of a run, by id. */
    public static final class Workers {
        private final Launcher launcher;
        private final IntFunction<String> readyLine;
        private final Map<Integer, WorkerJvm> jvms = new ConcurrentHashMap<>();
        private final Set<Long> killed = ConcurrentHashMap.newKeySet();

        public Workers(Launcher launcher) {
            this(launcher, null);
        }

        /**
         * @param readyLine the line worker {@code id}'s JVM prints once the coordinator has
         *     admitted it, such as {@code "spindle worker 2 ready"}
         */
        public Workers(Launcher launcher, IntFunction<String> readyLine) {
            this.launcher = launcher;
            this.readyLine = readyLine;
        }

        /** Starts worker {@code id}'s JVM. */
        public void start(int id) throws Exception {
            jvms.put(id, launcher.start(id));
        }

        void kill(int id) throws InterruptedException {
            killed.add(jvms.get(id).pid());
            jvms.get(id).kill();
        }

        /** Freezes worker {@code id}'s JVM ({@link WorkerJvm#freeze}); it counts as killed. */
        WorkerJvm freeze(int id) throws Exception {
            WorkerJvm jvm = jvms.get(id);
            killed.add(jvm.pid());
            jvm.freeze();
            return jvm;
        }

        long pid(int id) {
            return jvms.get(id).pid();
        }

        /**
         * Waits (at most 150 s) until worker {@code id}'s latest JVM prints its ready line; fails
         * at once, with its output, if that JVM exits first.
         */
        void awaitReady(int id) throws Exception {
            if (readyLine == null) {
                throw new IllegalStateException("no ready line given for these workers");
            }
            jvms.get(id).awaitOutput(readyLine.apply(id), 150);
        }

        /** Worker {@code id}'s JVM (the latest started under that id). */
        public WorkerJvm jvm(int id) {
            return jvms.get(id);
        }
    }

    private static final int LEAVES = 48;
    private static final int UNGATED = 6;

    private MembershipScenario() {
    }

    /**
     * Runs the scenario without the same-id restart, for a transport that restarts a killed
     * worker under a new id only.
     */
    public static void run(Workers workers, Supplier<Client> clientOf, Supplier<ClusterStats> stats,
                           IntFunction<CompletableFuture<Void>> retire, Path dir) throws Exception {
        run(workers, clientOf, stats, retire, dir, SameIdRestart.NONE);
    }

    /**
     * Runs the scenario with a same-id restart once the coordinator has seen the killed process
     * leave ({@code true}, {@link SameIdRestart#AFTER_LOSS}) or without one.
     */
    public static void run(Workers workers, Supplier<Client> clientOf, Supplier<ClusterStats> stats,
                           IntFunction<CompletableFuture<Void>> retire, Path dir, boolean sameIdRestart)
            throws Exception {
        run(workers, clientOf, stats, retire, dir, sameIdRestart ? SameIdRestart.AFTER_LOSS : SameIdRestart.NONE);
    }

    /**
     * Runs the scenario on a coordinator started with workers 0 and 1 (started through
     * {@code workers}); {@code dir} holds the logs. Unless {@code sameIdRestart} is
     * {@link SameIdRestart#NONE}, a killed worker's JVM also restarts under its own id, which the
     * transport must admit as a new incarnation (the launcher is then asked to start id 2 twice).
     */
    public static void run(Workers workers, Supplier<Client> clientOf, Supplier<ClusterStats> stats,
                           IntFunction<CompletableFuture<Void>> retire, Path dir, SameIdRestart sameIdRestart)
            throws Exception {
        Path gateFile = dir.resolve("gate").toAbsolutePath();
        Files.deleteIfExists(gateFile);
        String gate = gateFile.toString();
        Path ranDir = Files.createDirectories(dir.resolve("ran"));
        String ranPath = ranDir.toAbsolutePath().toString();
        Client client = clientOf.get();
        List<ClusterFuture<Integer>> all = new ArrayList<>();
        List<ClusterFuture<Integer>> level = new ArrayList<>();
        for (int i = 0; i < LEAVES; i++) {
            if (i == UNGATED) {
                // The gated leaves are submitted only once the first leaves are done. Submitted at
                // once, they could start first on every thread of workers 0 and 1: a worker runs
                // tasks of equal priority in the order their messages arrive, and between JVMs
                // that need not be the order they were sent in (Hazelcast hands a member's
                // incoming frames to several threads), so the ungated leaves could wait behind
                // gated ones until the gate timed out (150 s), past this wait (120 s).
                await(stats, s -> s.tasksInMemory() >= 2, "the first leaves are done");
            }
            int value = i;
            String key = "mleaf-" + i;
            level.add(client.submit(key, args -> {
                ran(ranPath, key);
                if (value >= UNGATED) {
                    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(150);
                    while (!Files.exists(Path.of(gate)) && System.nanoTime() < until) {
                        Thread.sleep(5);
                    }
                }
                return value;
            }));
        }
        all.addAll(level);
        int round = 0;
        while (level.size() > 1) {
            List<ClusterFuture<Integer>> next = new ArrayList<>();
            for (int i = 0; i + 1 < level.size(); i += 2) {
                String key = "msum" + round + "-" + i;
                next.add(client.submit(key, args -> {
                    ran(ranPath, key);
                    return (Integer) args.get(0) + (Integer) args.get(1);
                }, level.get(i), level.get(i + 1)));
            }
            if (level.size() % 2 == 1) {
                next.add(level.get(level.size() - 1));
            }
            all.addAll(next.subList(0, level.size() / 2));
            level = next;
            round++;
        }
        ClusterFuture<Integer> root = level.get(0);

        workers.start(2);
        await(stats, s -> alive(s, 2), "worker 2, started late, has joined");
        workers.kill(1);
        workers.start(3);
        await(stats, s -> alive(s, 3) && !alive(s, 1), "worker 1 is lost and its restart, worker 3, has joined");
        if (sameIdRestart == SameIdRestart.AFTER_LOSS) {
            workers.kill(2);
            await(stats, s -> !alive(s, 2), "worker 2 is lost");
            workers.start(2);
            await(stats, s -> alive(s, 2), "worker 2's restart, under the same id, has joined");
        } else if (sameIdRestart == SameIdRestart.IMMEDIATE) {
            WorkerJvm old = workers.freeze(2);
            workers.start(2);
            // admitted only once the old process was declared lost, so the scheduler has that
            // loss queued before anything asked after this line
            workers.awaitReady(2);
            old.kill();
            await(stats, s -> alive(s, 2), "worker 2's restart, under the same id, has joined");
        }
        CompletableFuture<Void> retired = retire.apply(0);
        Files.createFile(gateFile);

        assertThat(root.get(150, TimeUnit.SECONDS)).isEqualTo(LEAVES * (LEAVES - 1) / 2);
        retired.get(60, TimeUnit.SECONDS);
        ClusterStats after = stats.get();
        assertThat(after.workers()).extracting(ClusterStats.WorkerStats::alive)
                .containsExactly(false, false, true, true);
        assertThat(after.workers().get(2).executed() + after.workers().get(3).executed())
                .as("work done by the workers that joined late").isPositive();
        assertRanOnceOutside(ranDir, all, Set.copyOf(workers.killed));
    }

    /**
     * Retiring a worker ends its process, after its data has moved: on a coordinator started with
     * workers 0 and 1 (started through {@code workers}), half of the leaves run on each worker
     * (strictly restricted) and stay held; worker 0 is retired; its JVM must exit with status 0
     * within two minutes and say that it retired; then a sum over every leaf runs on worker 1
     * from the copies. Every task ran exactly once (no JVM was killed).
     */
    public static void retireEndsTheProcess(Workers workers, Supplier<Client> clientOf, Supplier<ClusterStats> stats,
                                            IntFunction<CompletableFuture<Void>> retire, Path dir) throws Exception {
        Path ranDir = Files.createDirectories(dir.resolve("ran"));
        String ranPath = ranDir.toAbsolutePath().toString();
        Client client = clientOf.get();
        List<ClusterFuture<Integer>> leaves = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            int value = i;
            String key = "rleaf-" + i;
            leaves.add(client.submit(dev.spindle.cluster.TaskSpec.builder(key, args -> {
                ran(ranPath, key);
                return value;
            }).restrictions(dev.spindle.cluster.Restrictions.strict(Set.of(i % 2))).build()));
        }
        assertThat(client.gather(leaves)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7);

        retire.apply(0).get(120, TimeUnit.SECONDS);
        WorkerJvm retired = workers.jvm(0);
        assertThat(retired.awaitExit(120)).as("exit status of the retired worker; out: %s", retired.out()).isZero();
        assertThat(retired.out() + retired.err()).contains("worker 0 retired");
        ClusterStats after = stats.get();
        assertThat(after.workers()).extracting(ClusterStats.WorkerStats::alive).containsExactly(false, true);
        assertThat(after.workers().get(1).keysHeld()).as("every leaf on worker 1").isEqualTo(8);

        ClusterFuture<Integer> sum = client.submit("rsum", args -> {
            ran(ranPath, "rsum");
            return args.stream().mapToInt(a -> (Integer) a).sum();
        }, leaves.toArray(new ClusterFuture<?>[0]));
        assertThat(sum.get(120, TimeUnit.SECONDS)).isEqualTo(28);
        List<ClusterFuture<Integer>> all = new ArrayList<>(leaves);
        all.add(sum);
        assertRanOnceOutside(ranDir, all, Set.of());
    }

    private static boolean alive(ClusterStats s, int id) {
        return s.workers().size() > id && s.workers().get(id).alive();
    }

    private static void await(Supplier<ClusterStats> stats, Predicate<ClusterStats> condition, String what)
            throws InterruptedException {
        await(() -> condition.test(stats.get()), () -> what + ": " + stats.get());
    }

    /** Waits (at most 120 s, then fails naming {@code what}) until {@code condition} holds. */
    public static void await(java.util.function.BooleanSupplier condition, Supplier<String> what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what.get());
            }
            Thread.sleep(20);
        }
    }

    /**
     * Waits until one of workers {@code 0..workers-1} has delivered at least {@code results}
     * results ({@code finishedOn} of its id), and returns the id of the first seen to have. Tests
     * that kill a worker mid-run pick it so: which worker gets the first, ungated tasks is up to
     * the scheduler, and a fixed choice can find its worker with none.
     *
     * @throws AssertionError if none has within {@code limit}, naming every worker's count
     */
    public static int awaitResultsFrom(java.util.function.IntToLongFunction finishedOn, int workers, long results,
            java.time.Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            StringBuilder counts = new StringBuilder();
            for (int id = 0; id < workers; id++) {
                long n = finishedOn.applyAsLong(id);
                if (n >= results) {
                    return id;
                }
                counts.append(id == 0 ? "" : ", ").append(n);
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no worker delivered " + results + " results within " + limit
                        + " (results by worker: " + counts + ")");
            }
            Thread.sleep(10);
        }
    }

    /** Logs one execution of {@code key} in this (worker) JVM: a line in a file per process. */
    public static void ran(String dir, String key) throws IOException {
        Files.writeString(Path.of(dir, "ran-" + ProcessHandle.current().pid()), key + "\n",
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** Each task ran somewhere, and at most once outside the JVM of process {@code killed}. */
    public static void assertRanOnceOutside(Path dir, List<? extends ClusterFuture<?>> all, long killed)
            throws IOException {
        assertRanOnceOutside(dir, all, Set.of(killed));
    }

    /** Each task ran somewhere, and at most once outside the JVMs of the processes {@code killed}. */
    public static void assertRanOnceOutside(Path dir, List<? extends ClusterFuture<?>> all, Set<Long> killed)
            throws IOException {
        Map<String, Integer> outside = new HashMap<>();
        Set<String> anywhere = new HashSet<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                boolean survivor = killed.stream().noneMatch(pid -> name.equals("ran-" + pid));
                for (String key : Files.readAllLines(f)) {
                    anywhere.add(key);
                    if (survivor) {
                        outside.merge(key, 1, Integer::sum);
                    }
                }
            }
        }
        for (ClusterFuture<?> f : all) {
            assertThat(anywhere).as("%s ran", f.key()).contains(f.key());
            assertThat(outside.getOrDefault(f.key(), 0)).as("runs of %s outside the killed JVM", f.key())
                    .isLessThanOrEqualTo(1);
        }
    }
}
