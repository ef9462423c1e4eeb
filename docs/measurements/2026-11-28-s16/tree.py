import re,sys
s=open(sys.argv[1]).read()
want=sys.argv[2]
nmnt=set(re.findall(r"<make_not_entrant thread='\d+' compile_id='(\d+)'",s))
for m in re.finditer(r"<task compile_id='(\d+)' (?:compile_kind='osr' )?method='([^']*)'([^>]*)>(.*?)</task>",s,re.S):
    cid,meth,attrs,body=m.groups()
    if "level=" in attrs or want not in meth or cid in nmnt: continue
    st=float(re.search(r"stamp='([^']*)'",attrs).group(1))
    if st>8: continue
    methods={}
    for mm in re.finditer(r"<method id='(\d+)' holder='(\d+)' name='([^']*)'[^>]*?bytes='(\d+)'",body): methods[mm.group(1)]=mm.group(3)
    print('==',cid,meth,st)
    depth=0; last=None
    for mm in re.finditer(r"<(call|inline_fail|parse|/parse)[^>]*>",body):
        t=mm.group(0)
        if t.startswith('<parse '):
            mid=re.search(r"method='(\d+)'",t).group(1); n=methods.get(mid)
            if n not in ('checkExactAccessMode','isDirect','getMemberName','requireNonNull','runtimeTypeCheck') and not n.startswith('guard_'): print('  '*depth+n)
            depth+=1
        elif t.startswith('</parse'): depth-=1
        elif t.startswith('<call '):
            mid=re.search(r"method='(\d+)'",t).group(1); cnt=re.search(r"count='(-?\d+)'",t); last=(methods.get(mid),cnt.group(1) if cnt else '?')
        elif t.startswith('<inline_fail'):
            r=re.search(r"reason='([^']*)'",t).group(1)
            print('  '*depth+'CALL %s (count %s): %s'%(last[0],last[1],r))
