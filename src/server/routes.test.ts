import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIMITS } from './rate-limit-rules';
import { ROUTES, routePolicy } from './routes';

const PAGES = path.resolve(__dirname, '../pages');
const MUTATIONS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

function files(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}

/** The URL a route file answers, with a sample value in each parameter. */
function samplePath(file: string): string {
  const rel = path.relative(PAGES, file).replace(/\.(astro|ts)$/, '').split(path.sep);
  if (rel[rel.length - 1] === 'index') rel.pop();
  // Astro skips folders named with a leading underscore: `/_/…` routes live in `[underscore]/`.
  const parts = rel.map((p) => p.replace(/^\[underscore\]$/, '_').replace(/^\[\.\.\.[^\]]+\]$/, 'x/y').replace(/\[[^\]]+\]/g, 'x'));
  return `/${parts.join('/')}${parts.length ? '/' : ''}`;
}

/** The mutation methods a route file takes: exported handlers of an endpoint, or a page that reads POST. */
function methodsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  if (file.endsWith('.ts')) {
    if (/export const ALL\b/.test(text)) return [...MUTATIONS];
    return MUTATIONS.filter((m) => new RegExp(`export (const|async function|function) ${m}\\b`).test(text) || new RegExp(`export \\{[^}]*\\b${m}\\b`).test(text));
  }
  return /method === 'POST'|method !== 'POST'|=== 'POST'/.test(text) ? ['POST'] : [];
}

const routeFiles = files(PAGES).filter((f) => /\.(ts|astro)$/.test(f) && !f.endsWith('.test.ts'));
const mutations = routeFiles.flatMap((f) => methodsOf(f).map((method) => ({ file: path.relative(PAGES, f), method, url: samplePath(f) })));

describe('the route table (every writing route has a limit)', () => {
  it('finds the mutation routes it checks', () => {
    // A guard against the scan finding nothing (a moved folder would make every check below pass).
    expect(mutations.length).toBeGreaterThan(20);
    expect(mutations).toContainEqual({ file: 'api/redeem/index.ts', method: 'POST', url: '/api/redeem/' });
    expect(mutations).toContainEqual({ file: 'my/purchase/checkout/index.astro', method: 'POST', url: '/my/purchase/checkout/' });
  });

  it.each(mutations)('$method $url ($file) is in the route table, with a limit or a reason to be exempt', ({ method, url }) => {
    const policy = routePolicy(url, method);
    expect(policy, `${method} ${url} has no entry in src/server/routes.ts: the guard answers 405 to it`).toBeDefined();
    if ('exempt' in policy!.limit) expect(policy!.limit.exempt.length, 'an exemption says why').toBeGreaterThan(20);
    else expect(LIMITS[policy!.limit.name], `limit ${policy!.limit.name}`).toBeDefined();
  });

  it('every entry names a route that exists (no stale entries)', () => {
    const urls = routeFiles.map(samplePath);
    for (const r of ROUTES) expect(urls.some((u) => r.path.test(u)), `${r.path} matches no route file`).toBe(true);
  });

  it('every money call that takes a bot check is in the table with one', () => {
    for (const url of ['/api/redeem/', '/my/purchase/pix/', '/my/purchase/checkout/', '/my/subscribe/pix/', '/my/subscribe/card/']) {
      expect(routePolicy(url, 'POST')?.appCheck, url).toBe('required');
    }
  });
});
