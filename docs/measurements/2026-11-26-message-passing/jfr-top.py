#!/usr/bin/env python3
# usage: jfr-top.py RECORDING.jfr [DEPTH]: share of execution samples per top frame (self) and per frame anywhere on the stack (inclusive)
import sys, re, collections, subprocess
f = sys.argv[1]; depth = int(sys.argv[2]) if len(sys.argv) > 2 else 1
out = subprocess.run(['jfr','print','--events','jdk.ExecutionSample','--stack-depth','30',f],capture_output=True,text=True).stdout
top = collections.Counter(); incl = collections.Counter(); n=0
for ev in out.split('jdk.ExecutionSample')[1:]:
    m = re.search(r'stackTrace = \[(.*?)\n\s*\]', ev, re.S)
    if not m: continue
    frames = [l.strip() for l in m.group(1).strip().split('\n') if l.strip() and l.strip()!='...']
    frames = [re.sub(r'\s+line:.*','',x) for x in frames]
    if not frames: continue
    n+=1
    top[' <- '.join(frames[:depth])]+=1
    for x in set(frames): incl[x]+=1
print('samples', n)
print('--- self (top %d frames)'%depth)
for k,v in top.most_common(25): print('%5.1f%% %s'%(100*v/n,k))
print('--- inclusive')
for k,v in incl.most_common(30): print('%5.1f%% %s'%(100*v/n,k))
