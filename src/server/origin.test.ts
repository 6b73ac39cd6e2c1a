import { describe, expect, it } from 'vitest';
import { isSameOriginMutation } from './origin';

const ORIGIN = 'http://localhost:4321';
const h = (o: Record<string, string>) => new Headers(o);

describe('the origin rule for mutations', () => {
  it('accepts our own pages and scripts, and clients that are not browsers', () => {
    expect(isSameOriginMutation(h({ 'sec-fetch-site': 'same-origin', origin: ORIGIN }), ORIGIN)).toBe(true);
    expect(isSameOriginMutation(h({ origin: ORIGIN }), ORIGIN)).toBe(true);
    expect(isSameOriginMutation(h({ 'sec-fetch-site': 'same-origin' }), ORIGIN)).toBe(true);
    expect(isSameOriginMutation(h({}), ORIGIN)).toBe(true);
  });

  it('refuses every other Sec-Fetch-Site, in any case', () => {
    for (const v of ['cross-site', 'same-site', 'none', 'CROSS-SITE', 'Same-Site', '']) {
      expect(isSameOriginMutation(h({ 'sec-fetch-site': v, origin: ORIGIN }), ORIGIN), v).toBe(false);
    }
  });

  it('refuses another Origin, the other language host, an opaque origin and other schemes or ports', () => {
    for (const o of ['http://evil.example', 'null', 'http://br.localhost:4321', 'https://localhost:4321', 'http://localhost:4322', 'http://localhost:4321.evil.example', 'http://LOCALHOST:4321/']) {
      expect(isSameOriginMutation(h({ origin: o }), ORIGIN), o).toBe(false);
    }
  });
});
