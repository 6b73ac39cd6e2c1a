// @ts-check
/**
 * `<link rel="modulepreload">` for the imports of a page's scripts, so a browser fetches a
 * script's whole import graph at once instead of one level per round trip. The map comes from
 * the client build (scripts/module-preload-integration.mjs writes dist/server/module-preloads.json);
 * scripts/serve.mjs reads it once and hands it to each request through `locals`, like the body
 * sink. Under `astro dev` there is none and pages go out as rendered. Plain JavaScript because
 * serve.mjs runs it without a TypeScript loader.
 */

/** @typedef {ReadonlyMap<string, readonly string[]>} ModulePreloads Entry script URL → the URLs it imports statically, directly or not. */

const SCRIPT = Buffer.from('<script type="module" src="');
const HEAD_END = Buffer.from('</head>');
const QUOTE = 0x22;
const ASSET_URL = /^\/_astro\/[\w.-]+\.js$/;

/**
 * The map as the build wrote it; entries that are not built asset URLs are dropped, and anything
 * malformed gives an empty map (preloads are only a hint).
 * @param {string} text
 * @returns {ModulePreloads}
 */
export function parseModulePreloads(text) {
  /** @type {Map<string, string[]>} */
  const map = new Map();
  try {
    const data = JSON.parse(text);
    if (!data || typeof data !== 'object') return map;
    for (const [entry, deps] of Object.entries(data)) {
      if (ASSET_URL.test(entry) && Array.isArray(deps) && deps.every((d) => typeof d === 'string' && ASSET_URL.test(d))) map.set(entry, deps);
    }
  } catch {
    return map;
  }
  return map;
}

/**
 * The page with a modulepreload link before `</head>` for every chunk its module scripts import
 * (each once, none for a script the page loads itself). A page without such a script, or without
 * a head, is returned as it is.
 * @param {Buffer} html
 * @param {ModulePreloads | undefined} preloads
 * @returns {Buffer}
 */
export function withModulePreloads(html, preloads) {
  if (!preloads || preloads.size === 0) return html;
  const headEnd = html.indexOf(HEAD_END);
  if (headEnd < 0) return html;
  /** @type {Set<string> | null} */
  let links = null;
  const own = new Set();
  for (let at = html.indexOf(SCRIPT); at >= 0; at = html.indexOf(SCRIPT, at + SCRIPT.length)) {
    const start = at + SCRIPT.length;
    const end = html.indexOf(QUOTE, start);
    if (end < 0) break;
    const src = html.toString('latin1', start, end);
    own.add(src);
    const deps = preloads.get(src);
    if (!deps) continue;
    links ??= new Set();
    for (const dep of deps) links.add(dep);
  }
  if (!links) return html;
  let tags = '';
  for (const href of links) if (!own.has(href)) tags += `<link rel="modulepreload" href="${href}">`;
  if (!tags) return html;
  return Buffer.concat([html.subarray(0, headEnd), Buffer.from(tags, 'latin1'), html.subarray(headEnd)]);
}
