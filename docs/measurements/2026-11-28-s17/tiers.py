import sys, re, subprocess, collections, bisect
asm, data = sys.argv[1], sys.argv[2]
hdr = re.compile(r'^Compiled method \((c1|c2)\)\s+\d+\s+\d+\s+\S*\s+(\d)\s+(\S+)')
ins = re.compile(r'^\s+0x([0-9a-f]+):')
starts = []; cur = None
for line in open(asm, errors='replace'):
    m = hdr.match(line)
    if m: cur = m.group(1) + 'L' + m.group(2); continue
    m = ins.match(line)
    if m and cur: starts.append((int(m.group(1), 16), cur))
starts.sort(); keys = [a for a, _ in starts]
out = subprocess.run(['perf', 'script', '-i', data, '-F', 'comm,time,ip'], capture_output=True, text=True).stdout
win = collections.defaultdict(collections.Counter); t0 = None
for l in out.splitlines():
    p = l.split()
    if len(p) < 3 or 'Compiler' in l or 'C1' in p[0] or 'C2' in p[0]: continue
    if not (p[0].startswith(('bench-', 'ma-', 'ss', 'fo', 'ForkJoin')) or 'worker' in p[0] or 'spindle' in p[0]): continue
    t = float(p[-2].rstrip(':')); ip = int(p[-1], 16)
    if t0 is None: t0 = t
    k = bisect.bisect_right(keys, ip) - 1
    lvl = starts[k][1] if k >= 0 and ip - keys[k] < 16 else ('kernel' if ip >= 0xffff000000000000 else 'other')
    win[int(t - t0)][lvl] += 1
for s in sorted(win):
    c = win[s]; n = sum(c.values())
    print(s, n, ' '.join(f'{k}:{100*v/n:.0f}%' for k, v in sorted(c.items())))
