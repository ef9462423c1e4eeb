import sys, re, subprocess, collections
asm, data = sys.argv[1], sys.argv[2]
top = int(sys.argv[3]) if len(sys.argv) > 3 else 40
# parse asm
blocks = []  # (name, [(addr, text, comments)])
cur = None
hdr = re.compile(r'^Compiled method \((c1|c2)\)\s+\d+\s+\d+\s+\S*\s+\d\s+(\S+)')
ins = re.compile(r'^\s+0x([0-9a-f]+):\s+(.*)$')
com = re.compile(r'^\s{20,}(;.*)$')
for line in open(asm, errors='replace'):
    m = hdr.match(line)
    if m:
        cur = (m.group(1) + ' ' + m.group(2), [])
        blocks.append(cur); continue
    if cur is None: continue
    m = ins.match(line)
    if m:
        cur[1].append([int(m.group(1), 16), m.group(2).strip(), []]); continue
    m = com.match(line)
    if m and cur[1]:
        cur[1][-1][2].append(m.group(1))
addr = {}
for bi, (name, lst) in enumerate(blocks):
    for i, (a, t, c) in enumerate(lst):
        addr[a] = (bi, i)
ips = collections.Counter()
out = subprocess.run(['perf', 'script', '-i', data, '-F', 'ip'], capture_output=True, text=True).stdout
total = 0
for l in out.split():
    try: ips[int(l, 16)] += 1; total += 1
    except ValueError: pass
sorted_addrs = sorted(addr)
import bisect
per_ins = collections.Counter(); per_block = collections.Counter(); unk = 0
for ip, n in ips.items():
    k = bisect.bisect_right(sorted_addrs, ip) - 1
    if k >= 0 and ip - sorted_addrs[k] < 16:
        bi, i = addr[sorted_addrs[k]]
        per_ins[(bi, i)] += n; per_block[bi] += n
    else: unk += n
print(f'total {total} samples, unmapped {unk} ({100*unk/total:.1f}%)')
for bi, n in per_block.most_common(8):
    print(f'{100*n/total:5.1f}% {blocks[bi][0]} (block {bi})')
print()
for (bi, i), n in per_ins.most_common(top):
    a, t, c = blocks[bi][1][i]
    # attribution: nearest preceding instruction with comments
    j = i; cc = c
    while not cc and j > 0:
        j -= 1; cc = blocks[bi][1][j][2]
    src = ' | '.join(x.strip('; ').strip() for x in cc if x.strip().startswith('; -'))[:160]
    print(f'{100*n/total:5.2f}% b{bi} {t[:48]:48s} {src}')
if len(sys.argv) > 4:
    bi = int(sys.argv[4])
    for i, (a, t, c) in enumerate(blocks[bi][1]):
        n = per_ins.get((bi, i), 0)
        src = ' | '.join(x.strip('; ').strip() for x in c if x.strip().startswith('; -'))[:150]
        print(f'{100*n/total:5.2f}% {a:x} {t[:60]:60s} {src}')
