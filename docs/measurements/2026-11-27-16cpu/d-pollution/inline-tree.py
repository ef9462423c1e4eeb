import re,sys
# parse LogCompilation: for each C2 task (level 4) of interesting roots, print the inline tree with reasons
data=open(sys.argv[1],errors='replace').read()
roots=sys.argv[2].split(',')
tasks=re.findall(r"<task (.*?)</task>",data,re.S)
last={}
for t in tasks:
    head=t.split('>',1)[0]
    m=re.search(r"method='([^']*)'",head)
    if not m: continue
    meth=m.group(1)
    lvl=re.search(r"level='(\d)'",head)
    if lvl and lvl.group(1)!='4': continue
    if 'compile_kind' in head and "osr" in head: continue
    for r in roots:
        if r in meth.replace(' ','::'):
            last[r]=(meth,t)
for r,(meth,t) in last.items():
    print('=== ROOT',meth)
    methods={}
    for mm in re.finditer(r"<method id='(\d+)' holder='(\d+)' name='([^']*)'[^>]*bytes='(\d+)'",t):
        methods[mm.group(1)]=(mm.group(2),mm.group(3),mm.group(4))
    klass={}
    for kk in re.finditer(r"<klass id='(\d+)' name='([^']*)'",t):
        klass[kk.group(1)]=kk.group(2).split('/')[-1]
    depth=0
    for ev in re.finditer(r"<(parse|/parse|call|inline_fail|inline_success|direct_call|virtual_call)\b([^>]*)>",t):
        tag,attrs=ev.group(1),ev.group(2)
        if tag=='parse':
            depth+=1
        elif tag=='/parse':
            depth-=1
        elif tag=='call':
            mid=re.search(r"method='(\d+)'",attrs).group(1)
            h,n,b=methods.get(mid,('?','?','?'))
            cur=klass.get(h,'?')+'.'+n+'('+b+')'
            cnt=re.search(r"count='(-?\d+)'",attrs)
        elif tag=='inline_fail':
            reason=re.search(r"reason='([^']*)'",attrs).group(1)
            if not any(x in cur for x in ['VarHandle','Unsafe','Class.','Objects.','Preconditions']):
                print('  '*depth+'FAIL '+cur+' : '+reason)
        elif tag=='inline_success':
            if not any(x in cur for x in ['VarHandle','Unsafe','Class.','Objects.','Preconditions','VarForm','Guards']):
                print('  '*depth+'ok   '+cur)
