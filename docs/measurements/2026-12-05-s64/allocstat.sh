#!/bin/bash
# usage: allocstat.sh JAR  -> bytes allocated by echo-spindle threads per request (io-workers server alone)
jar=$1; tag=$2
java -Xlog:jfr+startup=warning -XX:StartFlightRecording=filename=/tmp/exp2/as-$tag.jfr,settings=/tmp/exp2/as.jfc -jar $jar bench echo --workers 2 --servers=spindle-io-workers --rounds 2 --warmup 1 --seconds 2 --json --progress=none 2>/dev/null > /tmp/exp2/as-$tag.json
jfr print --events jdk.ThreadAllocationStatistics /tmp/exp2/as-$tag.jfr > /tmp/exp2/as-$tag.txt
python3 - "$tag" <<'PY'
import re,sys,json
tag=sys.argv[1]
t=open(f'/tmp/exp2/as-{tag}.json').read(); d=json.loads(t[t.index(chr(10)+'{')+1:] if not t.startswith('{') else t); req=d['servers'][0]['requests']*1.5
last={}
cur={}
for line in open(f'/tmp/exp2/as-{tag}.txt'):
    m=re.match(r'\s+allocated = ([\d.,]+) (\w+)',line)
    if m: cur['a']=float(m.group(1).replace(',',''))*{'bytes':1,'kB':1e3,'MB':1e6,'GB':1e9}[m.group(2)]
    m=re.match(r'\s+thread = "([^"]*)"',line)
    if m: cur['t']=m.group(1)
    if line.startswith('}'):
        if 't' in cur: last[cur['t']]=max(last.get(cur['t'],0),cur.get('a',0))
        cur={}
srv=sum(v for k,v in last.items() if 'echo-spindle' in k)
print(f"{tag}: requests {req}, server threads allocated {srv/1e6:.1f} MB, {srv/req:.0f} B/request")
PY
