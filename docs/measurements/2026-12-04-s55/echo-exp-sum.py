import re,sys,collections,statistics
txt=open(sys.argv[1]).read().split('== ')[1:]
rows=collections.defaultdict(list)
for b in txt:
    head=b.split('\n')[0]; m=re.match(r'rep (\d+) (reactors=\d+ \S+)',head); key=m.group(2)
    cpu=re.search(r'\{.*\}',b)
    if not cpu: continue
    import json; c=json.loads(cpu.group(0))
    req=dict(re.findall(r'^(\S+) requests (\d+)',b,re.M)); rps=dict(re.findall(r'^(\S+) requests \d+ rps median ([\d.]+)',b,re.M))
    s=c['echo-spindle-wo']*1000/int(req['spindle-io-workers']); n=c['multiThreadIoEv']*1000/int(req['netty'])
    rows[key].append((float(rps['spindle-io-workers'])/float(rps['netty']), s, n, s/n))
for k,v in rows.items():
    print(f"{k:40s} n={len(v)} x netty rps {[round(x[0],3) for x in v]} med {statistics.median(x[0] for x in v):.3f} | spindle us/req {[round(x[1],1) for x in v]} netty {[round(x[2],1) for x in v]} | cpu ratio med {statistics.median(x[3] for x in v):.3f}")
