# ann.py ASM PERF_SCRIPT_IPS [TOP]: perf cpu-clock samples matched to -XX:+PrintAssembly listings.
# Session 17's ann.py (../2026-11-28-s17/) reworked rather than reused: it reads perf script output
# filtered by thread (comm,ip), maps a sample to the newest compiled copy whose code range holds it,
# and adds a summary by innermost source line and the instruction before each hot one.
import sys, re, bisect, collections
asm, ips = sys.argv[1], sys.argv[2]
top = int(sys.argv[3]) if len(sys.argv) > 3 else 40
blocks = []  # (start, end, name, [(addr, text, scope)])
cur = None; scope = ''; pending_scope = []
hdr = re.compile(r'^Compiled method \((c[12])\)\s+\d+\s+\d+\s+[%sbn! ]*\d\s+(\S+)')
mc = re.compile(r'^\s*main code\s+\[0x([0-9a-f]+),0x([0-9a-f]+)\]')
ins = re.compile(r'^\s+0x([0-9a-f]+):\s+([a-z].*)$')
cmt = re.compile(r'^\s+(?:0x[0-9a-f]+:)?\s*; - (\S+)@(\d+) \(line (\d+)\)')
for line in open(asm, errors='replace'):
    m = hdr.match(line)
    if m:
        cur = [0, 0, m.group(1) + ' ' + m.group(2), []]; blocks.append(cur); scope = ''; pending_scope = []; continue
    if cur is None: continue
    m = mc.match(line)
    if m: cur[0] = int(m.group(1), 16); cur[1] = int(m.group(2), 16); continue
    m = cmt.match(line)
    if m:
        pending_scope.append(f'{m.group(1).split(".")[-1]}:{m.group(3)}'); continue
    m = ins.match(line)
    if m:
        if pending_scope: scope = ' < '.join(pending_scope[:3]); pending_scope = []
        cur[3].append((int(m.group(1), 16), m.group(2).split(';')[0].strip(), scope))
blocks = [b for b in blocks if b[3] and b[1] > b[0]]
starts = sorted(range(len(blocks)), key=lambda i: blocks[i][0])
cnt = collections.Counter(); per_block = collections.Counter(); per_scope = collections.Counter(); n = 0; unm = 0
for line in open(ips):
    p = line.split()
    if not p: continue
    try: ip = int(p[-1], 16)
    except ValueError: continue
    n += 1
    best = None
    for i in range(len(blocks) - 1, -1, -1):
        b = blocks[i]
        if b[0] <= ip < b[1]: best = i; break
    if best is None: unm += 1; continue
    b = blocks[best]; addrs = [x[0] for x in b[3]]
    k = bisect.bisect_right(addrs, ip) - 1
    if k < 0: unm += 1; continue
    a, t, s = b[3][k]
    cnt[(best, k)] += 1; per_block[b[2]] += 1; per_scope[s.split(' < ')[0] if s else '?'] += 1
print(f'samples {n}, unmapped {unm}')
for name, c in per_block.most_common(8): print(f'{100*c/n:5.1f}% {name}')
print('--- by innermost source line')
for s, c in per_scope.most_common(top): print(f'{100*c/n:5.1f}% {s}')
print('--- hot instructions')
for (bi, k), c in cnt.most_common(top):
    a, t, s = blocks[bi][3][k]
    prev = blocks[bi][3][k-1][1] if k > 0 else ''
    print(f'{100*c/n:5.2f}% {t[:40]:40s} (after: {prev[:28]:28s}) {s[:110]}')
