import dev.spindle.pool.*; import dev.spindle.Task;
import java.util.concurrent.*;
import java.lang.management.*;

public class PerTaskWall {
    static final class SF extends ComputeTask<Long> {
        final int n; SF(int n){this.n=n;}
        protected Long compute(){ if(n<2) return (long)n; SF a=new SF(n-1), b=new SF(n-2); a.fork(); b.fork(); long rb=b.join(); return a.join()+rb; }
    }
    static final class FF extends RecursiveTask<Long> {
        final int n; FF(int n){this.n=n;}
        protected Long compute(){ if(n<2) return (long)n; FF a=new FF(n-1), b=new FF(n-2); a.fork(); b.fork(); long rb=b.join(); return a.join()+rb; }
    }
    static WorkStealingPool P;
    static long sfib(int n){ if(n<2) return n; Task<Long> a=P.spawn(() -> sfib(n-1)); Task<Long> b=P.spawn(() -> sfib(n-2)); long rb=b.join(); return a.join()+rb; }
    public static void main(String[] a) throws Exception {
        int workers=Integer.parseInt(a[0]); int n=Integer.parseInt(a[1]); int reps=Integer.parseInt(a[2]);
        com.sun.management.OperatingSystemMXBean os=(com.sun.management.OperatingSystemMXBean)ManagementFactory.getOperatingSystemMXBean();
        long tasks = 2*(fibi(n+1)-1);
        WorkStealingPool sp = WorkStealingPool.builder().workers(workers).build(); P=sp;
        ForkJoinPool fp = new ForkJoinPool(workers);
        String[] names={"spindle-compute","spindle-spawn","fjp"};
        double[][] res=new double[3][reps]; long[] ut=new long[3], stt=new long[3], wall=new long[3];
        for(int r=-3;r<reps;r++){
            for(int k=0;k<3;k++){
                long[] u0=ticks(); long c0=os.getProcessCpuTime(), t0=System.nanoTime();
                long v = k==0? sp.invoke(new SF(n)) : k==1? sp.invoke(() -> sfib(n)) : fp.invoke(new FF(n));
                long c1=os.getProcessCpuTime(), t1=System.nanoTime();
                if(v!=fibi(n)) throw new AssertionError();
                long[] u1=ticks(); if(r>=0){ res[k][r]=(t1-t0)/(double)tasks; ut[k]+=u1[0]-u0[0]; stt[k]+=u1[1]-u0[1]; wall[k]+=t1-t0;}
            }
        }
        for(int k=0;k<3;k++){ java.util.Arrays.sort(res[k]); System.out.printf("%-16s wall ns/task median %.1f (min %.1f)%n", names[k], res[k][reps/2], res[k][0]); System.out.printf("   total user %d ticks, sys %d ticks, wall ns/task %.1f%n", ut[k], stt[k], wall[k]/(double)tasks/reps); }
        System.out.println(sp.stats()); System.out.println(fp);
        sp.close(); fp.shutdown();
    }
    static long[] ticks() { try { String st=new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/self/stat"))); String[] f=st.substring(st.lastIndexOf(')')+2).split(" "); return new long[]{Long.parseLong(f[11]), Long.parseLong(f[12])}; } catch(Exception e){ throw new RuntimeException(e);} }
    static long fibi(int n){long x=0,y=1;for(int i=0;i<n;i++){long t=x+y;x=y;y=t;}return x;}
}
