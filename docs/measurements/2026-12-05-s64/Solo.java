import dev.spindle.bench.workload.*;
import dev.spindle.pool.WorkStealingPool;
import java.util.*;
import java.util.concurrent.ForkJoinPool;
public class Solo {
  public static void main(String[] a) throws Exception {
    String which=a[0]; int workers=Integer.parseInt(a[1]); int rounds=Integer.parseInt(a[2]);
    Uts u = new Uts(Uts.FULL, Uts.FULL_SEQ_LEVELS);
    java.lang.reflect.Method ms = ForkJoinWorkload.class.getDeclaredMethod("runSpindle", WorkStealingPool.class);
    java.lang.reflect.Method mf = ForkJoinWorkload.class.getDeclaredMethod("runForkJoin", ForkJoinPool.class);
    ms.setAccessible(true); mf.setAccessible(true);
    WorkStealingPool sp = WorkStealingPool.builder().workers(workers).build();
    ForkJoinPool fj = new ForkJoinPool(workers);
    double[] t=new double[rounds];
    for(int r=-10;r<rounds;r++){
      long s=System.nanoTime(); long n;
      if(which.equals("s")) n=(long)ms.invoke(u,sp); else n=(long)mf.invoke(u,fj);
      long e=System.nanoTime()-s; if(n!=Uts.FULL_NODES) throw new AssertionError();
      if(r>=0)t[r]=e/1e6;
    }
    Arrays.sort(t); System.out.printf("%s median %.2f ms%n", which, t[rounds/2]);
    sp.close(); fj.shutdown();
  }
}
