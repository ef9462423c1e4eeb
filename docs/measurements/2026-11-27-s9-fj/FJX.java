import java.lang.reflect.*;
import java.net.*;
import java.nio.file.*;
import java.util.*;
/** In-JVM A/B of two builds on fork/join suite workloads (plus FJP from the first build's classes); rounds alternated; every workload warmed first, as the suite does. */
public class FJX {
    public static void main(String[] a) throws Exception {
        int workers = Integer.parseInt(a[0]); String[] names = a[1].split(","); int rounds = Integer.parseInt(a[2]);
        String[] jars = {a[3], a[4]};
        Class<?>[] fw = new Class<?>[2];
        for (int i = 0; i < 2; i++) {
            URLClassLoader l = new URLClassLoader(new URL[]{Path.of(jars[i]).toUri().toURL(), Path.of("/tmp/fjx/h/" + i + "/").toUri().toURL()}, ClassLoader.getPlatformClassLoader());
            fw[i] = l.loadClass("FW");
        }
        String[] labels = {Path.of(jars[0]).getFileName().toString(), Path.of(jars[1]).getFileName().toString(), "fjp"};
        Map<String, Object[]> runs = new LinkedHashMap<>();
        for (String n : names) {
            Object[] r = new Object[3];
            r[0] = fw[0].getConstructor(String.class, int.class, String.class).newInstance("SPINDLE", workers, n);
            r[1] = fw[1].getConstructor(String.class, int.class, String.class).newInstance("SPINDLE", workers, n);
            r[2] = fw[0].getConstructor(String.class, int.class, String.class).newInstance("FJP", workers, n);
            runs.put(n, r);
        }
        Method round0 = fw[0].getMethod("round"), round1 = fw[1].getMethod("round");
        for (int w = 0; w < 5; w++) for (Object[] r : runs.values()) for (int i = 0; i < 3; i++) for (int k = 0; k < 3; k++) (i == 1 ? round1 : round0).invoke(r[i]);
        for (var e : runs.entrySet()) {
            Object[] r = e.getValue(); long[][] t = new long[3][rounds];
            for (int q = 0; q < rounds; q++) for (int k = 0; k < 3; k++) { int i = (q + k) % 3; t[i][q] = (long) (i == 1 ? round1 : round0).invoke(r[i]); }
            StringBuilder sb = new StringBuilder(e.getKey() + " w=" + workers + ": ");
            for (int i = 0; i < 3; i++) { Arrays.sort(t[i]); sb.append(String.format("%s p50 %.3f ms | ", labels[i], t[i][rounds / 2] / 1e6)); }
            sb.append(String.format("ratio fjp/A %.2f fjp/B %.2f", (double) t[2][rounds/2] / t[0][rounds/2], (double) t[2][rounds/2] / t[1][rounds/2]));
            System.out.println(sb);
        }
        System.exit(0);
    }
}
