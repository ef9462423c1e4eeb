#!/bin/bash
# abn.sh WORKLOAD K JAR... : K JVMs, each running every jar's build in its own class loader (ABN),
# the jar order rotated per JVM; prints each JVM's p50 per jar and, at the end, per-jar median of p50/first-jar p50.
wl=$1; k=$2; shift 2; jars=("$@"); n=${#jars[@]}
cd /tmp/abx
for ((j=0;j<k;j++)); do
  order=(); for ((i=0;i<n;i++)); do j1=${jars[$(( (i + j) % n ))]}; order+=("/tmp/s36/$j1"); done
  nice -n -5 java -Xms3g -Xmx3g -XX:+AlwaysPreTouch -cp . ABN 2 $wl 4000 "${order[@]}" 2>&1 | tail -1
done | tee -a /tmp/s36/abn-$wl.log | python3 -c "
import sys,re,statistics
import re as _r
lab=lambda j: (j.split('@')[0].replace('.jar','')+'-'+j.split('@')[1].split('/')[-1]+'.jar') if '@' in j else j
base=lab('${jars[0]}'); rs={}
for l in sys.stdin:
    d={k:float(v) for k,v in re.findall(r'(\S+\.jar) p10 [\d.]+ p50 ([\d.]+)',l)}
    print(' '.join('%s %.1f'%(k,v) for k,v in d.items()))
    for k,v in d.items(): rs.setdefault(k,[]).append(v/d[base])
for k,v in rs.items(): print('$wl', k, '/', base, ' '.join('%.3f'%x for x in v), 'median %.3f'%statistics.median(v))
" | tee -a /tmp/s36/abn-$wl.sum
