import { describe, expect, it } from 'vitest';
import { PAGE_URL_STEP, PAGE_URL_TTL, pageExpiry, signPage, signPreviewPage, signedPageUrl, signedPreviewUrl, verifyPage, verifyPreviewPage } from './signing.server';
import { keyFor } from '~/server/secrets';

const SECRET = 'test-secret';
const NOW = 1_800_000_123;

function parse(url: string) {
  const u = new URL(url, 'http://x');
  const m = /^\/media\/p\/([^/]+)\/(\d+)\.webp$/.exec(u.pathname);
  if (!m) throw new Error(`unexpected page URL ${url}`);
  return { e4pid: decodeURIComponent(m[1]!), position: Number(m[2]), exp: u.searchParams.get('exp'), sig: u.searchParams.get('sig') };
}

describe('page URL signing', () => {
  it('builds /media/p/{e4pid}/{position}.webp?exp=&sig=', () => {
    const url = signedPageUrl('EPI-abc123', 4, NOW, SECRET);
    expect(url).toMatch(/^\/media\/p\/EPI-abc123\/4\.webp\?exp=\d+&sig=[0-9a-f]{32}$/);
  });

  it('accepts a URL it signed', () => {
    const p = parse(signedPageUrl('EPI-abc123', 4, NOW, SECRET));
    expect(verifyPage(p.e4pid, p.position, p.exp, p.sig, NOW, SECRET)).toBe('ok');
    expect(verifyPage(p.e4pid, p.position, p.exp, p.sig, NOW + PAGE_URL_TTL - 1, SECRET)).toBe('ok');
  });

  it('is HMAC-SHA256 of e4pid:position:exp, truncated to 32 hex characters', async () => {
    const crypto = await import('node:crypto');
    const full = crypto.createHmac('sha256', SECRET).update('EPI-x:2:1800007200').digest('hex');
    expect(signPage('EPI-x', 2, 1800007200, SECRET)).toBe(full.slice(0, 32));
  });

  it('expires about two hours later, rounded up to the next 10 minutes', () => {
    const exp = pageExpiry(NOW);
    expect(exp % PAGE_URL_STEP).toBe(0);
    expect(exp).toBeGreaterThanOrEqual(NOW + PAGE_URL_TTL);
    expect(exp).toBeLessThan(NOW + PAGE_URL_TTL + PAGE_URL_STEP);
    // Same URL for every request in the same 10-minute window: browsers can cache it.
    const start = Math.floor(NOW / PAGE_URL_STEP) * PAGE_URL_STEP + 1;
    expect(signedPageUrl('EPI-a', 1, start, SECRET)).toBe(signedPageUrl('EPI-a', 1, start + PAGE_URL_STEP - 1, SECRET));
  });

  it('rejects an expired URL', () => {
    const p = parse(signedPageUrl('EPI-abc123', 4, NOW, SECRET));
    expect(verifyPage(p.e4pid, p.position, p.exp, p.sig, Number(p.exp), SECRET)).toBe('expired');
    expect(verifyPage(p.e4pid, p.position, p.exp, p.sig, NOW + 10 * PAGE_URL_TTL, SECRET)).toBe('expired');
  });

  it('rejects a tampered signature', () => {
    const p = parse(signedPageUrl('EPI-abc123', 4, NOW, SECRET));
    const flipped = (p.sig![0] === 'a' ? 'b' : 'a') + p.sig!.slice(1);
    expect(verifyPage(p.e4pid, p.position, p.exp, flipped, NOW, SECRET)).toBe('invalid');
    expect(verifyPage(p.e4pid, p.position, p.exp, p.sig!.slice(0, 31), NOW, SECRET)).toBe('invalid');
    expect(verifyPage(p.e4pid, p.position, p.exp, p.sig! + '0', NOW, SECRET)).toBe('invalid');
    expect(verifyPage(p.e4pid, p.position, p.exp, 'z'.repeat(32), NOW, SECRET)).toBe('invalid');
  });

  it('accepts an upper-cased signature (hex is case-insensitive)', () => {
    const p = parse(signedPageUrl('EPI-abc123', 4, NOW, SECRET));
    expect(verifyPage(p.e4pid, p.position, p.exp, p.sig!.toUpperCase(), NOW, SECRET)).toBe('ok');
  });

  it('rejects a tampered expiry (extending a URL)', () => {
    const p = parse(signedPageUrl('EPI-abc123', 4, NOW, SECRET));
    expect(verifyPage(p.e4pid, p.position, String(Number(p.exp) + 3600), p.sig, NOW, SECRET)).toBe('invalid');
    expect(verifyPage(p.e4pid, p.position, `${p.exp}0`, p.sig, NOW, SECRET)).toBe('invalid');
  });

  it('rejects the signature of another page or another chapter', () => {
    const p = parse(signedPageUrl('EPI-abc123', 4, NOW, SECRET));
    expect(verifyPage(p.e4pid, 5, p.exp, p.sig, NOW, SECRET)).toBe('invalid');
    expect(verifyPage('EPI-abc124', 4, p.exp, p.sig, NOW, SECRET)).toBe('invalid');
  });

  it('rejects a signature made with another secret', () => {
    const p = parse(signedPageUrl('EPI-abc123', 4, NOW, 'other-secret'));
    expect(verifyPage(p.e4pid, p.position, p.exp, p.sig, NOW, SECRET)).toBe('invalid');
  });

  it('rejects missing or malformed parameters', () => {
    const p = parse(signedPageUrl('EPI-abc123', 4, NOW, SECRET));
    expect(verifyPage(p.e4pid, p.position, null, p.sig, NOW, SECRET)).toBe('invalid');
    expect(verifyPage(p.e4pid, p.position, p.exp, null, NOW, SECRET)).toBe('invalid');
    expect(verifyPage(p.e4pid, p.position, '', '', NOW, SECRET)).toBe('invalid');
    expect(verifyPage(p.e4pid, p.position, '-1', p.sig, NOW, SECRET)).toBe('invalid');
    expect(verifyPage(p.e4pid, p.position, '1e10', p.sig, NOW, SECRET)).toBe('invalid');
    expect(verifyPage(p.e4pid, -1, p.exp, p.sig, NOW, SECRET)).toBe('invalid');
    expect(verifyPage(p.e4pid, 1.5, p.exp, p.sig, NOW, SECRET)).toBe('invalid');
  });

  it("uses the server's page-url key by default, and no other purpose's key", () => {
    const p = parse(signedPageUrl('EPI-abc123', 1, NOW));
    expect(verifyPage(p.e4pid, p.position, p.exp, p.sig, NOW)).toBe('ok');
    expect(verifyPage(p.e4pid, p.position, p.exp, p.sig, NOW, SECRET)).toBe('invalid');
    for (const purpose of ['progress-token', 'app-token', 'payment-webhook'] as const) {
      expect(verifyPage(p.e4pid, p.position, p.exp, p.sig, NOW, keyFor(purpose))).toBe('invalid');
    }
  });

  it('refuses a correctly signed URL that expires further ahead than any URL is issued', () => {
    for (const exp of [pageExpiry(NOW) + PAGE_URL_STEP, NOW + 365 * 86400, 4_102_444_800 /* year 2100 */]) {
      expect(verifyPage('EPI-abc123', 1, String(exp), signPage('EPI-abc123', 1, exp, SECRET), NOW, SECRET)).toBe('invalid');
    }
    // The longest URL issued now is fine.
    expect(verifyPage('EPI-abc123', 1, String(pageExpiry(NOW)), signPage('EPI-abc123', 1, pageExpiry(NOW), SECRET), NOW, SECRET)).toBe('ok');
  });
});

