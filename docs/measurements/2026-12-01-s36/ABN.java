import java.lang.reflect.Method;
import java.net.*;
import java.nio.file.*;
/** In-JVM A/B/C... of N builds on one async suite workload: each build in its own class loader, rounds rotated so every build runs in every position. */
public class ABN {
    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]); String name = a[1]; int rounds = Integer.parseInt(a[2]);
        int n = a.length - 3;
        Method[] round = new Method[n];
        for (int i = 0; i < n; i++) {
            // JAR or JAR@HARNESS_DIR: the WR class of HARNESS_DIR drives that jar's build
            String[] jh = a[3 + i].split("@", 2);
            String h = jh.length > 1 ? jh[1] : System.getProperty("h", "/tmp/abx/h") + "/" + (i % 2);
            URLClassLoader l = new URLClassLoader(new URL[]{Path.of(jh[0]).toUri().toURL(), Path.of(h + "/").toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            Class<?> c = l.loadClass("WR");
            c.getMethod("init", int.class, String.class).invoke(null, workers, name);
            round[i] = c.getMethod("round");
        }
        long[][] t = new long[n][rounds];
        for (int r = 0; r < rounds / 2; r++) for (int i = 0; i < n; i++) round[i].invoke(null);
        for (int r = 0; r < rounds; r++) for (int k = 0; k < n; k++) { int i = (r + k) % n; t[i][r] = (long) round[i].invoke(null); }
        StringBuilder sb = new StringBuilder(name + " w=" + workers + ": ");
        for (int i = 0; i < n; i++) { java.util.Arrays.sort(t[i]); sb.append(String.format("%s p10 %.1f p50 %.1f us | ", label(a[3 + i]), t[i][rounds/10]/1e3, t[i][rounds/2]/1e3)); }
        System.out.println(sb);
        System.exit(0);
    }

    /** A jar's file name; with a harness directory, NAME-DIR.jar (the .jar kept for the scripts' parsers). */
    static String label(String arg) {
        String[] jh = arg.split("@", 2);
        String jar = Path.of(jh[0]).getFileName().toString();
        return jh.length > 1 ? jar.replace(".jar", "") + "-" + Path.of(jh[1]).getFileName() + ".jar" : jar;
    }
}
