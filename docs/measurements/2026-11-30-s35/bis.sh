#!/bin/bash
# usage: bis.sh COMMIT [workload] -> builds the commit's jar (cached) and runs 3 in-JVM A/Bs against s27.jar
c=$(cd /work/main && git rev-parse -q --verify --short=8 $1 2>/dev/null || echo $1); wl=${2:-ping_pong}
jar=/tmp/s35/c-$c.jar
if [[ ! -f $jar ]]; then
  (cd /tmp/s27wt && git checkout -q -f $c && nice mvn -B -ntp -q -o package -DskipTests -Dmaven.javadoc.skip -Dmaven.source.skip -Djcstress.skip -Dspin.skip -Djacoco.skip -pl spindle-cli -am -Dmaven.repo.local=/tmp/s29b-m2 > /tmp/s35/build-$c.log 2>&1) || { echo "build failed $c"; exit 1; }
  cp /tmp/s27wt/spindle-cli/target/spindle.jar $jar
fi
cd /tmp/abx
for pair in "s27.jar c-$c.jar" "c-$c.jar s27.jar" "s27.jar c-$c.jar"; do
  set -- $pair
  nice -n -5 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -cp . ABX 2 $wl 4000 /tmp/s35/$1 /tmp/s35/$2 2>&1 | tail -1
done | tee -a /tmp/s35/bisect.log | python3 -c "
import sys,re,statistics
rs=[]
for l in sys.stdin:
    m=re.findall(r'(\S+\.jar) p10 [\d.]+ p50 ([\d.]+)',l)
    d={k:float(v) for k,v in m}
    rs.append(d['c-$c.jar']/d['s27.jar'])
print('$c $wl commit/s27 p50 ratios', ' '.join('%.3f'%r for r in rs), 'median %.3f'%statistics.median(rs))
" | tee -a /tmp/s35/bisect.log
