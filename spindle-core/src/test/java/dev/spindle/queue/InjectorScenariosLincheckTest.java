package dev.spindle.queue;

import java.util.concurrent.TimeUnit;
import org.jetbrains.lincheck.Lincheck;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Lincheck model checking of a small two-producer, two-consumer program on the {@link Injector}
 * ({@link InjectorScenarios}) that covers {@code pollBatch}, whose batch size under contention is
 * not fixed, by checking exactly-once delivery and per-producer order per consumer.
 */
class InjectorScenariosLincheckTest {

    @ParameterizedTest(name = "{0} free slots in the first segment")
    @ValueSource(ints = {2, Injector.SEGMENT_SIZE})
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void twoProducersBatchAndPollConsumers(int free) {
        Lincheck.runConcurrentTest(1000, () -> InjectorScenarios.twoProducersBatchAndPollConsumers(free));
    }
}
