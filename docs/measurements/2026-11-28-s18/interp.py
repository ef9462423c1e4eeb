import json,sys,collections,subprocess
f=sys.argv[1]
d=json.loads(subprocess.run(['jfr','print','--json','--events','jdk.ExecutionSample',f],capture_output=True,text=True).stdout)
evs=d['recording']['events']
ts=sorted(e['values']['startTime'] for e in evs)
cut=ts[int(len(ts)*0.4)]
out=[]
for name in ['bench-async-ws','bench-async-hybrid']:
    c=collections.Counter(); meth=collections.Counter()
    for e in evs:
        v=e['values']; th=v['sampledThread']['javaName'] if v['sampledThread'] else ''
        if not th.startswith(name) or v['startTime']<cut: continue
        fr=v['stackTrace']['frames']
        if not fr: continue
        c[fr[0]['type']]+=1
        if fr[0]['type']=='Interpreted': meth[fr[0]['method']['name']]+=1
    tot=sum(c.values())
    out.append("%s interp %d/%d %s" % (name.split('-')[-1], c['Interpreted'], tot, dict(meth.most_common(2))))
print(' | '.join(out))
