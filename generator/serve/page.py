"""The page `pnp serve` answers GET / with: faces, home pages and problems, refreshed by server-sent events.

Plain HTML and a little script (no framework, nothing fetched from the network): on every
event it reads /status.json and redraws; an image whose URL did not change is not fetched
again (a URL is the digest of what it shows).
"""

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>pnp serve</title>
<style>
 body{font:14px system-ui,sans-serif;margin:0;background:#eceae6;color:#222}
 header{position:sticky;top:0;background:#2b2220;color:#fff;padding:8px 14px;display:flex;gap:14px;
        align-items:center;flex-wrap:wrap;z-index:1}
 header select{font:inherit}
 #state{margin-left:auto;opacity:.8}
 main{padding:10px 14px}
 h2{font-size:15px;margin:18px 0 6px}
 .grid{display:flex;flex-wrap:wrap;gap:10px}
 figure{margin:0;background:#fff;padding:6px;box-shadow:0 1px 3px #0003}
 figure img{display:block;max-height:260px;max-width:420px;min-width:120px;min-height:170px;background:#f6f5f2}
 .pages figure img{max-height:420px}
 figcaption{font-size:11px;color:#555;margin-top:3px;max-width:220px;overflow-wrap:anywhere}
 #errors pre{background:#fff0ef;border-left:4px solid #c62828;padding:6px 10px;margin:4px 0;white-space:pre-wrap}
 #warnings pre{background:#fff8e1;border-left:4px solid #f9a825;padding:6px 10px;margin:4px 0;white-space:pre-wrap}
 figure.overflows{outline:3px solid #c62828}
 figure.chosen{outline:3px solid #1565c0}
 #keys{position:fixed;right:10px;bottom:10px;max-width:460px;max-height:45vh;overflow:auto;background:#fff;
       box-shadow:0 2px 8px #0005;padding:8px 12px;font-size:12px}
 #keys:empty{display:none}
 #keys table{border-collapse:collapse} #keys td{padding:2px 6px;vertical-align:top;border-top:1px solid #eee}
 #keys tr.overflows td{color:#c62828;font-weight:bold}
 #keys code{font-size:11px}
</style></head>
<body>
<header><b>pnp serve</b>
 <label>game <select id="game"></select></label>
 <label>edition <select id="edition"></select></label>
 <label>language <select id="lang"></select></label>
 <label>paper <select id="paper"></select></label>
 <label>seen with <select id="vision"><option value="">normal vision</option><option>protanopia</option>
  <option>deuteranopia</option><option>tritanopia</option></select></label>
 <span id="state">connecting…</span></header>
<main>
 <section id="errors"></section><section id="warnings"></section>
 <h2>Faces</h2><div id="faces" class="grid"></div>
 <h2>Home files</h2><div id="pages" class="grid pages"></div>
</main>
<aside id="keys"></aside>
<script>
const $ = id => document.getElementById(id);
let shown = -1;
function figures(box, items) {
  const keep = new Map([...box.children].map(f => [f.dataset.url, f]));
  const wanted = items.map(([label, url]) => {
    let f = keep.get(url);
    if (!f) {
      f = document.createElement('figure'); f.dataset.url = url;
      const img = document.createElement('img'); img.src = url; img.alt = label; img.loading = 'lazy';
      const cap = document.createElement('figcaption');
      f.append(img, cap);
    }
    f.querySelector('figcaption').textContent = label;
    return f;
  });
  box.replaceChildren(...wanted);
}
let faceKeys = [], chosen = null;
function showKeys(url) {            // a face's catalog keys, its texts and where they are written (read-only)
  chosen = url;
  for (const f of $('faces').children) f.classList.toggle('chosen', f.dataset.url === url);
  const index = [...$('faces').children].findIndex(f => f.dataset.url === url);
  const keys = faceKeys[index] || [];
  if (!url || !keys.length) { $('keys').replaceChildren(); return; }
  const table = document.createElement('table');
  for (const k of keys) {
    const row = table.insertRow(); if (k.overflows) row.className = 'overflows';
    const key = document.createElement('code'); key.textContent = k.key;
    row.insertCell().append(key);
    row.insertCell().textContent = (k.overflows ? '⚠ overflows: ' : '') + k.text;
    row.insertCell().textContent = k.where;
  }
  const title = document.createElement('b'); title.textContent = 'Keys on this face';
  $('keys').replaceChildren(title, table);
}
function problems(box, lines) {
  box.replaceChildren(...lines.map(line => {
    const p = document.createElement('pre'); p.textContent = line; return p;
  }));
}
function choices(status) {
  for (const name of ['game', 'edition', 'lang', 'paper']) {
    const select = $(name), offered = (status.choices || {})[name] || [];
    if (select.dataset.offered !== offered.join('|')) {
      select.replaceChildren(...offered.map(v => new Option(v, v)));
      select.dataset.offered = offered.join('|');
    }
    select.value = (status.selected || {})[name] || '';
  }
}
async function refresh() {
  const status = await (await fetch('/status.json', {cache: 'no-store'})).json();
  if (status.build === shown) return;
  shown = status.build;
  document.body.dataset.build = status.build;
  choices(status);
  problems($('errors'), status.errors);
  problems($('warnings'), status.warnings);
  const vision = $('vision').value ? `?vision=${$('vision').value}` : '';
  faceKeys = status.keys || [];
  figures($('faces'), status.faces.map((url, i) => [status.labels[i], url + vision]));
  [...$('faces').children].forEach((f, i) => {
    const over = (faceKeys[i] || []).some(k => k.overflows);
    f.classList.toggle('overflows', over);
    if (over) f.querySelector('figcaption').textContent = '⚠ ' + status.labels[i];
    f.onclick = () => showKeys(f.dataset.url);
  });
  showKeys([...$('faces').children].some(f => f.dataset.url === chosen) ? chosen : null);
  figures($('pages'), status.pages.map(p => [p.label, p.url]));
  $('state').textContent = `build ${status.build}` + (status.errors.length ? ` — ${status.errors.length} error(s)` : '')
    + ` — ${status.seconds} s`;
}
for (const name of ['game', 'edition', 'lang', 'paper'])
  $(name).addEventListener('change', e => fetch(`/select?${name}=${encodeURIComponent(e.target.value)}`));
$('vision').addEventListener('change', () => { shown = -1; refresh(); });   // the faces as that eye sees them
const events = new EventSource('/events');
events.onmessage = refresh;
events.onerror = () => { $('state').textContent = 'disconnected: is pnp serve still running?'; };
refresh();
</script></body></html>
"""
