#!/bin/bash
# pair.sh A B [workload] [n]: n in-JVM A/Bs of jars /tmp/s35/A.jar and /tmp/s35/B.jar, orders alternated; prints B/A p50 ratios
a=$1; b=$2; wl=${3:-ping_pong}; n=${4:-6}
cd /tmp/abx
for ((i=0;i<n;i++)); do
  if (( i % 2 == 0 )); then x=$a; y=$b; else x=$b; y=$a; fi
  nice -n -5 java -Xms2g -Xmx2g -XX:+AlwaysPreTouch -cp . ABX 2 $wl 4000 /tmp/s35/$x.jar /tmp/s35/$y.jar 2>&1 | tail -1
done | tee -a /tmp/s35/pairs.log | python3 -c "
import sys,re,statistics
rs=[]
for l in sys.stdin:
    d={k:float(v) for k,v in re.findall(r'(\S+\.jar) p10 [\d.]+ p50 ([\d.]+)',l)}
    rs.append(d['$b.jar']/d['$a.jar'])
print('$wl $b/$a', ' '.join('%.3f'%r for r in rs), 'median %.3f'%statistics.median(rs))
" | tee -a /tmp/s35/pairs.log
