/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster.pekko;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.Done;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.CoordinatedShutdown;
import org.apache.pekko.actor.Address;
import org.apache.pekko.actor.BootstrapSetup;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.setup.ActorSystemSetup;
import org.apache.pekko.io.TcpMessage;
import org.apache.pekko.remote.artery.tcp.SSLEngineProviderSetup;
import org.apache.pekko.serialization.SerializationSetup;
import org.apache.pekko.serialization.SerializerDetails;

/**
 * Builds the actor system every Spindle member runs: Artery over TLS 1.3 with mutual
 * authentication (a peer without a certificate signed by the trusted CA cannot connect, in either
 * direction), Java serialisation off and {@link WireSerializer} for Spindle's frames, Artery's
 * untrusted mode (another member's {@code PoisonPill}, {@code Kill} or system message is
 * discarded, and it reaches by actor selection only the endpoint and the cluster's own daemons),
 * the cluster failure detector and the split-brain resolver.
 *
 * <p>Downing: the coordinator declares a worker lost as soon as the failure detector marks it
 * unreachable ({@code failureSeconds} without heartbeats) and downs it, so it cannot come back
 * with stale state; a worker that leaves in order (one that is exiting) is let go, not downed,
 * so that it finishes its own shutdown. As a fallback, and for the workers' side of a partition,
 * the split-brain resolver runs {@code keep-oldest} among members with the coordinator role after
 * {@code failureSeconds} of stability: the side with the first coordinator survives, a worker cut
 * off from it downs itself. {@code down-all-when-unstable} is off, so flapping never takes the
 * coordinator down.
 */
final class PekkoConfigs {

    static final String ENDPOINT = "spindle";

    private static final System.Logger LOG = System.getLogger(PekkoConfigs.class.getName());

    private PekkoConfigs() {
    }

    /** Starts a member's actor system with these cluster roles; it does not join yet. */
    static ActorSystem start(PekkoClusterSettings s, List<String> roles, WireCodec codec, Refusals refusedMembers) {
        ActorSystemSetup setup = ActorSystemSetup.create(
                BootstrapSetup.create(config(s, roles)),
                SSLEngineProviderSetup.create(system -> new TlsGuard(system, refusedMembers)),
                SerializationSetup.create(system -> List.of(SerializerDetails.create("spindle",
                        new WireSerializer(codec), List.of(Wire.Frame.class, Wire.Encoded.class)))));
        ActorSystem system = ActorSystem.create(s.clusterName(), setup);
        CoordinatedShutdown.get(system).addTask(CoordinatedShutdown.PhaseActorSystemTerminate(),
                "spindle-abort-lingering-connections", () -> {
                    abortLingeringConnections(system);
                    return CompletableFuture.completedFuture(Done.done());
                });
        return system;
    }

    /**
     * How long a stopping member's remoting may take to close its connections before the ones
     * still open are aborted: well past Artery's shutdown flush (1 s), so nothing a peer still
     * needs is cut off.
     */
    static final Duration LINGER = Duration.ofSeconds(3);

    /**
     * Once the actor system is terminating: every {@link #LINGER} until it is down, aborts the
     * TCP connections it still has open. Pekko 1.x's remoting waits for all its streams to end
     * before it unbinds its port and lets the actor system finish, and a TLS connection whose peer
     * keeps its side open (a peer that has already removed this member) never ends: the member
     * would stay up, its port bound, until that peer stopped. An abort (a TCP reset) ends such a
     * stream at once; pekko-io's connection actors take it from anyone.
     */
    private static void abortLingeringConnections(ActorSystem system) {
        try {
            system.scheduler().scheduleOnce(LINGER, () -> {
                if (!system.whenTerminated().isCompleted()) {
                    LOG.log(System.Logger.Level.DEBUG, "{0} is still stopping; aborting its open connections", system);
                    system.actorSelection("/system/IO-TCP/selectors/*/*").tell(TcpMessage.abort(), ActorRef.noSender());
                    abortLingeringConnections(system);
                }
            }, system.dispatcher());
        } catch (IllegalStateException schedulerStopped) {
            // the actor system is down already
        }
    }

