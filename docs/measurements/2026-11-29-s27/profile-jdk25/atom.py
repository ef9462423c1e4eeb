import sys
sys.argv = sys.argv[:3] + ["0"]
exec(open('/tmp/h/ann.py').read().split("print(f'total")[0])
tot = sum(per_ins.values())
kinds = {}
for (bi, i), n in per_ins.items():
    lst = blocks[bi][1]
    prev = lst[i-1][1] if i > 0 else ''
    if prev.startswith('lock') or prev.startswith('xchg'):
        k = prev.split()[0] + ' ' + prev.split()[1]
        if 'add' in prev and 'rsp' in prev: k = 'lock add [rsp] (fence)'
        kinds[k] = kinds.get(k, 0) + n
print(f"total mapped {tot}")
for k, n in sorted(kinds.items(), key=lambda x: -x[1]):
    print(f"{100*n/tot:5.1f}% after {k}")
print(f"{100*sum(kinds.values())/tot:5.1f}% all atomics/fences")
