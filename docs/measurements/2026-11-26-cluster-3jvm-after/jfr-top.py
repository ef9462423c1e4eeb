import sys, re, collections
# parse `jfr print --events X --stack-depth N` output; count top frame, top-3 frames, and thread names
txt = open(sys.argv[1]).read()
events = txt.split("\njdk.")
top = collections.Counter(); threads = collections.Counter(); sig = collections.Counter()
n = 0
for e in events:
    m = re.search(r'stackTrace = \[\n(.*?)\n\s*\]', e, re.S)
    t = re.search(r'(?:sampledThread|eventThread) = "([^"]*)"', e)
    if not m: continue
    n += 1
    frames = [l.strip() for l in m.group(1).split("\n") if l.strip() and l.strip() != "..."]
    frames = [re.sub(r'\s+line:.*', '', f) for f in frames]
    top[frames[0]] += 1
    th = re.sub(r'\d+', 'N', t.group(1)) if t else '?'
    threads[th] += 1
    # first frame from dev.spindle
    sp = next((f for f in frames if f.startswith('dev.spindle')), None)
    sig[(th, sp)] += 1
print("events", n)
print("-- threads"); [print(f"{c:6d} {k}") for k, c in threads.most_common(15)]
print("-- top frames"); [print(f"{c:6d} {k}") for k, c in top.most_common(25)]
print("-- thread, first spindle frame"); [print(f"{c:6d} {k}") for k, c in sig.most_common(25)]
