import { describe, expect, it } from 'vitest';
import { checkedLocation, isLocalPath, redirectTo, safeNext } from './redirect';

const BASE = 'http://site.test';

/** Where a browser ends up when it follows `location` from a page on BASE. */
function landsOn(location: string): string {
  return new URL(location, BASE).origin;
}

/** Pieces an attacker combines: dot segments in every encoding, slashes, backslashes, controls. */
const PIECES = ['', '.', '..', '%2e', '%2E%2e', '.%2e', '%2f', '%2F', '/', '//', '\\', '%5c', '%5C', '%09', '%0a', '\t', '%00', 'evil.example', '@evil.example', ':'];

function* candidates(): Generator<string> {
  for (const a of PIECES) for (const b of PIECES) for (const c of PIECES) {
    yield `/${a}/${b}${c}evil.example`;
    yield `/${a}${b}/${c}/evil.example/x`;
    yield `${a}${b}${c}evil.example`;
  }
}

describe('safeNext', () => {
  it.each(['/comics/', '/read/a/b/chapter-1/?x=1#p2', '/', '/my/favorites/?page=2'])('keeps the same-site path %s', (p) => {
    expect(safeNext(p)).toBe(p);
  });

  it.each([
    '/%2e%2e//evil.example', '/..//evil.example', '/./%2e%2e//evil.example', '/a/../..//evil.example',
    '/%2E%2E//evil.example', '/.%2e//evil.example', '//evil.example', '/\\evil.example', 'https://evil.example',
    'javascript:alert(1)', '/\t/evil.example', '\\\\evil', '', 'comics/',
  ])('sends %s home', (p) => {
    expect(safeNext(p)).toBe('/');
  });

  it('never returns a target that leaves the site, whatever the combination of dot segments, encodings and slashes', () => {
    const escaped: string[] = [];
    for (const p of candidates()) {
      const out = safeNext(p, '/fallback/');
      if (landsOn(out) !== BASE || !isLocalPath(out) || /^\/[/\\]/.test(out)) escaped.push(`${p} → ${out}`);
    }
    expect(escaped).toEqual([]);
  });

  it('keeps percent-encoded line breaks encoded (no header injection)', () => {
    expect(safeNext('/%0d%0aSet-Cookie:x')).not.toMatch(/[\r\n]/);
  });

  it('resolves dot segments inside the site', () => {
    expect(safeNext('/comics/../my/history/')).toBe('/my/history/');
  });
});

describe('redirectTo and checkedLocation', () => {
  it('answers with the checked target or the fallback', () => {
    expect(redirectTo('/comics/').headers.get('location')).toBe('/comics/');
    expect(redirectTo('/%2e%2e//evil.example', 303, '/home/').headers.get('location')).toBe('/home/');
    expect(redirectTo('/x/', 301).status).toBe(301);
  });

  it('lets only local paths and same-origin absolute URLs through', () => {
    expect(checkedLocation('/comics/', BASE)).toBe('/comics/');
    expect(checkedLocation(`${BASE}/comics/`, BASE)).toBe(`${BASE}/comics/`);
    for (const bad of ['//evil.example/', 'http://evil.example/', `${BASE}//evil.example`, '/%2e%2e//evil.example', '/\\evil', 'http://br.site.test/']) {
      expect(checkedLocation(bad, BASE), bad).toBeNull();
    }
  });
});
