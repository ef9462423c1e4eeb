package dev.spindle.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.spindle.actor.ActorRef;
import dev.spindle.actor.ActorSystem;
import dev.spindle.async.AsyncRuntime;
import dev.spindle.async.AsyncTask;
import dev.spindle.async.Context;
import dev.spindle.async.Poll;
import dev.spindle.async.Waker;
import dev.spindle.cluster.LocalCluster;
import dev.spindle.pool.WorkSharingPool;
import dev.spindle.pool.WorkStealingPool;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The console in a real browser: headless Chromium, driven through WebDriver, loads the page
 * over a running workload; the registered pool appears and its numbers change, and an async
 * runtime's long-polling task is listed in its task tables. Leaves a
 * screenshot at {@code target/console.png}. Skipped, saying why, only where no Chromium and
 * chromedriver are installed ({@code ./spindle test} installs them).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ConsoleBrowserTest {

    static final String BROWSER = System.getProperty("console.chromium", "/usr/bin/chromium");
    static final String DRIVER = System.getProperty("console.chromedriver", "/usr/bin/chromedriver");

    @Test
    void thePageShowsARegisteredPoolWhoseNumbersMoveAsWorkRuns() throws Exception {
        assumeTrue(Files.isExecutable(Paths.get(BROWSER)) && Files.isExecutable(Paths.get(DRIVER)),
                "no browser for the console's browser test: " + BROWSER + " and " + DRIVER
                        + " are needed (apt-get install chromium chromium-driver; ./spindle test installs them)");
        AtomicBoolean running = new AtomicBoolean(true);
        try (WorkStealingPool pool = WorkStealingPool.builder().workers(2).name("demo-pool").build();
                WorkSharingPool sharing = WorkSharingPool.builder().workers(1).name("actor-pool").build();
                ActorSystem system = ActorSystem.builder().name("demo-actors").scheduler(sharing).build();
                LocalCluster cluster = LocalCluster.builder().workers(2).threadsPerWorker(1).build();
                AsyncRuntime async = AsyncRuntime.builder().workers(1).name("demo-async").build();
                Console console = Console.builder().interval(Duration.ofMillis(250)).start()) {
            console.register("demo-pool", pool::stats).register("actor-pool", sharing::stats)
                    .register("demo-actors", system).register("graph", cluster).register("demo-async", async);
            SlowPoll slow = new SlowPoll();
            async.spawn(slow);
            Thread load = workload(pool, system, cluster, slow, running);
            WebDriver driver = chromium();
            try {
                driver.get(console.uri().toString());
                // the page re-renders the figures on every sample: an element read may go stale, so retry
                WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(30));
                wait.ignoring(StaleElementReferenceException.class);
                By done = By.cssSelector("section.card[data-name='demo-pool'] .completed");
                String before = wait.until(d -> text(d, done));
                wait.until(d -> {
                    String now = text(d, done);
                    return now != null && !now.equals(before);
                });
                assertThat(driver.findElements(By.cssSelector("section.card[data-name='demo-actors']"))).hasSize(1);
                assertThat(driver.findElements(By.cssSelector("section.card[data-name='graph']"))).hasSize(1);
                String active = wait.until(d -> text(d, By.cssSelector("section.card[data-name='demo-pool'] .active")));
                assertThat(active).as("the active workers figure").matches("[0-9]+");
                By graphExecuted = By.cssSelector("section.card[data-name='graph'] .executed");
                String executed = wait.until(d -> {
                    String t = text(d, graphExecuted);
                    return t != null && t.matches("[1-9][0-9.]*[kM]?") ? t : null;
                });
                assertThat(executed).as("the cluster's executed total, from its own count").isNotNull();
                assertThat(driver.findElements(By.cssSelector("section.card[data-name='graph'] canvas.timeline")))
                        .as("the task timeline").hasSize(1);
                assertThat(driver.findElements(By.cssSelector("section.card[data-name='demo-actors'] ol.mailboxes")))
                        .as("the deepest mailboxes").hasSize(1);
                By slowRow = By.cssSelector("section.card[data-name='demo-async'] table.longest-polls tr.task");
                String row = wait.until(d -> text(d, slowRow));
                assertThat(row).as("the long-polling task tops its table").contains(SlowPoll.class.getName());
                By wokenRow = By.cssSelector("section.card[data-name='demo-async'] table.most-woken tr.task");
                String woken = wait.until(d -> text(d, wokenRow));
                assertThat(woken).as("and its wake-ups table").contains(SlowPoll.class.getName());
                assertThat(driver.findElement(By.id("status")).getText()).startsWith("live");
                Thread.sleep(1500);            // a few samples more, for a fuller screenshot
                File shot = ((ChromeDriver) driver).getScreenshotAs(OutputType.FILE);
                Path target = Paths.get(System.getProperty("console.screenshot", "target/console.png"));
                Files.createDirectories(target.toAbsolutePath().getParent());
                Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
                assertThat(Files.size(target)).isPositive();
            } finally {
                driver.quit();
                running.set(false);
                load.join(10_000);
            }
        }
    }

    /** The text of the first element {@code by} finds, or null while there is none. */
    private static String text(WebDriver d, By by) {
        List<WebElement> found = d.findElements(by);
        return found.isEmpty() ? null : found.get(0).getText();
    }

    static WebDriver chromium() {
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BROWSER);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,760");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(DRIVER)).usingAnyFreePort().build();
        return new ChromeDriver(service, options);
    }

    /** An async task whose every poll holds its worker a while: woken by the workload. */
    static final class SlowPoll implements AsyncTask<Void> {
        final AtomicReference<Waker> waker = new AtomicReference<>();

        @Override
        public Poll<Void> poll(Context cx) {
            waker.set(cx.waker());
            try {
                Thread.sleep(5);               // blocks the worker on purpose: a long poll
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Poll.pending();
        }
    }

    /** Keeps every registered thing busy until {@code running} is cleared. */
    private static Thread workload(WorkStealingPool pool, ActorSystem system, LocalCluster cluster,
            SlowPoll slow, AtomicBoolean running) {
        ActorRef<long[]> counter = system.spawn(() -> new long[1]);
        Thread t = new Thread(() -> {
            int round = 0;
            while (running.get()) {
                pool.invoke(() -> fib(pool, 18));
                for (int i = 0; i < 200; i++) {
                    counter.tell(c -> c[0]++);
                }
                cluster.client().submit("k" + round++, in -> 1);
                Waker w = slow.waker.get();
                if (w != null) {
                    w.wake();
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "console-test-workload");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static long fib(WorkStealingPool pool, int n) {
        if (n < 2) {
            return n;
        }
        var left = pool.spawn(() -> fib(pool, n - 1));
        long right = fib(pool, n - 2);
        return left.join() + right;
    }
}
