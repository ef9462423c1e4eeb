import java.nio.file.Path;
import java.util.*;
import jdk.jfr.consumer.*;

/**
 * Summarises the execution samples of a JFR recording: per thread group (the thread's name with
 * its trailing number dropped), the share of samples whose top frame is each method, and the
 * share whose stack holds each method anywhere (inclusive), the TOP most frequent of each.
 *
 *   java JfrTop FILE.jfr [TOP]
 */
public class JfrTop {
    public static void main(String[] a) throws Exception {
        int top = a.length > 1 ? Integer.parseInt(a[1]) : 20;
        Map<String, Map<String, Integer>> self = new TreeMap<>(), incl = new TreeMap<>();
        Map<String, Integer> total = new TreeMap<>(), nativeTotal = new TreeMap<>();
        Map<String, Map<String, Integer>> nat = new TreeMap<>();
        try (RecordingFile f = new RecordingFile(Path.of(a[0]))) {
            while (f.hasMoreEvents()) {
                RecordedEvent e = f.readEvent();
                String type = e.getEventType().getName();
                boolean exec = type.equals("jdk.ExecutionSample");
                if (!exec && !type.equals("jdk.NativeMethodSample")) continue;
                RecordedThread t = e.getThread("sampledThread");
                String g = t == null || t.getJavaName() == null ? "?" : t.getJavaName().replaceAll("[-#]?\\d+$", "").replaceAll("\\d+", "N");
                RecordedStackTrace st = e.getStackTrace();
                if (st == null || st.getFrames().isEmpty()) continue;
                List<RecordedFrame> fr = st.getFrames();
                String m0 = name(fr.get(0));
                if (exec) {
                    total.merge(g, 1, Integer::sum);
                    self.computeIfAbsent(g, k -> new HashMap<>()).merge(m0, 1, Integer::sum);
                    Set<String> seen = new HashSet<>();
                    for (RecordedFrame x : fr) if (seen.add(name(x))) incl.computeIfAbsent(g, k -> new HashMap<>()).merge(name(x), 1, Integer::sum);
                } else {
                    nativeTotal.merge(g, 1, Integer::sum);
                    nat.computeIfAbsent(g, k -> new HashMap<>()).merge(m0 + " <- " + (fr.size() > 1 ? name(fr.get(1)) : ""), 1, Integer::sum);
                }
            }
        }
        for (String g : total.keySet()) {
            int n = total.get(g);
            System.out.printf("%n== %s: %d execution samples, %d native samples%n", g, n, nativeTotal.getOrDefault(g, 0));
            print("self", self.get(g), n, top);
            print("inclusive", incl.get(g), n, top);
            if (nat.containsKey(g)) print("native (top frame <- caller)", nat.get(g), nativeTotal.get(g), 8);
        }
        for (String g : nativeTotal.keySet()) {
            if (!total.containsKey(g)) {
                System.out.printf("%n== %s: 0 execution samples, %d native samples%n", g, nativeTotal.get(g));
                print("native (top frame <- caller)", nat.get(g), nativeTotal.get(g), 8);
            }
        }
    }

    static String name(RecordedFrame f) {
        RecordedMethod m = f.getMethod();
        String c = m.getType().getName();
        return c.substring(c.lastIndexOf('.') + 1) + "." + m.getName();
    }

    static void print(String what, Map<String, Integer> m, int n, int top) {
        System.out.println("  " + what + ":");
        m.entrySet().stream().sorted((x, y) -> y.getValue() - x.getValue()).limit(top)
                .forEach(e -> System.out.printf("    %5.1f%%  %s%n", 100.0 * e.getValue() / n, e.getKey()));
    }
}
