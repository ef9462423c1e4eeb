public class FirstEventInit { 
  static final class E1 extends jdk.jfr.Event { static boolean on() { return false; } }
  static final class E2 extends jdk.jfr.Event { }
  public static void main(String[] a) throws Exception { long t0=System.nanoTime(); E1.on(); System.out.printf("init E1 (no instance) %.1f ms%n", (System.nanoTime()-t0)/1e6); t0=System.nanoTime(); E2 e = new E2(); System.out.printf("new E2 %.1f ms%n", (System.nanoTime()-t0)/1e6); t0=System.nanoTime(); boolean b = e.isEnabled(); System.out.printf("isEnabled %.1f ms %s%n", (System.nanoTime()-t0)/1e6, b); } }
