import json,glob,statistics as st,sys
suite=sys.argv[1]
rows={}
for b in ("base","flat"):
    for f in sorted(glob.glob(f'{suite}-{b}-*.json')):
        try: d=json.load(open(f))
        except Exception as e: continue
        for r in d['results']:
            if r.get('ratio') is None: continue
            rows.setdefault(r['workload'],{}).setdefault(b,[]).append(r['ratio'])
print(f"| workload | before (runs) | after (runs) | before median | after median |")
for w,v in rows.items():
    bb=v.get('base',[]); nn=v.get('flat',[])
    f=lambda xs: ' '.join(f'{x:.2f}' for x in xs)
    m=lambda xs: f'{st.median(xs):.2f}' if xs else '-'
    print(f"| {w} | {f(bb)} | {f(nn)} | {m(bb)} | {m(nn)} |")
