import java.lang.reflect.Method;
import java.net.*;
import java.nio.file.*;
/** In-JVM A/B of two builds on one async suite workload: each build in its own class loader, rounds alternated. */
public class ABX {
    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]); String name = a[1]; int rounds = Integer.parseInt(a[2]);
        String[] jars = {a[3], a[4]};
        Method[] round = new Method[2];
        for (int i = 0; i < 2; i++) {
            URLClassLoader l = new URLClassLoader(new URL[]{Path.of(jars[i]).toUri().toURL(), Path.of("/tmp/abx/h/" + i + "/").toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            Class<?> c = l.loadClass("WR");
            c.getMethod("init", int.class, String.class).invoke(null, workers, name);
            round[i] = c.getMethod("round");
        }
        long[][] t = new long[2][rounds];
        for (int r = 0; r < rounds / 2; r++) for (int i = 0; i < 2; i++) round[i].invoke(null);
        for (int r = 0; r < rounds; r++) for (int k = 0; k < 2; k++) { int i = (r + k) % 2; t[i][r] = (long) round[i].invoke(null); }
        StringBuilder sb = new StringBuilder(name + " w=" + workers + ": ");
        for (int i = 0; i < 2; i++) { java.util.Arrays.sort(t[i]); sb.append(String.format("%s p10 %.1f p50 %.1f us | ", Path.of(jars[i]).getFileName(), t[i][rounds/10]/1e3, t[i][rounds/2]/1e3)); }
        System.out.println(sb);
        System.exit(0);
    }
}
