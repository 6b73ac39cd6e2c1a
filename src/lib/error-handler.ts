/**
 * The browser's error handler: an inline script in every page's head (src/layouts/Base.astro),
 * at most 1 KB (src/lib/error-handler.test.ts measures it; tests/integration/errors.test.ts
 * measures it in the served page), instead of a browser SDK of about 27 KB gzipped on the first
 * load (docs/decisions.md, "Error reporting").
 *
 * It catches `error` (scripts that throw, and /_astro/ scripts that fail to load) and
 * `unhandledrejection`, keeps at most ERROR_BUFFER events per page, and sends them in batches
 * of up to 8, a second after the first, to the same-origin tunnel POST /api/errors/ with
 * fetch's keepalive (it outlives the page, like sendBeacon, and shows the answer). When the
 * tunnel answers 429 it waits for Retry-After, or 60 s, and keeps the batch. The ignore list
 * and the scrubber run on the server (src/server/error-filter.mjs), so they are written once.
 *
 * A chunk-load failure (a script of an older deploy that is gone: a module that cannot be
 * imported, or an /_astro/ script whose load failed) also unhides the page's ChunkLoadError
 * banner (#chunk-error: "a new version is out", with a Reload button), made an alert only then
(a hidden alert would still count as one for tools that look for alerts). `inkpassReport(message)`
 * is left on window for the page's own reports (src/lib/report.ts: a redeem failure).
 *
 * Written by hand, small: each name is one letter. Keep the events' shape in step with
 * parseBrowserReports (src/server/error-reports.mjs): t kind (e error, r unhandled rejection,
 * c chunk-load failure, p the page's own report), m message, s stack, u page URL, f file.
 */
export const ERROR_ENDPOINT = '/api/errors/';
export const ERROR_BUFFER = 30;
export const ERROR_BACKOFF_S = 60;

export const ERROR_HANDLER_SCRIPT = [
  '(()=>{var q=[],n=0,w=0,t,L=location,',
  // Sends up to 8 queued events, or waits out a back-off; another round while events remain.
  's=()=>{t=0;var x=w-Date.now();if(x>0)return t=setTimeout(s,x);x=q.splice(0,8);',
  `x[0]&&fetch('${ERROR_ENDPOINT}',{method:'POST',body:JSON.stringify(x),keepalive:!0})`,
  `.then(r=>{if(r.status==429)w=Date.now()+1e3*(+r.headers.get('Retry-After')||${ERROR_BACKOFF_S}),q.unshift(...x),t=t||setTimeout(s,1e3)},()=>0);`,
  'q[0]&&(t=t||setTimeout(s,1e3))},',
  // Keeps one event (the first 30 of the page); a chunk-load failure also shows the "new version" banner.
  "a=(k,m,e,f)=>{m=String(m);if(k=='c'||/imported module|module script failed/i.test(m)){k='c';",
  "var b=document.getElementById('chunk-error');if(b)b.hidden=!1,b.setAttribute('role','alert'),b.querySelector('button').onclick=()=>L.reload()}",
  `if(n++<${ERROR_BUFFER})q.push({t:k,m:m.slice(0,500),s:(e&&e.stack||'').slice(0,1e3),u:L.href,f:f}),t=t||setTimeout(s,1e3)};`,
  // Capture phase: a <script> that failed to load fires `error` on itself, not on window.
  "addEventListener('error',e=>{var g=e.target;g&&g.tagName?g.tagName=='SCRIPT'&&/\\/_astro\\//.test(g.src)&&a('c','Failed to load '+g.src):a('e',e.message,e.error,e.filename)},!0);",
  "addEventListener('unhandledrejection',e=>{var r=e.reason;a('r',r&&r.message||r,r)});",
  "addEventListener('pagehide',s);",
  "self.inkpassReport=m=>a('p',m)})()",
].join('');
