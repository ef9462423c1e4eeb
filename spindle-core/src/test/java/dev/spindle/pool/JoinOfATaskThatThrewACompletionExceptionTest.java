package dev.spindle.pool;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.Task;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/**
 * Pins what {@link Task#join()} documents of a failed task: the computation's exception is
 * wrapped in a {@link CompletionException}, the same instance as the cause for every join, and a
 * {@code CompletionException} the computation threw itself (a failed subtask's join, typically)
 * is rethrown as it is, not wrapped a second time; {@code get()} reports its cause, as
 * {@link java.util.concurrent.CompletableFuture#get()} does.
 */
class JoinOfATaskThatThrewACompletionExceptionTest {

    @Test
    void anExceptionIsWrappedWithTheSameCauseForEveryJoin() {
        IllegalStateException failure = new IllegalStateException("the computation's");
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            Task<Object> t = pool.spawn(() -> {
                throw failure;
            });
            assertThatThrownBy(t::join).isExactlyInstanceOf(CompletionException.class).cause().isSameAs(failure);
            assertThatThrownBy(t::join).isExactlyInstanceOf(CompletionException.class).cause().isSameAs(failure);
            assertThatThrownBy(t::get).isExactlyInstanceOf(ExecutionException.class).cause().isSameAs(failure);
        }
    }

    @Test
    void aCompletionExceptionTheComputationThrewIsRethrownAsItIs() {
        IllegalStateException cause = new IllegalStateException("a subtask's");
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(1).build()) {
            Task<Object> inner = pool.spawn(() -> {
                throw cause;
            });
            Task<Object> outer = pool.spawn(inner::join);   // throws inner's CompletionException
            CompletionException[] first = new CompletionException[1];
            assertThatThrownBy(outer::join).isExactlyInstanceOf(CompletionException.class)
                    .satisfies(e -> first[0] = (CompletionException) e).cause().isSameAs(cause);
            assertThatThrownBy(outer::join).isSameAs(first[0]);
            assertThatThrownBy(outer::get).isExactlyInstanceOf(ExecutionException.class).cause().isSameAs(cause);
        }
    }

    @Test
    void invokeOfAComputeTaskRethrowsItsOwnCompletionExceptionAsItIs() {
        CompletionException own = new CompletionException("its own", new IllegalArgumentException());
        ComputeTask<Object> t = new ComputeTask<>() {
            @Override
            protected Object compute() {
                throw own;
            }
        };
        assertThatThrownBy(t::invoke).isSameAs(own);
        assertThatThrownBy(t::join).isSameAs(own);
    }
}
