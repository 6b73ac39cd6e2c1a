import { describe, expect, it } from 'vitest';
import { IGNORED_ERRORS, ignoredBecause, isBot, scrub, scrubEvent, scrubText } from './error-filter.mjs';

const event = (value: string, type = 'Error') => ({ exception: { values: [{ type, value }] } });

describe('the ignore list (spec section 8)', () => {
  it.each([
    ['cancelled requests', 'The user aborted a request.', 'AbortError'],
    ['cancelled requests', 'Request cancelled', 'Error'],
    ['app-check 403', 'Redeem failed: HTTP 403 (X-App-Check-Refused: used): expired', 'ReportedError'],
    ['fetch and throttling errors', 'Failed to fetch', 'TypeError'],
    ['fetch and throttling errors', 'NetworkError when attempting to fetch resource.', 'TypeError'],
    ['fetch and throttling errors', 'Load failed', 'TypeError'],
    ['fetch and throttling errors', 'HTTP 429 Too Many Requests', 'Error'],
    ['local-database errors', 'The quota has been exceeded.', 'QuotaExceededError'],
    ['local-database errors', 'Connection to Indexed Database server lost', 'UnknownError'],
    ['local-database errors', "Failed to execute 'transaction' on 'IDBDatabase'", 'InvalidStateError'],
    ['bot-check errors', 'altcha: verification failed', 'Error'],
    ['bot-check errors', 'Turnstile widget error 300030', 'Error'],
    ['instant-search bridge errors', 'instantsearch bridge not ready', 'Error'],
    ["errors mentioning 'Adult Content'", 'Blocked: Adult Content', 'Error'],
    ['null-document access', "Cannot read properties of null (reading 'document')", 'TypeError'],
    ['null-document access', "null is not an object (evaluating 'e.document')", 'TypeError'],
  ])('leaves out %s: %s', (why, value, type) => {
    expect(ignoredBecause(event(value, type))).toBe(why);
  });

  it('keeps real errors, and a chunk-load failure even though it says "Failed to fetch"', () => {
    for (const value of ["Cannot read properties of undefined (reading 'price')", 'no such table: short_links', 'Redeem failed: HTTP 409: Not enough keys']) {
      expect(ignoredBecause(event(value, 'TypeError'))).toBeNull();
    }
    expect(ignoredBecause(event('Failed to fetch dynamically imported module: /_astro/a.js', 'TypeError'))).toBeNull();
    expect(ignoredBecause({ message: 'Failed to fetch' })).toBe('fetch and throttling errors');
    expect(new Set(IGNORED_ERRORS.map((r) => r.why)).size).toBe(8);
  });
});

describe('the scrubber', () => {
  it('wipes emails, tax ids, card numbers, addresses, bearer tokens and signed-URL parameters from text', () => {
    expect(scrubText('for ana.silva+x@example.com.br')).toBe('for [email]');
    expect(scrubText('CPF 123.456.789-09 or 12345678909, CNPJ 12.345.678/0001-95 or 12345678000195')).toBe('CPF [tax-id] or [tax-id], CNPJ [tax-id] or [number]');
    expect(scrubText('card 4111 1111 1111 1111 / 4111-1111-1111-1111 / 4111111111111111')).toBe('card [number] / [number] / [number]');
    expect(scrubText('from 203.0.113.7 and 2001:db8::1 and fe80:0:0:0:200:f8ff:fe21:67cf')).toBe('from [ip] and [ip] and [ip]');
    expect(scrubText('Authorization: Bearer eyJhbGciOi.abc.def')).toBe('Authorization: Bearer [Filtered]');
    expect(scrubText('/media/p/EPI-k3j9d2ab/1.webp?exp=1900000000&sig=AbC_123-xyz&w=900')).toBe('/media/p/EPI-k3j9d2ab/1.webp?exp=[Filtered]&sig=[Filtered]&w=900');
    expect(scrubText('Cookie: inkpass_session=abc123; theme=dark; token=t0k')).toBe('Cookie: inkpass_session=[Filtered]; theme=dark; token=[Filtered]');
    expect(scrubText('key Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWo')).toBe('key [token]');
  });

  it('keeps what an operator needs: stack positions, times, short ids', () => {
    const stack = 'TypeError: x\n    at pay (http://localhost:4321/_astro/pay.Bx3k9.js:1:2034)\n    at 12:30:45';
    expect(scrubText(stack)).toBe(stack);
    expect(scrubText('request Ab3_dE-f9GhI on chapter EPI-k3j9d2ab')).toBe('request Ab3_dE-f9GhI on chapter EPI-k3j9d2ab');
  });

  it('empties secret keys at any depth, and reduces an event to what may leave', () => {
    expect(scrub({ headers: { Cookie: 'a=b', authorization: 'Bearer x', 'user-agent': 'UA' }, extra: { email: 'a@b.co', nested: [{ cpf: '1', note: 'x@y.io' }] } }))
      .toEqual({ headers: { Cookie: '[Filtered]', authorization: '[Filtered]', 'user-agent': 'UA' }, extra: { email: '[Filtered]', nested: [{ cpf: '[Filtered]', note: '[email]' }] } });
    const clean = scrubEvent({
      event_id: '0123456789abcdef0123456789abcdef',
      user: { id: 7, email: 'a@b.co', ip_address: '203.0.113.7' },
      request: { method: 'GET', url: 'https://x.example/read/?token=abc', headers: { Cookie: 's=1', 'User-Agent': 'Chrome' }, cookies: { s: '1' }, data: 'email=a@b.co' },
      contexts: { trace: { trace_id: 'abcdefabcdefabcdefabcdefabcdef12', span_id: '1234567890abcdef' }, app: { note: 'from 10.0.0.1' } },
      exception: { values: [{ type: 'Error', value: 'for a@b.co' }] },
    });
    expect(clean).toEqual({
      event_id: '0123456789abcdef0123456789abcdef',
      request: { method: 'GET', url: 'https://x.example/read/?token=[Filtered]', headers: { 'User-Agent': 'Chrome' } },
      contexts: { app: { note: 'from [ip]' }, trace: { trace_id: 'abcdefabcdefabcdefabcdefabcdef12', span_id: '1234567890abcdef', data: undefined } },
      exception: { values: [{ type: 'Error', value: 'for [email]' }] },
    });
  });
});

describe('crawlers', () => {
  it.each([
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', true],
    ['Mozilla/5.0 (compatible; bingbot/2.0)', true],
    ['facebookexternalhit/1.1', true],
    ['curl/8.5.0', true],
    ['', true],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', false],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1', false],
  ])('%s is a bot: %s', (ua, bot) => {
    expect(isBot(ua)).toBe(bot);
  });
});
