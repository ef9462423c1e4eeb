package dev.spindle.async;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * PromiseGetSecondReviewRegressionTest.aCloseWhileAPeerWaitsForAPromiseDoesNotCancelTheTaskThatPeerRuns
 * with the two windows widened (ReviewAWiden: 50 ms between cancelAbandoned's count check and its
 * read of polledBy, and between runCell's clearing of polledBy and its finish of a ready poll).
 */
class ReviewACloseWindowTest {

    @Test
    void aTaskThatCompletesDuringCloseIsNotReportedCancelled() throws Exception {
        AsyncRuntime rt = AsyncRuntime.builder().workers(2).build();
        AsyncPromise<String> p = new AsyncPromise<>();
        CountDownLatch tWaits = new CountDownLatch(1);
        JoinHandle<String> t = rt.spawn(cx -> {
            try {
                tWaits.countDown();
                return Poll.ready("t " + p.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
        assertThat(tWaits.await(10, TimeUnit.SECONDS)).isTrue();
        JoinHandle<String> b = rt.spawn(cx -> {
            try {
                return Poll.ready("b " + t.get());
            } catch (Exception e) {
                throw Async.unchecked(e);
            }
        });
        try {
            BlockedGetFixture.await(() -> rt.blockedInGet.get() == 2, "both workers counted");
            ReviewAWiden.on = true;
            Thread closer = new Thread(rt::shutdown, "closer");
            closer.setDaemon(true);
            closer.start();
            BlockedGetFixture.await(rt::isShutdown, "the close under way");
            Thread.sleep(25);                     // B is inside its (widened) cancelAbandoned check
            p.complete("v");
            assertThat(t.get(10, TimeUnit.SECONDS)).isEqualTo("t v");
            assertThat(b.get(10, TimeUnit.SECONDS)).isEqualTo("b t v");
            closer.join(TimeUnit.SECONDS.toMillis(10));
        } finally {
            ReviewAWiden.on = false;
            p.complete("released");
        }
    }
}
