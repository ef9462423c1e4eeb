#!/usr/bin/env python3
# usage: echo-cpu.py JAVA JAR SERVERS [extra jvm opts...] : CPU ms per 1000 requests by server thread group over measured rounds
import subprocess,sys,time,os,re,json,collections
java,jar,servers=sys.argv[1:4]; extra=[a for a in sys.argv[4:] if a]
cmd=[java,*extra,'-Xms2g','-Xmx2g','-XX:+AlwaysPreTouch','-jar',jar,'bench','echo','--servers',servers,'--workers','2','--rounds',os.environ.get('ROUNDS','6'),'--warmup','2','--seconds','3','--progress=lines','--json']
p=subprocess.Popen(cmd,stdout=subprocess.PIPE,stderr=subprocess.PIPE,text=True)
tick=os.sysconf('SC_CLK_TCK')
start={}; last={}; started=False
import threading
errlines=[]
def rd():
    for l in p.stderr: errlines.append(l)
threading.Thread(target=rd,daemon=True).start()
def snap():
    out={}
    try:
        for t in os.listdir(f'/proc/{p.pid}/task'):
            try:
                s=open(f'/proc/{p.pid}/task/{t}/stat').read()
                name=s[s.index('(')+1:s.rindex(')')]
                f=s[s.rindex(')')+2:].split()
                out[t]=(name,int(f[11])+int(f[12]))
            except Exception: pass
    except Exception: pass
    return out
while p.poll() is None:
    if not started and any('round 1/' in l for l in errlines):
        started=True; start=snap(); t0=time.time()
    if started:
        for t,v in snap().items(): last[t]=v
        t1=time.time()
    time.sleep(0.2)
out=p.stdout.read()
js=json.loads(out[out.index('{'):])
cpu=collections.Counter()
for t,(name,v) in last.items():
    base=start.get(t,(name,0))[1]
    g=re.sub(r'\d+','N',name)
    cpu[g]+=(v-base)*1000/tick
rows=js.get('servers') or js.get('rows') or js
print(json.dumps({k:round(v) for k,v in cpu.most_common(8)}), 'total_cpu_ms', round(sum(cpu.values())), 'wall_ms', round((t1-t0)*1000))
for r in (rows if isinstance(rows,list) else []):
    print(r.get('id'), 'requests', r.get('requests'), 'rps median', r.get('requestsPerSecond',{}).get('median') if isinstance(r.get('requestsPerSecond'),dict) else r.get('requestsPerSecond'))
