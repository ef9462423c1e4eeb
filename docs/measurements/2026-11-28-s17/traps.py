import re, sys
lines=open(sys.argv[1],errors='replace').read().split('\n')
after=float(sys.argv[2]) if len(sys.argv)>2 else 1.0
for idx,l in enumerate(lines):
    if l.startswith("<uncommon_trap thread="):
        st=float(re.search(r"stamp='([\d.]+)'",l).group(1)); rs=re.search(r"reason='(\w+)'",l).group(1)
        if st < after: continue
        j=idx+1; fr=[]
        while j<len(lines) and lines[j].startswith('<jvms'):
            m=re.search(r"bci='(\d+)' method='([^']*)'",lines[j]); fr.append(m.group(2).split(' ')[0].split('.')[-1]+'.'+m.group(2).split(' ')[1]+'@'+m.group(1)); j+=1
        print(f'{st:.2f}', rs, ' <- '.join(fr[:3]))
