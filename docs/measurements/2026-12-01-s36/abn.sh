#!/bin/bash
# abn.sh WORKLOAD K JAR[@HARNESS_DIR]... : K JVMs, each running every build in its own class loader
# (ABN), the order rotated per JVM; prints each JVM's p50 per build and, at the end, every build's
# p50 over the first build's (higher = slower). A plain JAR is driven by the WR class under $H
# (default /tmp/abx/h: the async suite; the actor suite's ActorWR in another directory); JAR@DIR
# by the WR class in DIR (e.g. CfWR-*.java: the CompletableFuture side). ROUNDS: measured rounds
# per build (default 4000). W: workers (default 2; added in session 38). Jars are looked up in
# /tmp/s36.
wl=$1; k=$2; shift 2; jars=("$@"); n=${#jars[@]}
cd /tmp/abx
for ((j=0;j<k;j++)); do
  order=(); for ((i=0;i<n;i++)); do order+=("/tmp/s36/${jars[$(( (i + j) % n ))]}"); done
  nice -n -5 java -Xms3g -Xmx3g -XX:+AlwaysPreTouch -Dh=${H:-/tmp/abx/h} -cp . ABN ${W:-2} $wl ${ROUNDS:-4000} "${order[@]}" 2>&1 | tail -1
done | tee -a /tmp/s36/abn-$wl.log | python3 -c "
import sys,re,statistics
lab=lambda j: (j.split('@')[0].replace('.jar','')+'-'+j.split('@')[1].split('/')[-1]+'.jar') if '@' in j else j
base=lab('${jars[0]}'); rs={}
for l in sys.stdin:
    d={k:float(v) for k,v in re.findall(r'(\S+\.jar) p10 [\d.]+ p50 ([\d.]+)',l)}
    print(' '.join('%s %.1f'%(k,v) for k,v in d.items()))
    for k,v in d.items(): rs.setdefault(k,[]).append(v/d[base])
for k,v in rs.items(): print('$wl', k, '/', base, ' '.join('%.3f'%x for x in v), 'median %.3f'%statistics.median(v))
" | tee -a /tmp/s36/abn-$wl.sum
