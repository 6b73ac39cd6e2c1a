/**
 * What each call that needs a reader tells a signed-out visitor, on both sites and both
 * databases: a 401 whose message says what logging in is for there (issue 24: the series page's
 * subscribe button answered "Log in to unlock chapters."). The catalogue's side (every prompt
 * names a purpose) is i18n/login-prompts.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { message, selectedDialects, useServer, type SiteName, type TestResponse } from './harness';

type Body = 'form' | 'json' | null;
interface Call {
  what: string;
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  body: Body;
  key: string;
  /** Where the answer carries its message. */
  read: (res: TestResponse) => unknown;
}

const detail = (res: TestResponse) => res.json().detail;
const CHECK = `sub${'0'.repeat(24)}`;
const ORDER = `ord${'0'.repeat(24)}`;

const CALLS: Call[] = [
  { what: 'the subscribe button (add-comic, /api)', method: 'POST', path: '/api/subscription/add-comic', body: 'json', key: 'subscribe.error.loginSeries', read: (r) => r.json().error },
  { what: 'the subscribe button (add-comic, /sapi)', method: 'POST', path: '/sapi/subscription/add-comic', body: 'json', key: 'subscribe.error.loginSeries', read: (r) => r.json().error },
  { what: 'subscribing with Pix', method: 'POST', path: '/my/subscribe/pix/', body: 'form', key: 'subscribe.error.login', read: (r) => r.json().message },
  { what: 'subscribing with a card', method: 'POST', path: '/my/subscribe/card/', body: 'form', key: 'subscribe.error.login', read: (r) => r.json().message },
  { what: 'a subscription payment\'s status', method: 'GET', path: `/my/subscribe/status/${CHECK}/`, body: null, key: 'subscribe.error.loginStatus', read: detail },
  { what: 'unlocking with keys', method: 'POST', path: '/api/redeem/', body: 'form', key: 'wallet.error.login', read: detail },
  { what: 'renting with the plan', method: 'POST', path: '/api/rent/', body: 'form', key: 'wallet.error.loginRent', read: detail },
  { what: 'the daily pass', method: 'POST', path: '/api/daily-pass/', body: 'form', key: 'wallet.error.loginPass', read: detail },
  { what: 'starting an ad', method: 'POST', path: '/api/ads/start/', body: 'form', key: 'wallet.error.loginAd', read: detail },
  { what: 'finishing an ad', method: 'POST', path: '/api/ads/complete/', body: 'form', key: 'wallet.error.loginAd', read: detail },
  { what: 'a key pack\'s Pix charge', method: 'POST', path: '/my/purchase/pix/', body: 'form', key: 'purchase.error.login', read: (r) => r.text },
  { what: 'a key pack\'s Pix status', method: 'GET', path: `/my/purchase/pix/${ORDER}/`, body: null, key: 'purchase.error.login', read: detail },
  { what: 'the coupon box', method: 'POST', path: '/my/purchase/coupon/', body: 'form', key: 'purchase.error.login', read: (r) => r.text },
  { what: 'the card widget\'s nonce', method: 'POST', path: '/payments/sandbox/nonce/', body: 'form', key: 'purchase.error.loginCard', read: detail },
  { what: 'the purchase favorite star', method: 'POST', path: `/api/purchases/${ORDER}/favorite/`, body: null, key: 'purchases.favorite.login', read: detail },
  { what: 'reading progress', method: 'POST', path: '/api/progress/', body: 'json', key: 'error.api.loginProgress', read: detail },
  { what: 'the app token', method: 'GET', path: '/sapi/app/token?ttl=3600', body: null, key: 'error.api.loginToken', read: detail },
  { what: 'the reading history API', method: 'GET', path: '/api/house/history/me', body: null, key: 'error.api.loginHistory', read: detail },
  { what: 'the signed-in episodes API', method: 'GET', path: '/api/comic/1/episodes?language=en', body: null, key: 'error.api.loginEpisodes', read: detail },
];

for (const dialect of selectedDialects()) {
  describe(`login prompts (${dialect})`, () => {
    const server = useServer(dialect);

    const call = (c: Call, site: SiteName) =>
      server.request(c.path, {
        method: c.method, site,
        body: c.body === 'json' ? JSON.stringify({ comic_id: 1 }) : c.body === 'form' ? 'content=EPI-x' : undefined,
        headers: {
          origin: server.origin(site), 'sec-fetch-site': 'same-origin',
          ...(c.body === 'json' ? { 'content-type': 'application/json' } : c.body === 'form' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
        },
      });

    it('every call answers a signed-out visitor 401 with what logging in is for there, in the site\'s language', async () => {
      const wrong: string[] = [];
      for (const site of ['en', 'br'] as const) {
        const locale = site === 'br' ? 'pt-BR' : 'en';
        for (const c of CALLS) {
          const res = await call(c, site);
          const said = res.status === 401 ? c.read(res) : undefined;
          const expected = message(locale, c.key);
          if (res.status !== 401 || said !== expected) wrong.push(`${site} ${c.what} (${c.method} ${c.path}): ${res.status} ${JSON.stringify(said ?? res.text.slice(0, 160))}, expected 401 "${expected}"`);
        }
      }
      expect(wrong).toEqual([]);
      // The case, spelled out: the subscribe button no longer talks about unlocking.
      expect(message('en', 'subscribe.error.loginSeries')).toBe('Log in to add this series to your subscription.');
      expect(message('pt-BR', 'subscribe.error.loginSeries')).toBe('Entre para adicionar esta série à sua assinatura.');
    });
  });
}