describe('preview page URL signing (its own scope)', () => {
  it('builds /media/p/{e4pid}/{position}.webp?exp=&pv=1&sig=', () => {
    expect(signedPreviewUrl('EPI-abc123', 0, NOW, SECRET)).toMatch(/^\/media\/p\/EPI-abc123\/0\.webp\?exp=\d+&pv=1&sig=[0-9a-f]{32}$/);
  });

  it('accepts a preview URL it signed, for that page only', () => {
    const p = parse(signedPreviewUrl('EPI-abc123', 1, NOW, SECRET));
    expect(verifyPreviewPage(p.e4pid, 1, p.exp, p.sig, NOW, SECRET)).toBe('ok');
    // The next page, another chapter: the signature names its page.
    expect(verifyPreviewPage(p.e4pid, 2, p.exp, p.sig, NOW, SECRET)).toBe('invalid');
    expect(verifyPreviewPage('EPI-other', 1, p.exp, p.sig, NOW, SECRET)).toBe('invalid');
    expect(verifyPreviewPage(p.e4pid, 1, p.exp, p.sig, Number(p.exp), SECRET)).toBe('expired');
  });

  it('is never a reading signature, nor a reading signature a preview one', () => {
    const pv = parse(signedPreviewUrl('EPI-abc123', 1, NOW, SECRET));
    expect(verifyPage(pv.e4pid, 1, pv.exp, pv.sig, NOW, SECRET)).toBe('invalid');
    const read = parse(signedPageUrl('EPI-abc123', 1, NOW, SECRET));
    expect(verifyPreviewPage(read.e4pid, 1, read.exp, read.sig, NOW, SECRET)).toBe('invalid');
    expect(signPreviewPage('EPI-x', 2, 1800007200, SECRET)).not.toBe(signPage('EPI-x', 2, 1800007200, SECRET));
  });
});
