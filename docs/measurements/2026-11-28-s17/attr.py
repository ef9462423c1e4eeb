import sys, re, collections
TOP = int(sys.argv[3]) if len(sys.argv) > 3 else 40
sys.argv = sys.argv[:3] + ["0"]
exec(open('/tmp/h/ann.py').read().split("if len(sys.argv) > 4")[0].replace("print(", "(lambda *a, **k: None)("))
agg = collections.Counter(); mapped = 0
for (bi, i), n in per_ins.items():
    lst = blocks[bi][1]; j = i; cc = lst[i][2]
    while not any(x.strip().startswith('; -') for x in cc) and j > 0:
        j -= 1; cc = lst[j][2]
    frames = [x.strip('; ').strip()[2:] for x in cc if x.strip().startswith('; -')]
    fr = [f for f in frames if not f.startswith(('java.lang.invoke', 'jdk.internal.misc'))]
    key = re.sub(r'@\d+ \(line (\d+)\)', r':\1', fr[0]) if fr else 'none'
    agg[key] += n; mapped += n
for k, n in agg.most_common(TOP):
    print(f'{100*n/mapped:5.1f}% {k}')
