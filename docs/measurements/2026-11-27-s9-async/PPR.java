import dev.spindle.async.*;
import java.util.concurrent.*;
/** One build's side of an in-JVM A/B: a runtime kept between calls; round() runs ping_pong once. */
public class PPR {
    static AsyncRuntime rt;
    public static void init(int workers) { rt = AsyncRuntime.builder().workers(workers).name("r").build(); }
    public static long round(int pairs) throws Exception { long t0 = System.nanoTime(); PPC.async(rt, pairs); return System.nanoTime() - t0; }
    public static void close() { rt.close(); }
}
