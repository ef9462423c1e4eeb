import re,collections,sys
txt=open(sys.argv[1]).read()
evs=txt.split('jdk.ExecutionSample')
top=collections.defaultdict(collections.Counter); tot=collections.Counter()
incl=collections.defaultdict(collections.Counter)
for e in evs[1:]:
    m=re.search(r'sampledThread = "([^"]*)"',e)
    if not m: continue
    t=m.group(1)
    k='spindle' if 'spindle' in t.lower() else ('fjp' if 'fjp-2' in t else 'other')
    fr=re.findall(r'^\s+([\w.$<>]+\([^)]*\))\s+line: (\d+)',e,re.M)
    if not fr: continue
    tot[k]+=1
    top[k][fr[0][0]+':'+fr[0][1]]+=1
    for f in set(x[0] for x in fr): incl[k][f]+=1
for k in ('spindle','fjp'):
    print(k,tot[k])
    for f,c in top[k].most_common(int(sys.argv[2]) if len(sys.argv)>2 else 15): print('  %5.1f%% %s'%(100*c/tot[k],f))
    print(' inclusive:')
    for f,c in incl[k].most_common(20): print('  %5.1f%% %s'%(100*c/tot[k],f))
