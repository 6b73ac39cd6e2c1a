import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_HANDLER_SCRIPT } from './error-handler';

/** Runs the inline handler in a small stand-in for a page's window; `answer` is what the tunnel answers each call. */
function page(answer: () => { status: number; retryAfter?: string } = () => ({ status: 202 })) {
  const listeners: Record<string, ((e: any) => void)[]> = {};
  const sent: { url: string; body: any[]; keepalive: boolean }[] = [];
  const banner = { hidden: true, role: null as string | null, button: { onclick: null as null | (() => void) }, querySelector() { return this.button; }, setAttribute(n: string, v: string) { if (n === 'role') this.role = v; } };
  const reload = vi.fn();
  const win: Record<string, any> = {
    addEventListener: (type: string, fn: (e: any) => void) => (listeners[type] ??= []).push(fn),
    fetch: (url: string, init: { body: string; keepalive: boolean }) => {
      sent.push({ url, body: JSON.parse(init.body), keepalive: init.keepalive });
      const a = answer();
      return Promise.resolve({ status: a.status, headers: { get: (n: string) => (n.toLowerCase() === 'retry-after' ? a.retryAfter ?? null : null) } });
    },
    location: { href: 'http://localhost/read/x/?sig=abc', reload },
    document: { getElementById: (id: string) => (id === 'chunk-error' ? banner : null) },
    setTimeout, Date,
  };
  win.self = win;
  new Function(...Object.keys(win), ERROR_HANDLER_SCRIPT)(...Object.values(win));
  const fire = (type: string, e: any) => listeners[type]?.forEach((fn) => fn(e));
  return { win, sent, banner, reload, fire, error: (m: string) => fire('error', { target: win, message: m, error: new Error(m), filename: 'http://localhost/_astro/a.js' }) };
}
const flushed = async (ms: number) => { await vi.advanceTimersByTimeAsync(ms); };

describe('the inline error handler', () => {
  afterEach(() => vi.useRealTimers());

  it('is at most 1 KB', () => {
    expect(Buffer.byteLength(ERROR_HANDLER_SCRIPT)).toBeLessThanOrEqual(1024);
  });

  it('batches errors and rejections to /api/errors/ a second later, keeps 30 a page, and stops', async () => {
    vi.useFakeTimers();
    const p = page();
    p.error('TypeError: one');
    p.fire('unhandledrejection', { reason: new Error('two') });
    p.fire('unhandledrejection', { reason: 'three' });
    expect(p.sent).toEqual([]);
    await flushed(1000);
    expect(p.sent).toHaveLength(1);
    expect(p.sent[0]).toMatchObject({ url: '/api/errors/', keepalive: true });
    expect(p.sent[0]!.body).toMatchObject([
      { t: 'e', m: 'TypeError: one', u: 'http://localhost/read/x/?sig=abc', f: 'http://localhost/_astro/a.js' },
      { t: 'r', m: 'two' },
      { t: 'r', m: 'three', s: '' },
    ]);
    for (let i = 0; i < 40; i++) p.error(`E${i}`);
    await flushed(10_000);
    const all = p.sent.flatMap((s) => s.body);
    expect(all).toHaveLength(30);
    expect(p.sent.every((s) => s.body.length <= 8)).toBe(true);
    p.error('more');
    await flushed(5_000);
    expect(p.sent.flatMap((s) => s.body)).toHaveLength(30);
  });

  it('backs off for Retry-After after a 429, or 60 s without one, and sends the batch again', async () => {
    vi.useFakeTimers();
    let status = 429;
    let retryAfter: string | undefined = '5';
    const p = page(() => ({ status, retryAfter }));
    p.error('first');
    await flushed(1000);
    expect(p.sent).toHaveLength(1);
    status = 202;
    p.error('second');
    await flushed(4000);
    expect(p.sent).toHaveLength(1);
    await flushed(1500);
    expect(p.sent).toHaveLength(2);
    expect(p.sent[1]!.body.map((e: any) => e.m)).toEqual(['first', 'second']);
    // Without Retry-After: 60 s.
    status = 429;
    retryAfter = undefined;
    p.error('third');
    await flushed(1000);
    expect(p.sent).toHaveLength(3);
    status = 202;
    await flushed(58_000);
    expect(p.sent).toHaveLength(3);
    await flushed(2_000);
    expect(p.sent).toHaveLength(4);
  });

  it('shows the ChunkLoadError banner for a module that cannot load, or an /_astro/ script that failed', async () => {
    vi.useFakeTimers();
    const p = page();
    p.fire('error', { target: { tagName: 'IMG', src: 'http://localhost/x.png' } });
    expect(p.banner.hidden).toBe(true);
    p.fire('unhandledrejection', { reason: new TypeError('Failed to fetch dynamically imported module: http://localhost/_astro/old.js') });
    expect(p.banner).toMatchObject({ hidden: false, role: 'alert' });
    p.banner.button.onclick!();
    expect(p.reload).toHaveBeenCalled();
    const q = page();
    q.fire('error', { target: { tagName: 'SCRIPT', src: 'http://localhost/_astro/gone.js' } });
    expect(q.banner.hidden).toBe(false);
    await flushed(1000);
    expect(q.sent[0]!.body).toMatchObject([{ t: 'c', m: 'Failed to load http://localhost/_astro/gone.js' }]);
    await flushed(0);
    expect(p.sent[0]!.body).toMatchObject([{ t: 'c' }]);
  });

  it('takes the page\'s own reports (a redeem failure)', async () => {
    vi.useFakeTimers();
    const p = page();
    p.win.inkpassReport('Redeem failed: HTTP 409: Not enough keys');
    await flushed(1000);
    expect(p.sent[0]!.body).toMatchObject([{ t: 'p', m: 'Redeem failed: HTTP 409: Not enough keys' }]);
  });
});
