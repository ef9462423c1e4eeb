import sys,re
import xml.etree.ElementTree as ET
txt=open(sys.argv[1],errors='replace').read()
pat=sys.argv[2]
for m in re.finditer(r"<task [^>]*>.*?</task>", txt, re.S):
    t=m.group(0)
    head=re.match(r"<task ([^>]*)>",t).group(1)
    meth=re.search(r"method='([^']*)'",head).group(1)
    lvl=re.search(r"level='(\d)'",head)
    if pat not in meth or lvl: continue
    cid=re.search(r"compile_id='(\d+)'",head).group(1)
    print("=== task",cid,meth, re.search(r"stamp='([^']*)'",head).group(1), 'osr' if 'osr_bci' in head else '')
    methods={}
    depth=0
    pending=None
    for tag in re.finditer(r"<(/?)(\w+)([^>]*?)(/?)>",t):
        close,name,attrs,selfclose=tag.groups()
        if name=='method' and not close:
            mid=re.search(r"id='(\d+)'",attrs).group(1)
            n=re.search(r"name='([^']*)'",attrs).group(1)
            h=re.search(r"holder='(\d+)'",attrs).group(1)
            methods[mid]=(h,n)
        elif name=='klass' and not close:
            mid=re.search(r"id='(\d+)'",attrs).group(1)
            methods['k'+mid]=re.search(r"name='([^']*)'",attrs).group(1)
        elif name=='call' and not close:
            mid=re.search(r"method='(\d+)'",attrs).group(1)
            h,n=methods.get(mid,('?','?'))
            pending=(methods.get('k'+h,'?').split('/')[-1]+'.'+n, attrs)
        elif name in('inline_success','inline_fail','direct_call','intrinsic') and pending:
            r=re.search(r"reason='([^']*)'",attrs)
            if any(x in pending[0] for x in ('Uts','ForkTask','Worker','Task','spawn','join','lambda','Callable','Long')):
                print('  '*depth+pending[0], name, r.group(1) if r else '')
            pending=None
        elif name=='parse' and not close and not selfclose:
            depth+=1
        elif name=='parse' and close:
            depth-=1
