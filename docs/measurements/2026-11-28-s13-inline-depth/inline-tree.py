import re,sys
data=open(sys.argv[1],errors='replace').read()
root=sys.argv[2]
last=None
for t in re.findall(r"<task (.*?)</task>",data,re.S):
    head=t.split('>',1)[0]
    m=re.search(r"method='([^']*)'",head)
    if not m or root not in m.group(1): continue
    if "level='" in head and "level='4'" not in head: continue
    if 'osr' in head: continue
    last=(head,t)
head,t=last
print(re.search(r"compile_id='(\d+)'",head).group(1), re.search(r"stamp='([^']*)'",head).group(1))
klass={k:v.split('/')[-1] for k,v in re.findall(r"<klass id='(\d+)' name='([^']*)'",t)}
methods={}
for mm in re.finditer(r"<method id='(\d+)' holder='(\d+)' name='([^']*)'[^>]*bytes='(\d+)'",t):
    methods[mm.group(1)]=klass.get(mm.group(2),'?')+'.'+mm.group(3)
depth=0; pending=None
for ev in re.finditer(r"<(parse|/parse|call|inline_fail|inline_success)\b([^>]*)>",t):
    tag,a=ev.groups()
    if tag=='parse': depth+=1
    elif tag=='/parse': depth-=1
    elif tag=='call': pending=methods.get(re.search(r"method='(\d+)'",a).group(1))
    elif tag=='inline_success':
        if 'java.lang.invoke' not in str(pending) and 'Objects' not in str(pending): print('  '*depth+f"{depth} ok {pending}")
    elif tag=='inline_fail':
        r=re.search(r"reason='([^']*)'",a).group(1)
        print('  '*depth+f"{depth} FAIL {pending}: {r}")
