import java.lang.reflect.Method;
import java.net.*;
import java.nio.file.*;
/** In-JVM A/B of two builds' async ping_pong: each build in its own class loader, rounds alternated. */
public class PPX {
    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]); int rounds = Integer.parseInt(a[1]);
        String[] jars = {a[2], a[3]};
        Method[] round = new Method[2];
        for (int i = 0; i < 2; i++) {
            URLClassLoader l = new URLClassLoader(new URL[]{Path.of(jars[i]).toUri().toURL(), Path.of("/tmp/ppx/h/").toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            Class<?> c = l.loadClass("PPR");
            c.getMethod("init", int.class).invoke(null, workers);
            round[i] = c.getMethod("round", int.class);
        }
        long[][] t = new long[2][rounds];
        for (int r = 0; r < 600; r++) for (int i = 0; i < 2; i++) round[i].invoke(null, 1000);
        for (int r = 0; r < rounds; r++) for (int k = 0; k < 2; k++) { int i = (r + k) % 2; t[i][r] = (long) round[i].invoke(null, 1000); }
        for (int i = 0; i < 2; i++) { java.util.Arrays.sort(t[i]); System.out.printf("%s: p10 %d p50 %d p90 %d us%n", jars[i], t[i][rounds/10]/1000, t[i][rounds/2]/1000, t[i][rounds*9/10]/1000); }
        System.exit(0);
    }
}
