import json,sys,collections,subprocess
f=sys.argv[1]
d=json.loads(subprocess.run(['jfr','print','--json','--events','jdk.ExecutionSample',f],capture_output=True,text=True).stdout)
evs=d['recording']['events']
ts=sorted(e['values']['startTime'] for e in evs)
cut=ts[int(len(ts)*0.4)]
c=collections.Counter(); meth=collections.Counter()
for e in evs:
    v=e['values']; th=v['sampledThread']['javaName'] if v['sampledThread'] else ''
    if 'spindle' not in th.lower() or 'async' in th or v['startTime']<cut: continue
    fr=v['stackTrace']['frames']
    if not fr: continue
    c[fr[0]['type']]+=1
    if fr[0]['type']=='Interpreted': meth[fr[0]['method']['name']]+=1
print("spindle workers interp %d/%d %s" % (c['Interpreted'], sum(c.values()), dict(meth.most_common(3))))
