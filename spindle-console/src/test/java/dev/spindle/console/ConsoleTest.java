package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.spindle.actor.ActorSystem;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Poll;
import dev.spindle.async.TaskStats;
import dev.spindle.cluster.ClusterCoordinator;
import dev.spindle.cluster.CoordinatorSettings;
import dev.spindle.cluster.testkit.UnreachableTransport;
import dev.spindle.pool.WorkStealingPool;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsoleTest {

    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    static HttpResponse<String> get(URI uri) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void servesThePageItsScriptAndStyleFromTheJarOnLoopback() throws Exception {
        try (Console console = Console.builder().withoutToken().start()) {
            assertThat(console.address().getAddress().isLoopbackAddress()).isTrue();
            assertThat(console.uri().toString()).startsWith("http://127.0.0.1:").doesNotContain("token");
            HttpResponse<String> page = get(console.uri());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<title>Spindle console</title>").contains("app.js");
            assertThat(page.headers().firstValue("Content-Security-Policy").orElseThrow())
                    .contains("script-src 'self'").contains("frame-ancestors 'none'");
            assertThat(get(console.uri().resolve("/app.js")).body()).contains("EventSource");
            assertThat(get(console.uri().resolve("/app.css")).statusCode()).isEqualTo(200);
            assertThat(get(console.uri().resolve("/nothing")).statusCode()).isEqualTo(404);
            assertThat(get(console.uri().resolve("/app.js/..")).statusCode()).isIn(200, 404);
            assertThat(get(console.uri().resolve("/%2e%2e/pom.xml")).statusCode()).isEqualTo(404);
        }
    }

    @Test
    void theEventStreamCarriesARegisteredPoolWhoseCountersMove() throws Exception {
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("crunch").build();
                ActorSystem system = ActorSystem.builder().name("actors").build();
                Console console = Console.builder().withoutToken().interval(Duration.ofMillis(100)).start()) {
            console.register("crunch", pool::stats).register("my actors", system);
            HttpRequest req = HttpRequest.newBuilder(console.uri().resolve("/events"))
                    .timeout(Duration.ofSeconds(20)).build();
            HttpResponse<java.io.InputStream> res = HTTP.send(req, HttpResponse.BodyHandlers.ofInputStream());
            assertThat(res.statusCode()).isEqualTo(200);
            assertThat(res.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/event-stream");
            try (BufferedReader in = new BufferedReader(new InputStreamReader(res.body(), StandardCharsets.UTF_8))) {
                String first;
                do {
                    // a sample may predate either registration, or fall between the two
                    first = nextData(in);
                } while (!first.contains("crunch") || !first.contains("my actors"));
                assertThat(first).contains("\"name\":\"crunch\"").contains("\"kind\":\"scheduler\"")
                        .containsPattern("\"active\":[0-2],")
                        .contains("\"name\":\"my actors\"").contains("\"kind\":\"actors\"");
                for (int i = 0; i < 500; i++) {
                    pool.execute(() -> { });
                }
                String later;
                do {
                    later = nextData(in);      // bounded by the class timeout
                } while (!later.contains("\"completed\":500"));
                assertThat(later).contains("\"workers\":[{\"index\":0");
            }
        }
    }

    private static String nextData(BufferedReader in) throws Exception {
        for (String line; (line = in.readLine()) != null; ) {
            if (line.startsWith("data: ")) {
                return line.substring(6);
            }
        }
        throw new AssertionError("the stream ended");
    }

    /**
     * A coordinator registers as a LocalCluster does; closed, it throws
     * RejectedExecutionException (not IllegalStateException) and is shown as closed, not as an error.
     */
    @Test
    void aCoordinatorIsShownAsAClusterAndAsClosedOnceClosed() throws Exception {
        ClusterCoordinator coordinator = ClusterCoordinator.start(
                CoordinatorSettings.builder().workers(2).threadsPerWorker(1).build(), new UnreachableTransport());
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start()) {
            console.register("grid", coordinator);
            coordinator.client().submit("waits", args -> 1);
            String snapshot;
            do {
                snapshot = get(console.uri().resolve("/snapshot")).body();
            } while (!snapshot.contains("\"processing\":1"));   // bounded by the class timeout
            assertThat(snapshot).contains("\"kind\":\"cluster\",\"name\":\"grid\"")
                    .contains("\"workers\":[{\"id\":0");
            coordinator.close();
            do {
                snapshot = get(console.uri().resolve("/snapshot")).body();
            } while (!snapshot.contains("\"closed\":true"));
            assertThat(snapshot).doesNotContain("\"kind\":\"error\"");
        } finally {
            coordinator.close();
        }
    }

    @Test
    void anActorSystemsDeepestMailboxesAreShown() throws Exception {
        java.util.concurrent.CountDownLatch inside = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CompletableFuture<Void> release = new java.util.concurrent.CompletableFuture<>();
        try (ActorSystem system = ActorSystem.builder().name("mail").build();
                Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start()) {
            try {
                console.register("mail", system);
                dev.spindle.actor.ActorRef<Object> busy = system.spawn(Object::new,
                        dev.spindle.actor.ActorConfig.builder().name("busy").build());
                busy.tell(a -> {
                    inside.countDown();
                    release.orTimeout(30, TimeUnit.SECONDS).exceptionally(t -> null).join();
                });
                assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
                for (int i = 0; i < 7; i++) {
                    busy.tell(a -> { });
                }
                // a sample taken between the tells shows a shallower mailbox: wait for all seven
                String snapshot;
                do {
                    snapshot = get(console.uri().resolve("/snapshot")).body();
                } while (!snapshot.contains("\"depth\":7"));   // bounded by the class timeout
                assertThat(snapshot).contains("\"mailboxes\":[{\"actor\":\"busy\",\"depth\":7,\"capped\":false}]");
            } finally {
                release.complete(null);   // before the system closes, which waits for its actors
            }
        }
    }

    /**
     * Every sample the console takes is looked at: the test takes them itself (a minute between
     * the sampler's own), so none can go by unseen. Polling {@code /snapshot}, which holds only
     * the latest sample, missed the one sample with the run whenever a poll took longer than the
     * interval, or the sampler, late on a loaded machine, took two samples back to back, and then
     * waited for the run until the timeout.
     */
    @Test
    void aClustersTaskRunsAreSentOnceEachWithTheirWorker() throws Exception {
        try (dev.spindle.cluster.LocalCluster cluster = dev.spindle.cluster.LocalCluster.builder().workers(2)
                .latency(Duration.ZERO).build();
                Console console = Console.builder().withoutToken().interval(Duration.ofMinutes(1)).start()) {
            while (!console.latest().contains("\"time\"")) {
                Thread.sleep(10);              // the sampler's first (bounded by the class timeout)
            }
            console.register("local", cluster);
            cluster.client().submit("first-run", args -> 1).get(10, TimeUnit.SECONDS);
            List<String> samples = new java.util.ArrayList<>();
            // the run is logged when the scheduler handles its report, which may come after get()
            while (cluster.taskEvents().stream().noneMatch(e -> e.key().equals("first-run"))) {
                console.sample();
                samples.add(console.latest());
                Thread.sleep(10);              // bounded by the class timeout
            }
            for (int i = 0; i < 3; i++) {
                console.sample();              // the first of these was taken with the run logged
                samples.add(console.latest());
            }
            List<String> withTheRun = samples.stream().filter(s -> s.contains("first-run")).toList();
            assertThat(withTheRun).as("the samples sending the run, of %s", samples).hasSize(1);
            assertThat(withTheRun.get(0).split("first-run", -1)).as("the run within its sample").hasSize(2);
            assertThat(withTheRun.get(0)).containsPattern("\"tasks\":\\[\\{\"key\":\"first-run\",\"worker\":[01],"
                    + "\"startAgoMs\":[0-9.]+,\"endAgoMs\":[0-9.]+,\"failed\":false}]");
            assertThat(samples.get(samples.size() - 1)).as("a sample after it").contains("\"tasks\":[]");
        }
    }

    @Test
    void eachSampleSendsOnlyTheNewestLogEntriesAfterTheLastSent() {
        List<Integer> log = java.util.stream.IntStream.rangeClosed(1, 300).boxed().toList();
        LogCursor<Integer> cursor = new LogCursor<>(i -> i);
        assertThat(cursor.next(log.subList(0, 250), 200)).hasSize(200).startsWith(51).endsWith(250);
        assertThat(cursor.next(log, 200)).hasSize(50).startsWith(251);
        assertThat(cursor.next(log, 200)).isEmpty();
        assertThat(new LogCursor<Integer>(i -> i).next(log, 200)).hasSize(200).startsWith(101).endsWith(300);
    }

    @Test
    void aFailingSourceShowsItsErrorAndTheOthersGoOn() throws Exception {
        try (Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start()) {
            console.register("broken", () -> {
                throw new IllegalStateException("cannot read");
            });
            String snapshot;
            do {
                snapshot = get(console.uri().resolve("/snapshot")).body();
            } while (!snapshot.contains("broken"));
            assertThat(snapshot).contains("\"kind\":\"error\"").contains("cannot read");
            console.unregister("broken");
        }
    }

    /** Pending for ever, keeping its waker so the test can wake it. */
    static final class Woken implements AsyncTask<Void> {
        final java.util.concurrent.atomic.AtomicReference<dev.spindle.async.Waker> waker =
                new java.util.concurrent.atomic.AtomicReference<>();

        @Override
        public Poll<Void> poll(dev.spindle.async.Context cx) {
            waker.set(cx.waker());
            return Poll.pending();
        }
    }

    @Test
    void anAsyncRuntimesBusiestTasksAreShownInTwoTables() throws Exception {
        try (AsyncRuntime rt = AsyncRuntime.builder().workers(1).spawnSites(true).name("io").build();
                Console console = Console.builder().withoutToken().interval(Duration.ofMillis(50)).start()) {
            console.register("io", rt);
            assertThat(rt.taskStatisticsEnabled()).as("registering turns statistics on").isTrue();
            Woken woken = new Woken();
            rt.spawn(woken);
            while (woken.waker.get() == null) {
                Thread.onSpinWait();           // bounded by the class timeout
            }
            for (int i = 0; i < 3; i++) {
                woken.waker.get().wake();
            }
            String snapshot;
            do {
                snapshot = get(console.uri().resolve("/snapshot")).body();
            } while (!snapshot.contains("\"wakes\":3"));   // bounded by the class timeout
            String task = "\"taskClass\":\"" + Woken.class.getName() + "\",\"spawnSite\":\""
                    + ConsoleTest.class.getName() + ".anAsyncRuntimesBusiestTasksAreShownInTwoTables(ConsoleTest.java:";
            assertThat(snapshot).contains("\"taskStatistics\":true")
                    .containsPattern("\"longestPolls\":\\[\\{\"id\":[0-9]+," + java.util.regex.Pattern.quote(task))
                    .containsPattern("\"mostWoken\":\\[\\{\"id\":[0-9]+," + java.util.regex.Pattern.quote(task))
                    .containsPattern("\"state\":\"(IDLE|SCHEDULED|RUNNING)\",\"polls\":[0-9]+,\"longestNanos\":[0-9]+,"
                            + "\"meanNanos\":[0-9]+,\"wakes\":3}");
        }
    }

    @Test
    void taskClassesAndSpawnSitesAreEscapedAndBounded() {
        StringBuilder sb = new StringBuilder();
        String site = "Evil.\"x\"<script>alert('x')</script>(" + "y".repeat(500) + ")";
        AsyncSource.tasks(sb, "longestPolls", List.of(new TaskStats(7, "a.<script>\"B\"</script>", site,
                TaskStats.State.IDLE, 1, 2, 2, 0)));
        String json = sb.toString();
        assertThat(json).doesNotContain("<").doesNotContain(">")
                .contains("\"taskClass\":\"a.\\u003cscript\\u003e\\\"B\\\"\\u003c/script\\u003e\"")
                .contains("\"spawnSite\":\"Evil.\\\"x\\\"\\u003cscript\\u003ealert('x')");
        assertThat(json.length()).as("the site is cut").isLessThan(400);
        assertThat(AsyncSource.clip("z".repeat(1000))).hasSize(AsyncSource.MAX_TEXT);
    }

    @Test
    void thePageWritesServerTextAsTextNeverAsHtml() throws Exception {
        try (Console console = Console.builder().withoutToken().start()) {
            String script = get(console.uri().resolve("/app.js")).body();
            assertThat(script).contains("textContent").doesNotContain("innerHTML").doesNotContain("outerHTML")
                    .doesNotContain("insertAdjacentHTML").doesNotContain("document.write");
        }
    }

    @Test
    void namesAreEscapedInTheJson() {
        StringBuilder sb = new StringBuilder();
        Json.string(sb, "a\"b\\c\n</script>\u0001");
        assertThat(sb.toString()).isEqualTo("\"a\\\"b\\\\c\\n\\u003c/script\\u003e\\u0001\"");
        assertThat(Json.number(new StringBuilder(), Double.NaN).toString()).isEqualTo("null");
        assertThat(Json.number(new StringBuilder(), 2.0).toString()).isEqualTo("2");
    }

    @Test
    void badSettingsAreRefusedByName() {
        // the range style of the other modules' checks: "must be in [a, b], was x"
        assertThatThrownBy(() -> Console.builder().port(70000))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("port must be in [0, 65535], was 70000");
        assertThatThrownBy(() -> Console.builder().maxClients(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("maxClients must be in [1, 256], was 0");
        assertThatThrownBy(() -> Console.builder().maxConnectionsPerAddress(1025)).isInstanceOf(
                IllegalArgumentException.class).hasMessage("maxConnectionsPerAddress must be in [1, 1024], was 1025");
        assertThatThrownBy(() -> Console.builder().interval(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("interval must be between 50 ms and 1 min, was PT0S");
        assertThatThrownBy(() -> Console.builder().token("short"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("16");
        assertThatThrownBy(() -> Console.builder().token("has spaces in it, sixteen+"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("A-Z");
        assertThatThrownBy(() -> Console.builder().bindAddress(null))
                .isInstanceOf(NullPointerException.class).hasMessageContaining("bindAddress");
        try (Console console = Console.builder().withoutToken().start()) {
            assertThatThrownBy(() -> console.register(null, () -> null))
                    .isInstanceOf(NullPointerException.class).hasMessageContaining("name");
            assertThatThrownBy(() -> console.register(" ", () -> null))
                    .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
        }
        assertThat(Console.randomToken()).hasSize(32).matches("[A-Za-z0-9_-]+");
    }
}
