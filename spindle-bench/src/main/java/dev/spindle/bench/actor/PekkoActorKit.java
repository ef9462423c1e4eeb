/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.bench.actor;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.event.Logging;

/**
 * The kit on Apache Pekko's classic actors ({@link AbstractActor}, the Java API): one actor
 * class whose receive calls the handler, {@link Addr#tell} = {@code ActorRef.tell(msg, noSender)}.
 * Classic rather than typed because typed actors run on top of classic ones and add a
 * behaviour interpretation step per message; classic is Pekko's fastest path.
 *
 * <p>The actor system is configured here in code: the default dispatcher, a
 * {@code fork-join-executor} with exactly {@code parallelism} threads and the given
 * {@code throughput} (messages per actor activation), the default unbounded mailbox. Settings not
 * named here come from Pekko's own {@code reference.conf} ({@link ConfigFactory#defaultReference},
 * so no {@code application.conf} on the class path can change the baseline); shaded jars must
 * merge the {@code reference.conf} files (they do, with the shade plugin's
 * {@code AppendingTransformer}). Pekko's log never goes to stdout,
 * which stays clean for {@code --json}: warnings and errors go to stderr.
 */
public final class PekkoActorKit implements ActorKit {

    private final String id;
    private final ActorSystem system;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();

    private PekkoActorKit(String id, ActorSystem system) {
        this.id = id;
        this.system = system;
    }

    /**
     * Starts an actor system whose default dispatcher has {@code parallelism} threads and lets an
     * actor handle up to {@code throughput} messages per activation.
     */
    public static PekkoActorKit create(String id, int parallelism, int throughput) {
        if (parallelism < 1 || throughput < 1) {
            throw new IllegalArgumentException("parallelism and throughput must be at least 1, were "
                    + parallelism + " and " + throughput);
        }
        String name = id.replaceAll("[^A-Za-z0-9-]", "-");
        ActorSystem system = ActorSystem.create(name, config(parallelism, throughput),
                PekkoActorKit.class.getClassLoader());
        // the baseline must be what the report says it is, whatever the class path holds
        Config c = system.settings().config().getConfig("pekko.actor.default-dispatcher");
        if (c.getInt("throughput") != throughput || !c.getString("executor").equals("fork-join-executor")
                || c.getInt("fork-join-executor.parallelism-max") != parallelism) {
            system.terminate();
            throw new IllegalStateException("Pekko's default dispatcher is not configured as asked: " + c.root().render());
        }
        return new PekkoActorKit(id, system);
    }

    /** The configuration the kit's actor system runs with. */
    static Config config(int parallelism, int throughput) {
        String s = String.format(Locale.ROOT, String.join("\n",
                "pekko {",
                "  loggers = [\"" + StderrLogger.class.getName() + "\"]",
                "  loglevel = WARNING",
                "  stdout-loglevel = OFF",
                "  log-dead-letters = off",
                "  log-dead-letters-during-shutdown = off",
                "  coordinated-shutdown.run-by-jvm-shutdown-hook = off",
                "  actor.default-dispatcher {",
                "    type = Dispatcher",
                "    executor = fork-join-executor",
                "    fork-join-executor {",
                "      parallelism-min = %d",
                "      parallelism-factor = 1.0",
                "      parallelism-max = %d",
                "    }",
                "    throughput = %d",
                "  }",
                "}"), parallelism, parallelism, throughput);
        ClassLoader cl = PekkoActorKit.class.getClassLoader();
        return ConfigFactory.parseString(s).withFallback(ConfigFactory.defaultReference(cl)).resolve();
    }

    /** The running actor system's settings, for checks. */
    Config settings() {
        return system.settings().config();
    }

    @Override
    public String id() {
        return id;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <M> Addr<M> spawn(Function<Addr<M>, Handler<M>> behaviour) {
        Function<Addr<Object>, Handler<Object>> b = (Function) behaviour;
        ActorRef ref = system.actorOf(Props.create(HandlerActor.class, () -> new HandlerActor(this, b)));
        return new PekkoAddr<>(ref, system);
    }

    @Override
    public Throwable firstFailure() {
        return failure.get();
    }

    void fail(Throwable t) {
        failure.compareAndSet(null, t);
    }

    @Override
    public void close() {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Pekko actor system " + id + " did not terminate", e);
        }
    }

    @Override
    public String toString() {
        return id;
    }

    /**
     * Pekko's log on stderr: Pekko's own default logger prints to stdout, which must stay clean
     * for {@code --json}. Pekko creates it by reflection, hence public.
     */
    public static final class StderrLogger extends AbstractActor {
        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(Logging.InitializeLogger.class, m -> getSender().tell(Logging.loggerInitialized(), getSelf()))
                    .match(Logging.LogEvent.class, StderrLogger::print)
                    .matchAny(m -> {
                    })
                    .build();
        }

        private static void print(Logging.LogEvent e) {
            String level = e instanceof Logging.Error ? "ERROR"
                    : e instanceof Logging.Warning ? "WARNING"
                    : e instanceof Logging.Info ? "INFO" : "DEBUG";
            String cause = "";
            if (e instanceof Logging.Error err && err.cause() != null
                    && !err.cause().getClass().getName().endsWith("NoCause$")) {
                cause = ": " + err.cause();
            }
            System.err.println("pekko " + level + " [" + e.logSource() + "] " + e.message() + cause);
        }
    }

    /** The one actor class: its receive hands every message to the workload's handler. */
    static final class HandlerActor extends AbstractActor {
        private final PekkoActorKit kit;
        private final Function<Addr<Object>, Handler<Object>> behaviour;
        private Handler<Object> handler;

        HandlerActor(PekkoActorKit kit, Function<Addr<Object>, Handler<Object>> behaviour) {
            this.kit = kit;
            this.behaviour = behaviour;
        }

        @Override
        public void preStart() {
            try {
                handler = behaviour.apply(new PekkoAddr<>(getSelf(), getContext().getSystem()));
            } catch (RuntimeException | Error e) {
                kit.fail(e);
                throw e;
            }
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().matchAny(this::onMessage).build();
        }

        private void onMessage(Object msg) {
            try {
                handler.handle(msg);
            } catch (RuntimeException | Error e) {
                kit.fail(e);
            }
        }
    }

    private static final class PekkoAddr<M> implements Addr<M> {
        private final ActorRef ref;
        private final ActorSystem system;

        PekkoAddr(ActorRef ref, ActorSystem system) {
            this.ref = ref;
            this.system = system;
        }

        @Override
        public void tell(M msg) {
            ref.tell(msg, ActorRef.noSender());
        }

        @Override
        public void stop() {
            system.stop(ref);
        }
    }
}
