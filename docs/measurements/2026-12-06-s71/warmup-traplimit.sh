#!/bin/bash
# warm-up: does C2's pruning of never-taken branches (unstable_if traps) make Spindle's first second slow?
cd /tmp/wu
J=java
for r in 1 2; do
 for v in def notrap fjp; do
  for wl in pp sk; do
   case $v in
    def) $J -Xms1g -Xmx1g -XX:+AlwaysPreTouch -cp spindle.jar:. PPWarm s $wl;;
    notrap) $J -Xms1g -Xmx1g -XX:+AlwaysPreTouch -XX:PerMethodTrapLimit=0 -cp spindle.jar:. PPWarm s $wl | sed 's/^s/s-notrap/';;
    fjp) $J -Xms1g -Xmx1g -XX:+AlwaysPreTouch -cp spindle.jar:. PPWarm f $wl;;
   esac
  done
 done
done
