/**
 * The web client's stylesheet, served at `/app/assets/app.css` (kept as a
 * module so Node, the compiled build and Deno all serve it without file
 * I/O). System fonts only; colours meet WCAG AA; focus is always visible;
 * one column below 700 px so the panels work at 400 px wide.
 */
export const APP_CSS = String.raw`
:root{--fg:#1b1f24;--muted:#505a66;--bg:#f7f7f5;--card:#fff;--line:#d5d9de;--accent:#0b57d0;--accent-fg:#fff;--ok:#116329;--warn:#7a4d00;--bad:#a40e26;--focus:#b35c00;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
*{box-sizing:border-box}
body{margin:0}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px;top:0;background:var(--card);padding:.5rem}
.skip:focus{left:.5rem}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1.5rem;padding:.6rem 1rem;background:#12263f;color:#fff}
.top a{color:#fff}
.brand{margin:0;font-weight:700}
.ver{font-weight:400;font-size:.8rem;opacity:.85}
.top nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
.top nav a{text-decoration:none;padding:.2rem .1rem;border-bottom:2px solid transparent}
.top nav a[aria-current=page]{border-bottom-color:#fff;font-weight:600}
.top .link{margin-left:auto;background:none;border:1px solid #fff;color:#fff}
main{max-width:1100px;margin:0 auto;padding:1rem}
h1{margin:.2rem 0 .3rem;font-size:1.6rem}
h2{font-size:1.15rem;margin:.2rem 0}
.intro,.muted{color:var(--muted)}
.count{font-weight:600}
.status{min-height:1.5rem;margin:.5rem 0;padding:0}
.status.ok{color:var(--ok)}
.status.err,.error{color:var(--bad)}
p.warn{color:var(--warn);font-weight:600}
.card{background:var(--card);border:1px solid var(--line);border-radius:6px;padding:.8rem 1rem;margin:.8rem 0}
.card[aria-current=true]{border-color:var(--accent);box-shadow:0 0 0 2px var(--accent)}
.meta{display:flex;flex-wrap:wrap;gap:.2rem 1rem;list-style:none;margin:.2rem 0;padding:0;font-size:.9rem;color:var(--muted)}
.meta strong{color:var(--fg)}
.label{font-size:.85rem;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin:.6rem 0 .2rem}
pre.content,p.content{white-space:pre-wrap;overflow-wrap:anywhere;background:#f2f4f7;border-radius:4px;padding:.5rem .7rem;margin:.2rem 0;font:14px/1.45 ui-monospace,SFMono-Regular,Menlo,monospace}
p.content{font:inherit}
details{margin:.4rem 0}
summary{cursor:pointer;color:var(--accent)}
.actions{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin-top:.6rem}
.actions label{flex-basis:100%;font-size:.9rem}
.actions input{flex:1 1 14rem}
input,select,button{font:inherit;padding:.35rem .6rem;border:1px solid #6b7480;border-radius:4px;background:#fff;color:var(--fg)}
button{cursor:pointer}
button.primary{background:var(--accent);border-color:var(--accent);color:var(--accent-fg)}
button.danger{border-color:var(--bad);color:var(--bad)}
button.danger[data-armed]{background:var(--bad);color:#fff}
button:disabled{opacity:.6;cursor:progress}
form.query{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:.5rem 0}
form.query input{flex:1 1 16rem}
table{border-collapse:collapse;margin:.4rem 0;width:100%;background:var(--card)}
caption{text-align:left;font-weight:600;padding:.2rem 0}
th,td{border:1px solid var(--line);padding:.3rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
.kv{width:auto}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:.15rem .8rem;margin:.3rem 0}
dl.kv dt{font-weight:600}
dl.kv dd{margin:0;overflow-wrap:anywhere}
.badge{display:inline-block;padding:.05rem .45rem;border-radius:3px;font-size:.9rem;border:1px solid currentColor}
.s-ok{color:var(--ok)}.s-warn{color:var(--warn)}.s-over{color:var(--bad)}.s-idle{color:var(--muted)}
.v-clean{color:var(--ok)}.v-quarantine,.v-reject{color:var(--bad)}
.ops section{margin:1.4rem 0}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
.gauges{display:grid;gap:.4rem;margin:.5rem 0}
.gauge{display:grid;grid-template-columns:10rem 1fr 9rem;align-items:center;gap:.5rem}
meter{width:100%;height:1.1rem}
.scroll{overflow-x:auto}
ol.hits{list-style:none;padding:0}
.history li{margin:.3rem 0;overflow-wrap:anywhere}
.foot{max-width:1100px;margin:0 auto;padding:0 1rem 2rem;color:var(--muted)}
kbd{border:1px solid var(--line);border-bottom-width:2px;border-radius:3px;padding:0 .3rem;background:#fff;font-size:.85rem}
dialog{border:1px solid var(--line);border-radius:6px;max-width:32rem;width:calc(100% - 2rem)}
dialog::backdrop{background:rgba(0,0,0,.35)}
dialog label{display:block;font-weight:600;margin:.4rem 0 .2rem}
dialog input{width:100%}
.keys{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem}
.keys dd{margin:0}
@media (max-width:700px){
 .ops section{margin:1.4rem 0}
.pair{grid-template-columns:1fr}
 .gauge{grid-template-columns:1fr}
 main{padding:.6rem}
 h1{font-size:1.35rem}
 dl.kv{grid-template-columns:1fr}
 dl.kv dd{margin-bottom:.3rem}
}
`;
