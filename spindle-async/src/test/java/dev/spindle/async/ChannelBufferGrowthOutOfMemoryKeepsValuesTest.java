/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A channel buffers the values after its oldest in a deque that grows as it fills. The JDK's
 * {@code ArrayDeque.addLast} stores the element first and grows only when that filled its
 * array; an {@link OutOfMemoryError} from that growth left the deque with its head equal to its
 * tail, which {@code size()} reads as empty while {@code poll()} still returns what it holds:
 * the value whose send threw was delivered all the same (so a retry sent it twice), and the
 * next value added overwrote the oldest buffered one, lost. ({@code ChannelGrowthErrorTest}
 * throws from a hook before the add, which the JDK's growth does not.) The growth must come
 * before anything is stored, so that a failed send leaves the channel as it was.
 *
 * <p>A real {@code OutOfMemoryError} needs a full heap, which would disturb every other test of
 * this JVM: the sends run in a child JVM with a small heap ({@link Child}), which fills its heap
 * once the buffer exists, sends until one fails, then frees the heap, sends that value again
 * and receives what the channel holds: each value once, in order.
 */
@Timeout(120)
class ChannelBufferGrowthOutOfMemoryKeepsValuesTest {

    /** Values the child sends at most (the buffer grows at 1,025 values after the oldest). */
    static final int VALUES = 3000;
    /** Values sent before the heap is filled: the buffer exists and has room left. */
    static final int BEFORE_FILL = 600;

    @Test
    void aSendWhoseBufferGrowthRunsOutOfMemoryLosesNoBufferedValue() throws Exception {
        String out = runChild(Child.class, 90, "-Xmx48m", "-XX:+UseSerialGC");
        assertThat(out).as("the child's report").contains("RESULT ");
        String result = out.substring(out.indexOf("RESULT ")).trim();
        assertThat(result).as("child output:%n%s", out).startsWith("RESULT ok");
    }

    /** The sends under a full heap; prints "RESULT ok ..." or "RESULT lost ...". */
    public static final class Child {
        /** Fills the heap; cleared once the failing send has thrown. */
        private static Object[] hog;

        public static void main(String[] args) {
            HandContext cx = new HandContext();
            AsyncChannel<Integer> ch = new AsyncChannel<>(Integer.MAX_VALUE);
            Integer[] values = new Integer[VALUES];
            List<AsyncTask<Void>> sends = new ArrayList<>(VALUES);
            for (int i = 0; i < VALUES; i++) {
                values[i] = Integer.valueOf(100_000 + i);   // beyond the Integer cache: each its own
                sends.add(ch.send(values[i]));
            }
            // warm the paths the full heap must not allocate on (class loading allocates)
            AsyncChannel<Integer> warm = new AsyncChannel<>(4);
            for (int i = 0; i < 3; i++) {
                warm.send(values[i]).poll(cx);
            }
            warm.receive().poll(cx);
            for (int i = 0; i < BEFORE_FILL; i++) {
                if (!sends.get(i).poll(cx).isReady()) {
                    System.out.println("RESULT setup: send " + i + " pending");
                    return;
                }
            }
            fillHeap();
            int accepted = BEFORE_FILL;
            boolean threw = false;
            for (int i = BEFORE_FILL; i < VALUES; i++) {
                try {
                    sends.get(i).poll(cx);
                    accepted++;
                } catch (OutOfMemoryError e) {
                    threw = true;
                    break;
                }
            }
            hog = null;
            if (!threw) {
                System.out.println("RESULT setup: no send ran out of memory (" + accepted + " accepted)");
                return;
            }
            // the send failed, so its sender tries again: the channel now holds each value once
            if (!ch.send(values[accepted]).poll(cx).isReady()) {
                System.out.println("RESULT lost: the retried send is pending");
                return;
            }
            int expected = accepted + 1;
            List<Integer> got = new ArrayList<>();
            for (;;) {
                Poll<Integer> p = ch.receive().poll(cx);
                if (p.isPending()) {
                    break;
                }
                got.add(p.value());
            }
            for (int i = 0; i < got.size(); i++) {
                if (i >= expected || got.get(i) != values[i]) {
                    System.out.println("RESULT lost: receive " + i + " got " + got.get(i) + " instead of "
                            + (i < expected ? values[i] : "nothing") + " (" + got.size() + " received, "
                            + expected + " sent)");
                    return;
                }
            }
            System.out.println((got.size() == expected ? "RESULT ok " : "RESULT lost ") + "sent " + accepted
                    + " before the send that ran out of memory and that one again, received " + got.size());
        }

        /** Allocates until nothing is left, ever smaller chunks, holding them in {@link #hog}. */
        private static void fillHeap() {
            Object[] chain = null;
            int size = 1 << 20;
            while (size > 0) {
                try {
                    Object[] link = new Object[2];
                    link[0] = chain;
                    link[1] = new long[size];
                    chain = link;
                } catch (OutOfMemoryError e) {
                    size >>= 1;
                }
            }
            hog = chain;
        }
    }

    private static final class HandContext implements Context {
        private final Waker waker = new Waker() {
            @Override
            public void wake() {
            }

            @Override
            public boolean expired() {
                return false;
            }
        };

        @Override
        public Waker waker() {
            return waker;
        }

        @Override
        public boolean consumeBudget() {
            return true;
        }
    }

    /** Runs {@code main} in a child JVM with {@code jvmFlags} and this class path; its output. */
    private static String runChild(Class<?> main, int timeoutSeconds, String... jvmFlags) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmFlags));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (java.io.IOException e) {
                return "(output unreadable: " + e + ")";
            }
        });
        boolean done = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        if (!done) {
            p.destroyForcibly();
        }
        String out = output.get(10, TimeUnit.SECONDS);
        assertThat(done).as("child finished; output:%n%s", out).isTrue();
        return out;
    }
}
