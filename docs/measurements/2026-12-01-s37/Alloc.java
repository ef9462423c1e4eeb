import java.lang.management.ManagementFactory;
final class Alloc {
    static long all() {
        com.sun.management.ThreadMXBean b = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long s = 0; for (long id : b.getAllThreadIds()) { long v = b.getThreadAllocatedBytes(id); if (v > 0) s += v; } return s;
    }
}
