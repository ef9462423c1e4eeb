import sys,glob,re,statistics as st
d=sys.argv[1]; builds=sys.argv[2].split(',')
rows={}
for b in builds:
    for f in sorted(glob.glob(f"{d}/{b}-*.txt")):
        for line in open(f):
            m=re.match(r'^(\S+)\s+([\d.]+) (ms|us|s)\s+\S*\s+([\d.]+) (ms|us|s)\s+\S*\s+(\S+)\s+([\d.]+)',line)
            if m and not line.startswith('latency'):
                rows.setdefault(m.group(1),{}).setdefault(b,[]).append((float(m.group(2)),float(m.group(7))))
for w,bs in rows.items():
    out=[]
    for b in builds:
        v=bs.get(b,[])
        if v: out.append(f"{b}: ratio {st.median([x[1] for x in v]):.2f} [{min(x[1] for x in v):.2f}-{max(x[1] for x in v):.2f}] t {st.median([x[0] for x in v]):.3f}")
    print(f"{w:18s} "+" | ".join(out))
