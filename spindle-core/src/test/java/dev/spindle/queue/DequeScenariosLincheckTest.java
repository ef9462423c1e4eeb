package dev.spindle.queue;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;
import org.jetbrains.lincheck.Lincheck;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Lincheck model checking of small owner-versus-thieves programs ({@link DequeScenarios}),
 * which cover {@code stealBatch}: a batch may legitimately take fewer elements than a
 * sequential run would, so instead of linearizability each program checks exactly-once
 * delivery and ordering itself.
 *
 * <p>The same programs run against {@link MutatedDeque} with a known bug switched on, and the
 * model checker must find an interleaving that breaks them; with no bug switched on the copy
 * passes, so the failures come from the bug and not from the copy.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DequeScenariosLincheckTest {

    @Test
    void ownerVersusBatchAndSingleThief() {
        Lincheck.runConcurrentTest(2000,
                () -> DequeScenarios.ownerVersusBatchAndSingleThief(() -> DequeScenarios.real(4)));
    }

    @Test
    void growWhileTwoBatchThieves() {
        Lincheck.runConcurrentTest(1500,
                () -> DequeScenarios.growWhileTwoBatchThieves(() -> DequeScenarios.real(4)));
    }

    @Test
    void wrapAroundWhileThievesSteal() {
        Lincheck.runConcurrentTest(2000,
                () -> DequeScenarios.wrapAroundWhileThievesSteal(() -> DequeScenarios.real(4)));
    }

    /**
     * As above, on a deque that renews its ring at every fresh read of top ("a young ring"); fewer
     * invocations, as WorkStealingDequeRenewingLincheckTest checks renewals under single steals too.
     */
    @Test
    void ownerVersusBatchAndSingleThiefWithRenewals() {
        Lincheck.runConcurrentTest(1000,
                () -> DequeScenarios.ownerVersusBatchAndSingleThief(() -> DequeScenarios.real(4, 1)));
    }

    @Test
    void wrapAroundWhileThievesStealWithRenewals() {
        Lincheck.runConcurrentTest(1000,
                () -> DequeScenarios.wrapAroundWhileThievesSteal(() -> DequeScenarios.real(4, 1)));
    }

    @Test
    void unmutatedCopyPasses() {
        Lincheck.runConcurrentTest(600, () -> DequeScenarios.ownerVersusBatchAndSingleThief(
                () -> DequeScenarios.mutated(MutatedDeque.Mutation.NONE, 4)));
        Lincheck.runConcurrentTest(600, () -> DequeScenarios.wrapAroundWhileThievesSteal(
                () -> DequeScenarios.mutated(MutatedDeque.Mutation.NONE, 4)));
    }

    @Test
    void detectsPopOfLastElementWithoutCas() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(3000,
                        () -> DequeScenarios.ownerVersusBatchAndSingleThief(
                                () -> DequeScenarios.mutated(MutatedDeque.Mutation.POP_LAST_WITHOUT_CAS, 4))))
                .isInstanceOf(LincheckAssertionError.class)
                .hasMessageContaining("taken 2 times");
    }

    @Test
    void detectsBatchClaimedWithOneCas() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(3000,
                        () -> DequeScenarios.ownerVersusBatchAndSingleThief(
                                () -> DequeScenarios.mutated(MutatedDeque.Mutation.BATCH_SINGLE_CAS, 4))))
                .isInstanceOf(LincheckAssertionError.class)
                .hasMessageContaining("taken 2 times");
    }

    @Test
    void detectsThiefClearingTheSlotItWon() {
        assertThatThrownBy(() -> Lincheck.runConcurrentTest(3000,
                        () -> DequeScenarios.wrapAroundWhileThievesSteal(
                                () -> DequeScenarios.mutated(MutatedDeque.Mutation.THIEF_CLEARS_SLOT, 4))))
                .isInstanceOf(LincheckAssertionError.class)
                .hasMessageContaining("taken 0 times");
    }
}
