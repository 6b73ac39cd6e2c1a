import { describe, expect, it } from 'vitest';
import { parseModulePreloads, withModulePreloads } from './module-preload.mjs';
import { entryImports } from '../../scripts/module-preload-integration.mjs';

const A = '/_astro/a.1.js';
const B = '/_astro/b.2.js';
const LIB = '/_astro/lib.3.js';
const UTIL = '/_astro/util.4.js';
const map = parseModulePreloads(JSON.stringify({ [A]: [LIB, UTIL], [B]: [UTIL] }));
const page = (body: string) => Buffer.from(`<!DOCTYPE html><html><head><title>x</title></head><body>${body}</body></html>`);
const links = (html: Buffer) => [...html.toString().matchAll(/<link rel="modulepreload" href="([^"]+)">/g)].map((m) => m[1]);

describe('withModulePreloads', () => {
  it('announces every chunk the page scripts import, once, at the end of the head', () => {
    const html = withModulePreloads(page(`<script type="module" src="${A}"></script><p>x</p><script type="module" src="${B}"></script>`), map);
    expect(links(html)).toEqual([LIB, UTIL]);
    expect(html.toString()).toMatch(/<link rel="modulepreload" href="\/_astro\/util\.4\.js"><\/head>/);
  });

  it('leaves out a chunk the page loads as a script of its own', () => {
    const own = parseModulePreloads(JSON.stringify({ [A]: [B, UTIL] }));
    expect(links(withModulePreloads(page(`<script type="module" src="${A}"></script><script type="module" src="${B}"></script>`), own))).toEqual([UTIL]);
  });

  it('returns a page without such scripts, without a head, or without a map as it was', () => {
    for (const html of [page('<p>no scripts</p>'), page(`<script type="module" src="/_astro/other.js"></script>`), Buffer.from(`<p>fragment</p><script type="module" src="${A}"></script>`)]) {
      expect(withModulePreloads(html, map)).toBe(html);
    }
    const html = page(`<script type="module" src="${A}"></script>`);
    expect(withModulePreloads(html, undefined)).toBe(html);
    expect(withModulePreloads(html, new Map())).toBe(html);
  });
});

describe('parseModulePreloads', () => {
  it('keeps only built asset URLs, and gives an empty map for anything malformed', () => {
    const parsed = parseModulePreloads(JSON.stringify({ [A]: [LIB], '/evil.js': [LIB], [B]: ['"><script>'], '/_astro/c.js': 'x' }));
    expect([...parsed.entries()]).toEqual([[A, [LIB]]]);
    expect(parseModulePreloads('not json').size).toBe(0);
    expect(parseModulePreloads('null').size).toBe(0);
  });
});

describe('entryImports', () => {
  it('walks each entry chunk\'s static imports all the way down, each once, leaving out non-entries and assets', () => {
    const bundle = {
      '_astro/a.js': { type: 'chunk', isEntry: true, fileName: '_astro/a.js', imports: ['_astro/lib.js'] },
      '_astro/b.js': { type: 'chunk', isEntry: true, fileName: '_astro/b.js', imports: [] },
      '_astro/lib.js': { type: 'chunk', isEntry: false, fileName: '_astro/lib.js', imports: ['_astro/util.js', '_astro/paths.js'] },
      '_astro/util.js': { type: 'chunk', isEntry: false, fileName: '_astro/util.js', imports: ['_astro/paths.js'] },
      '_astro/paths.js': { type: 'chunk', isEntry: false, fileName: '_astro/paths.js', imports: [] },
      '_astro/x.css': { type: 'asset', fileName: '_astro/x.css' },
    };
    expect(entryImports(bundle)).toEqual({ '/_astro/a.js': ['/_astro/lib.js', '/_astro/util.js', '/_astro/paths.js'] });
  });
});
