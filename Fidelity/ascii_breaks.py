import json, subprocess, html, sys
chars = [chr(c) for c in range(0x21, 0x7F)]
def run(texts):
    page = """<html><head><meta charset=utf-8></head><body><script>
const texts = %s; const out=[];
const d=document.createElement('div'); d.style.cssText='width:0px;font:16px "DejaVu Sans";white-space:normal;'; document.body.appendChild(d);
for (const t of texts) { d.textContent=t; const node=d.firstChild; let breaks=[]; let lastTop=null;
  for (let i=0;i<t.length;i++){ const r=document.createRange(); r.setStart(node,i); r.setEnd(node,i+1);
    const rects=r.getClientRects(); const top=rects.length?Math.round(rects[0].top):lastTop;
    if(lastTop!==null && top!==lastTop) breaks.push(i); lastTop=top;}
  out.push(breaks);}
document.body.innerHTML='<pre id=o>'+JSON.stringify(out)+'</pre>';
</script></body></html>""" % json.dumps(texts)
    open('/tmp/exp/p.html','w').write(page)
    r = subprocess.run(['chromium','--headless','--no-sandbox','--disable-gpu','--dump-dom','file:///tmp/exp/p.html'],capture_output=True,text=True)
    s = r.stdout; s = s[s.index('<pre id="o">')+12:s.index('</pre>')]
    return json.loads(html.unescape(s))
pairs = [a+b for a in chars for b in chars]
res = run(pairs)
table = {p: (1 in r) for p, r in zip(pairs, res)}
# context: prefix letter / digit / space / punctuation for each pair: break index 2
ctx = {}
for pre in ['a', '1', ' ', '.', '(', '-']:
    texts = [pre + p for p in pairs]
    r2 = run(texts)
    ctx[pre] = {p: (2 in r) for p, r in zip(pairs, r2)}
json.dump({'alone': table, 'ctx': ctx}, open('/tmp/exp/pairs.json','w'))
diff = {pre: [p for p in pairs if ctx[pre][p] != table[p]] for pre in ctx}
for pre, d in diff.items(): print(repr(pre), len(d), d[:40])
print('breaks alone:', sum(table.values()))
rows = {}
for p, v in table.items():
    if v: rows.setdefault(p[0], []).append(p[1])
for a, bs in rows.items(): print(repr(a), ''.join(bs))
