/*
 * Copyright 2026 The Spindle Authors. Licensed under the Apache License, Version 2.0.
 */
package dev.spindle.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A worker between JVMs serialises a result when it reports it ({@link WorkerTransportSupport#toScheduler}),
 * into one array: a {@link Sized} result (measured without being serialised) of more than about
 * 2 GiB serialised makes the array's growth throw an {@link OutOfMemoryError}, as does a large
 * result on a heap without room for its bytes, and a class its {@code writeObject} needs that
 * cannot be linked throws a {@link LinkageError}. Only runtime exceptions and a
 * {@link StackOverflowError} were caught there: any other Error escaped into the task's thread
 * after the task had finished, so that neither its result nor its failure was reported, and its
 * caller waited for good. The task now errs, as for any other value that cannot travel.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ResultSerialisationErrorTest {

    /** A worker's transport whose serializer throws {@code error}, recording what it sends. */
    private static final class Throwing extends WorkerTransportSupport {
        final List<String> sent = new CopyOnWriteArrayList<>();

        Throwing(Error error) {
            super(3, value -> {
                throw error;
            });
        }

        @Override
        protected void sendFinished(Message.TaskFinished f, byte[] value) {
            sent.add("finished " + f.key());
        }

        @Override
        protected void sendErred(int worker, String key, long attempt, String errorClass, String message,
                                 StackTraceElement[] trace, long nanos) {
            sent.add("erred " + worker + " " + key + " " + attempt + " " + errorClass + ": " + message);
        }

        @Override
        protected void sendOther(Message.ToScheduler message) {
            sent.add("other " + message);
        }

        @Override
        protected void sendFrame(List<Object> bodies) {
        }

        @Override
        public CompletableFuture<Object> fetch(String key, int holder, int requester) {
            return CompletableFuture.failedFuture(new IllegalStateException("no fetches here"));
        }
    }

    @Test
    void aResultWhoseSerialisationRunsOutOfMemoryErrsItsTask() {
        Throwing w = new Throwing(new OutOfMemoryError("Required array length 2147483639 + 9 is too large"));
        assertThatCode(() -> w.toScheduler(new Message.TaskFinished(3, "big", 7, "value", 3L << 30, 1)))
                .as("the Error stays in the transport").doesNotThrowAnyException();
        assertThat(w.sent).containsExactly("erred 3 big 7 java.lang.IllegalArgumentException: result of 'big' cannot be"
                + " serialised: java.lang.OutOfMemoryError: Required array length 2147483639 + 9 is too large");
    }

    @Test
    void aResultWhoseSerialisationCannotLinkAClassErrsItsTask() {
        Throwing w = new Throwing(new NoClassDefFoundError("com/example/Missing"));
        assertThatCode(() -> w.toScheduler(new Message.TaskFinished(3, "linked", 2, "value", 8, 1)))
                .as("the Error stays in the transport").doesNotThrowAnyException();
        assertThat(w.sent).containsExactly("erred 3 linked 2 java.lang.IllegalArgumentException: result of 'linked'"
                + " cannot be serialised: java.lang.NoClassDefFoundError: com/example/Missing");
    }
}