    /** A member's configuration with these cluster roles. */
    static Config config(PekkoClusterSettings s, List<String> roles) {
        Map<String, Object> c = new HashMap<>();
        c.put("pekko.loglevel", System.getProperty("spindle.pekko.loglevel", "WARNING"));
        c.put("pekko.stdout-loglevel", "WARNING");
        c.put("pekko.log-dead-letters", "off");
        c.put("pekko.log-dead-letters-during-shutdown", "off");
        c.put("pekko.actor.provider", "cluster");
        c.put("pekko.actor.allow-java-serialization", "off");
        c.put("pekko.actor.warn-about-java-serializer-usage", "off");

        c.put("pekko.remote.artery.transport", "tls-tcp");
        // Artery delivers Pekko's own messages from any member to any actor: a certificate holder
        // stopped an endpoint with a PoisonPill or a Kill, and the member went deaf. Untrusted mode
        // discards those (and remote system messages), and actor selections except to the paths
        // named: the endpoint, and the cluster daemon and heartbeat receiver, which membership and
        // failure detection reach by selection. Spindle watches no remote actor (which this mode
        // would also stop), and its replies go to references, which it leaves alone
        c.put("pekko.remote.artery.untrusted-mode", "on");
        c.put("pekko.remote.artery.trusted-selection-paths", List.of("/user/" + ENDPOINT,
                "/system/cluster/core/daemon", "/system/cluster/heartbeatReceiver"));
        c.put("pekko.remote.artery.canonical.hostname", s.bindAddress());
        c.put("pekko.remote.artery.canonical.port", s.port());
        // room for Artery's envelope (recipient and sender paths) around the largest frame body
        c.put("pekko.remote.artery.advanced.maximum-frame-size",
                s.maxMessageBytes() + WireCodec.FRAME_SLACK + WireCodec.HEADER_BYTES + 16 * 1024 + "b");
        String ssl = "pekko.remote.artery.ssl.config-ssl-engine.";
        // the files checked, not the names given: a link on the way may lead elsewhere by now
        c.put(ssl + "key-store", s.checkedKeyStore().toString());
        c.put(ssl + "key-store-password", s.storePassword());
        c.put(ssl + "key-password", s.storePassword());
        c.put(ssl + "trust-store", s.checkedTrustStore().toString());
        c.put(ssl + "trust-store-password", s.storePassword());
        c.put(ssl + "protocol", "TLSv1.3");
        c.put(ssl + "enabled-algorithms", List.of("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384"));
        c.put(ssl + "require-mutual-authentication", "on");
        // members are identified by certificate and cluster address, not host name; the SANs
        // are there for tools that check them
        c.put(ssl + "hostname-verification", "off");

        // every member announces its message limit: frames are sized by the sender's limit and
        // refused over the receiver's, so the coordinator admits only workers with its own (Roster)
        List<String> withLimit = new ArrayList<>(roles);
        withLimit.add(Roster.MESSAGE_LIMIT_PREFIX + s.maxMessageBytes());
        c.put("pekko.cluster.roles", withLimit);
        c.put("pekko.cluster.jmx.enabled", "off");
        c.put("pekko.cluster.log-info", "off");
        // a worker started before its seed retries soon, not after Pekko's 5 s
        c.put("pekko.cluster.seed-node-timeout", "2s");
        c.put("pekko.cluster.retry-unsuccessful-join-after", "2s");
        c.put("pekko.cluster.failure-detector.heartbeat-interval", "1s");
        c.put("pekko.cluster.failure-detector.acceptable-heartbeat-pause", s.failureSeconds() + "s");
        c.put("pekko.cluster.downing-provider-class", "org.apache.pekko.cluster.sbr.SplitBrainResolverProvider");
        String sbr = "pekko.cluster.split-brain-resolver.";
        c.put(sbr + "active-strategy", "keep-oldest");
        c.put(sbr + "keep-oldest.role", Roster.COORDINATOR_ROLE);
        c.put(sbr + "keep-oldest.down-if-alone", "off");
        c.put(sbr + "stable-after", s.failureSeconds() + "s");
        c.put(sbr + "down-all-when-unstable", "off");
        return ConfigFactory.parseMap(c).withFallback(ConfigFactory.load(PekkoConfigs.class.getClassLoader()));
    }

    /** The cluster addresses of {@code host:port} seed nodes. */
    static List<Address> addresses(String clusterName, List<String> hostPorts) {
        List<Address> out = new ArrayList<>();
        for (String hp : hostPorts) {
            int colon = hp.lastIndexOf(':');
            out.add(new Address("pekko", clusterName, hp.substring(0, colon), Integer.parseInt(hp.substring(colon + 1))));
        }
        return out;
    }

    /**
     * How long {@link #stop} waits: Pekko bounds each phase of its coordinated shutdown (leaving
     * the cluster takes up to 10 s, the final termination up to 10 s more), so a member that
     * leaves in order is down well within this.
     */
    static final Duration STOP_WAIT = Duration.ofSeconds(30);

    /**
     * Terminates a member's actor system and waits for it to go down, so that its port is free
     * when this returns. Should it still be up after {@link #STOP_WAIT} (a remoting stream Pekko
     * cannot stop), this logs a warning naming the member and returns: its port may then stay
     * bound until the actor system is down. An interrupt does not end the wait early; the
     * thread's interrupt status is restored on return.
     */
    static void stop(ActorSystem system) {
        system.terminate();
        CompletableFuture<?> down = system.getWhenTerminated().toCompletableFuture();
        long deadline = System.nanoTime() + STOP_WAIT.toNanos();
        boolean interrupted = false;
        try {
            // an interrupt does not cut the wait short: callers (close(), a start that failed on an
            // interrupt) promise that the port is free on return, and the wait is bounded anyway
            while (true) {
                try {
                    down.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                    return;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } catch (ExecutionException e) {
            // terminated with a failure: it is down all the same
        } catch (TimeoutException e) {
            LOG.log(System.Logger.Level.WARNING, "member {0} did not stop within {1} s; its port may stay bound"
                    + " until it does", ((ExtendedActorSystem) system).provider().getDefaultAddress(), STOP_WAIT.toSeconds());
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** {@code host:port} of a member address. */
    static String hostPort(Address a) {
        return a.host().get() + ":" + a.port().get();
    }
}
