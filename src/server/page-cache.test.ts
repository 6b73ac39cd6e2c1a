import { beforeEach, describe, expect, it } from 'vitest';
import {
  FRESH_MS, STALE_MS, beginRender, configurePageCache, invalidatePages, isCacheable, lookupPage, pageCacheKey, pageCacheStats, renderingPage,
} from './page-cache.mjs';

const PUBLIC = 'public, max-age=0, s-maxage=60, stale-while-revalidate=600';
const answer = (body = 'x'.repeat(100), headers: Record<string, string> = {}) => ({
  status: 200,
  headers: { 'content-type': 'text/html', 'content-encoding': 'br', 'cache-control': PUBLIC, ...headers },
  body: Buffer.from(body),
});
const req = (headers: Record<string, string>, method = 'GET', url = '/comics/x/') => ({ method, url, headers: { host: 'localhost:4321', 'accept-encoding': 'br, gzip', ...headers } });
const cfg = { countryHeader: 'cf-ipcountry', trustProxy: false };

beforeEach(() => {
  invalidatePages();
  configurePageCache(1024 * 1024);
});

describe('which requests the page cache answers', () => {
  it('keys on host, encoding, country and the exact path and query', () => {
    const base = pageCacheKey(req({}), cfg);
    expect(base).not.toBeNull();
    for (const other of [req({ host: 'br.localhost:4321' }), req({ 'accept-encoding': 'gzip' }), req({ 'cf-ipcountry': 'JP' }), req({}, 'GET', '/comics/x/?page=2')]) {
      expect(pageCacheKey(other, cfg)).not.toBe(base);
    }
    expect(pageCacheKey(req({ 'x-forwarded-host': 'evil.example' }), cfg)).toBe(base);
    expect(pageCacheKey(req({ 'x-forwarded-host': 'evil.example' }), { ...cfg, trustProxy: true })).not.toBe(base);
  });

  it('never answers a request with a session, theme or view cookie, credentials, an Origin, another method or no compression', () => {
    for (const cookie of ['inkpass_session=a.b', 'dark=1', 'lite=0', 'view=grid', 'adult=1', 'other=1; inkpass_session=a.b']) expect(pageCacheKey(req({ cookie }), cfg), cookie).toBeNull();
    expect(pageCacheKey(req({ cookie: '_ga=1' }), cfg)).not.toBeNull();
    expect(pageCacheKey(req({ authorization: 'Bearer x' }), cfg)).toBeNull();
    expect(pageCacheKey(req({ origin: 'http://br.localhost:4321' }), cfg)).toBeNull();
    expect(pageCacheKey(req({ 'accept-encoding': 'identity' }), cfg)).toBeNull();
    for (const method of ['POST', 'PUT', 'DELETE', 'OPTIONS']) expect(pageCacheKey(req({}, method), cfg), method).toBeNull();
    expect(pageCacheKey(req({}, 'HEAD'), cfg)).not.toBeNull();
  });
});

describe('what the page cache keeps', () => {
  it('only public, compressed 200s that set no cookie', () => {
    expect(isCacheable(200, answer().headers)).toBe(true);
    expect(isCacheable(404, answer().headers)).toBe(false);
    expect(isCacheable(301, answer().headers)).toBe(false);
    expect(isCacheable(200, answer('x', { 'cache-control': 'private, no-cache' }).headers)).toBe(false);
    expect(isCacheable(200, answer('x', { 'cache-control': 'no-store' }).headers)).toBe(false);
    expect(isCacheable(200, answer('x', { 'cache-control': 'public, max-age=60' }).headers)).toBe(false);
    expect(isCacheable(200, { ...answer().headers, 'set-cookie': 'a=1' })).toBe(false);
    const { 'content-encoding': _, ...plain } = answer().headers;
    expect(isCacheable(200, plain)).toBe(false);
  });

  it('keeps a render, serves it fresh, then stale, then forgets it', () => {
    const done = beginRender('k');
    expect(renderingPage('k')).not.toBeNull();
    done(answer('page'));
    expect(renderingPage('k')).toBeNull();
    const now = Date.now();
    expect(lookupPage('k', now)?.fresh).toBe(true);
    expect(lookupPage('k', now + FRESH_MS + 1)?.fresh).toBe(false);
    expect(lookupPage('k', now + FRESH_MS + STALE_MS + 1)).toBeNull();
  });

  it('tells waiting requests what the render answered, or null when it could not be kept', async () => {
    const done = beginRender('a');
    const waiting = renderingPage('a');
    done({ status: 404, headers: answer().headers, body: Buffer.from('no') });
    expect(await waiting).toBeNull();
    expect(lookupPage('a')).toBeNull();
  });

  it('forgets everything when the catalogue changes, including a render begun before the change', () => {
    beginRender('old')(answer());
    const late = beginRender('late');
    invalidatePages();
    expect(lookupPage('old')).toBeNull();
    late(answer());
    expect(lookupPage('late')).toBeNull();
    beginRender('new')(answer());
    expect(lookupPage('new')).not.toBeNull();
  });

  it('stays within its memory, least recently used first', () => {
    configurePageCache(3000);
    beginRender('a')(answer('a'.repeat(1000)));
    beginRender('b')(answer('b'.repeat(1000)));
    lookupPage('a');
    beginRender('c')(answer('c'.repeat(1000)));
    expect(pageCacheStats().bytes).toBeLessThanOrEqual(3000);
    expect(lookupPage('a')).not.toBeNull();
    expect(lookupPage('b')).toBeNull();
    expect(lookupPage('c')).not.toBeNull();
  });
});
