import dev.spindle.pool.WorkStealingPool;
public class B3 { public static void main(String[] a) throws Exception {
  Runnable r = () -> {}; r.run();  // the JVM's first lambda, as any application has made
  java.lang.invoke.VarHandle vh = java.lang.invoke.MethodHandles.lookup().findVarHandle(B3.class, "x", int.class); vh.compareAndSet(new B3(), 0, 1); vh.getAndAdd(new B3(), 1); vh.setRelease(new B3(), 1);
  for (int i = 0; i < 3; i++) { long t0 = System.nanoTime(); var p = WorkStealingPool.builder().workers(2).build(); long t1 = System.nanoTime(); p.shutdown(); System.out.printf("build %d: %.1f ms%n", i, (t1 - t0) / 1e6); }
  long t0 = System.nanoTime(); var f = new java.util.concurrent.ForkJoinPool(2); System.out.printf("fjp %.1f ms%n", (System.nanoTime() - t0) / 1e6); }
  volatile int x; }
