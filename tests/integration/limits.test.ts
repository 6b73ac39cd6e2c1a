/**
 * The one limiter, route by route (src/server/routes.ts, docs/operations.md "Limits"): each
 * writing route, hit by one caller with more requests at once than its limit, lets exactly its
 * documented number through and answers the rest 429 with Retry-After and a message in the
 * site's language, on both databases. Card declines pause card payment for the reader.
 */
import { describe, expect, it } from 'vitest';
import { ROUTES, type RoutePolicy } from '~/server/routes';
import { LIMITS } from '~/server/rate-limit-rules';
import { appCheckToken, createReader, message, selectedDialects, useServer, withDb, type Reader, type ServerClient, type TestResponse } from './harness';

const FORM = 'application/x-www-form-urlencoded';

/** A request each limited route takes (what it answers does not matter here, only that it is counted). */
const SAMPLES: Record<string, { path: string; body?: Record<string, string> }> = {
  [/^\/prefs\/(theme|adult)\/$/.source]: { path: '/prefs/theme/', body: { theme: 'dark' } },
  [/^\/auth\/logout\/$/.source]: { path: '/auth/logout/' },
  [/^\/my\/favorites\/toggle\/$/.source]: { path: '/my/favorites/toggle/', body: { series: 'SER-nope' } },
  [/^\/api\/(favorites\/[^/]+|purchases\/[^/]+\/favorite)\/$/.source]: { path: '/api/favorites/SER-nope/' },
  [/^\/api\/comments\/[^/]+\/$/.source]: { path: '/api/comments/EPI-nope/', body: { body: 'counted' } },
  [/^\/api\/comments\/item\/[^/]+\/(like\/)?$/.source]: { path: '/api/comments/item/1/like/' },
  [/^\/comments\/[^/]+\/$/.source]: { path: '/comments/EPI-nope/', body: { body: 'counted' } },
  [/^\/api\/progress\/$/.source]: { path: '/api/progress/', body: { content: 'EPI-nope', completion: '10' } },
  [/^\/api\/redeem\/$/.source]: { path: '/api/redeem/', body: { content: 'EPI-nope' } },
  [/^\/api\/(daily-pass|rent)\/$/.source]: { path: '/api/daily-pass/', body: { content: 'EPI-nope' } },
  [/^\/unlock\/$/.source]: { path: '/unlock/', body: { content: 'EPI-nope' } },
  [/^\/api\/ads\/(start|complete)\/$/.source]: { path: '/api/ads/start/', body: { content: 'EPI-nope' } },
  [/^\/my\/purchase\/coupon\/$/.source]: { path: '/my/purchase/coupon/', body: { pack: 'nope', coupon: 'NOPE' } },
  [/^\/my\/purchase\/pix\/$/.source]: { path: '/my/purchase/pix/', body: { pack: 'nope' } },
  [/^\/my\/purchase\/checkout\/$/.source]: { path: '/my/purchase/checkout/', body: { pack: 'nope', method: 'card', nonce: 'x' } },
  [/^\/payments\/sandbox\/nonce\/$/.source]: { path: '/payments/sandbox/nonce/', body: { method: 'nope' } },
  [/^\/my\/subscribe\/(pix|card)\/$/.source]: { path: '/my/subscribe/card/', body: { tier_id: 'nope', method: 'card', nonce: 'x' } },
  [/^\/my\/subscriptions\/(cancel|add)\/$/.source]: { path: '/my/subscriptions/cancel/' },
  [/^\/(api|sapi)\/subscription\/add-comic\/$/.source]: { path: '/api/subscription/add-comic/' },
  [/^\/_\/dynamic_link\/$/.source]: { path: '/_/dynamic_link', body: { path: '/read/nope/nope/chapter-1/' } },
  [/^\/studio\/prices\/chapter\/[^/]+\/$/.source]: { path: '/studio/prices/chapter/1/', body: { price: '1', zone: 'UTC' } },
  [/^\/studio\/prices\/campaigns\/[^/]+\/$/.source]: { path: '/studio/prices/campaigns/1/', body: { action: 'save', name: 'x' } },
  [/^\/studio\/readers\/[^/]+\/(grant|sign-out)\/$/.source]: { path: '/studio/readers/1/grant/', body: { keys: '1', reason: 'limits', request: 'limits-request-key-0001' } },
  [/^\/studio\/shop\/[^/]+\/[^/]+\/$/.source]: { path: '/studio/shop/packs/new/', body: { code: 'Not a code!' } },
  [/^\/studio\/staff\/$/.source]: { path: '/studio/staff/', body: { change: 'grant', email: 'nobody@example.test', capability: 'content' } },
  [/^\/studio\/chapters\/(new|drafts\/[^/]+\/pages)\/$/.source]: { path: '/studio/chapters/new/', body: { series: '1', number: '1' } },
  [/^\/studio\/chapters\/drafts\/[^/]+\/$/.source]: { path: '/studio/chapters/drafts/1/', body: { action: 'up', position: '2' } },
  [/^\/studio\/series\/[^/]+\/$/.source]: { path: '/studio/series/new/', body: { 'original.name': 'Limited' } },
  [/^\/studio\/series\/[^/]+\/images\/$/.source]: { path: '/studio/series/1/images/', body: { kind: 'cover' } },
  [/^\/my\/purchase\/pix\/[^/]+\/$/.source]: { path: '/my/purchase/pix/ordnope/' },
  [/^\/my\/purchases\/[^/]+\/withdraw\/$/.source]: { path: '/my/purchases/ordnope/withdraw/' },
  [/^\/studio\/payments\/([^/]+\/)?$/.source]: { path: '/studio/payments/ordnope/', body: { action: 'status' } },
  [/^\/my\/subscribe\/status\/[^/]+\/$/.source]: { path: '/my/subscribe/status/subnope/' },
  [/^\/api\/app-check\/challenge\/$/.source]: { path: '/api/app-check/challenge/' },
  [/^\/fragments\/home\/[^/]+\/$/.source]: { path: '/fragments/home/nope/' },
  [/^\/api\/errors\/$/.source]: { path: '/api/errors/', body: { t: 'e', m: 'not the shape' } },
  [/^\/my\/account\/$/.source]: { path: '/my/account/', body: { action: 'name', name: 'Counted' } },
  [/^\/my\/account\/delete\/$/.source]: { path: '/my/account/delete/', body: { current: 'not-the-password', confirm: '1' } },
  [/^\/my\/account\/export\/$/.source]: { path: '/my/account/export/' },
  [/^\/my\/notifications\/(notify|read|settings)\/$/.source]: { path: '/my/notifications/read/', body: { id: 'nope' } },
  [/^\/my\/notifications\/push\/$/.source]: { path: '/my/notifications/push/', body: { endpoint: 'http://169.254.169.254/' } },
  [/^\/my\/notifications\/quiet\/$/.source]: { path: '/my/notifications/quiet/', body: { start: '22', end: '8' } },
  [/^\/api\/comments\/item\/[^/]+\/(report|mute)\/$/.source]: { path: '/api/comments/item/1/report/', body: { reason: 'spam' } },
  [/^\/api\/comments\/mutes\/[^/]+\/$/.source]: { path: '/api/comments/mutes/1/' },
  [/^\/comments\/item\/[^/]+\/(report|mute)\/$/.source]: { path: '/comments/item/1/report/', body: { reason: 'spam' } },
  [/^\/comments\/muted\/$/.source]: { path: '/comments/muted/', body: { user: '1' } },
  [/^\/studio\/moderation\/(bans\/|words\/)?$/.source]: { path: '/studio/moderation/words/', body: { action: 'add', word: 'counted' } },
};

const limited = ROUTES.filter((r): r is RoutePolicy & { limit: { name: keyof typeof LIMITS; anyone?: boolean } } => !('exempt' in r.limit));

/** A form post with a solved bot-check token, in the header and (for the checkout's own submission) the form. */
async function post(server: ServerClient, who: Reader, path: string, fields: Record<string, string>) {
  const check = await appCheckToken(server, who, 'en');
  return server.request(path, { method: 'POST', body: new URLSearchParams({ ...fields, app_check: check }).toString(), headers: { 'content-type': FORM, origin: server.origin('en'), cookie: who.cookie, 'x-app-check': check } });
}

/**
 * One counted call of a route. The form that works without JavaScript gets a token, so that only
 * the route limit counts here (its token-free quota is tested in app-check.test.ts); the other
 * money calls go without, and those the limit lets through are refused by the bot check (403).
 */
async function call(server: ServerClient, route: RoutePolicy, who: Reader | null, site: 'en' | 'br' = 'en'): Promise<TestResponse> {
  const sample = SAMPLES[route.path.source]!;
  const method = route.methods[0]!;
  const check: Record<string, string> = who && route.appCheck === 'beyond-rate' ? { 'x-app-check': await appCheckToken(server, who, site) } : {};
  const headers: Record<string, string> = { origin: server.origin(site), ...(who ? { cookie: who.cookie } : {}), ...check };
  if (method === 'GET') return server.request(sample.path, { site, headers });
  const json = route.path.source.includes('add-comic');
  return server.request(sample.path, {
    method, site,
    body: json ? JSON.stringify({ comic_id: 'SER-nope' }) : new URLSearchParams(sample.body ?? {}).toString(),
    headers: { ...headers, 'content-type': json ? 'application/json' : FORM },
  });
}

it('has a sample request for every limited route (a new route needs one here)', () => {
  for (const r of limited) expect(SAMPLES[r.path.source], String(r.path)).toBeDefined();
});

for (const dialect of selectedDialects()) {
  describe(`the one limiter (${dialect})`, () => {
    const server = useServer(dialect);

    // Signing out ends the session the burst carries, so that route is checked by address only (below).
    it.each(limited.filter((r) => !r.path.test('/auth/logout/')).map((r) => [`${r.methods[0]} ${SAMPLES[r.path.source]?.path}`, r] as const))('%s: one reader\'s burst past the limit gets exactly its documented number through', async (_name, route) => {
      const { max } = LIMITS[route.limit.name];
      const reader = await createReader(server, { site: 'br' });
      const burst = max + 12;
      const answers = await Promise.all(Array.from({ length: burst }, () => call(server, route, reader, 'br')));
      const refused = answers.filter((a) => a.status === 429);
      expect(answers.filter((a) => a.status >= 500).map((a) => a.text.slice(0, 200))).toEqual([]);
      expect(refused).toHaveLength(burst - max);
      const first = refused[0]!;
      expect(Number(first.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(first.headers['retry-after'])).toBeLessThanOrEqual(LIMITS[route.limit.name].window);
      // The refusal is in the site's language, in the shape the route's callers read.
      const words = route.limit.name === 'payments' || route.limit.name === 'charges' ? 'purchase.error.rate' : 'error.rateLimited';
      const text = message('pt-BR', words, { minutes: Math.max(1, Math.ceil(Number(first.headers['retry-after']) / 60)) });
      if (route.answer === 'json') expect(first.json()).toMatchObject({ detail: text, success: false });
      else expect(first.text).toContain(route.answer === 'page' ? text.replace(/'/g, '&#39;') : text);
    });

    it.each(limited.filter((r) => r.limit.anyone).map((r) => [SAMPLES[r.path.source]?.path ?? String(r.path), r] as const))('%s: callers who are not signed in are counted by their address', async (_name, route) => {
      await withDb(server, (db) => db.deleteFrom('rate_limits').where('bucket', 'like', `route:${route.limit.name}:ip:%`).execute());
      const { max } = LIMITS[route.limit.name];
      const answers = await Promise.all(Array.from({ length: max + 5 }, () => call(server, route, null)));
      expect(answers.filter((a) => a.status === 429)).toHaveLength(5);
      await withDb(server, (db) => db.deleteFrom('rate_limits').where('bucket', 'like', `route:${route.limit.name}:ip:%`).execute());
    });

    it('five declined card payments in an hour pause card payment for that reader for an hour, saying so; others pay on', async () => {
      const reader = await createReader(server);
      const other = await createReader(server);
      const expiry = `12/${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`;
      const pay = async (who: Reader, number: string) => {
        const issued = await post(server, who, '/payments/sandbox/nonce/', { method: 'card', number, expiry, cvv: '123' });
        expect(issued.status).toBe(200);
        return post(server, who, '/my/purchase/checkout/', { pack: 'starter', method: 'card', nonce: (issued.json() as { nonce: string }).nonce, next: '/' });
      };
      for (let i = 0; i < LIMITS.cardDeclines.max; i++) {
        const declined = await pay(reader, '4000111111111115');
        expect(declined.status).toBe(402);
        expect(declined.text).toContain(message('en', 'purchase.error.declined'));
      }
      const paused = await pay(reader, '4111111111111111');
      expect(paused.status).toBe(429);
      const wait = Number(paused.headers['retry-after']);
      expect(wait).toBeGreaterThan(LIMITS.cardPause.window - 120);
      expect(wait).toBeLessThanOrEqual(LIMITS.cardPause.window);
      expect(paused.text).toContain(message('en', 'purchase.error.cardPaused', { minutes: Math.ceil(wait / 60) }));
      const subscribe = await post(server, reader, '/my/subscribe/card/', { tier_id: 'reader', method: 'card', nonce: 'anything' });
      expect(subscribe.status).toBe(429);
      // Nothing was charged while paused, and another reader is not paused.
      expect(await withDb(server, (db) => db.selectFrom('orders').select('state').where('user_id', '=', reader.id).where('state', '=', 'PAID').execute())).toEqual([]);
      expect((await pay(other, '4111111111111111')).status).toBe(303);
    });

    it('HEAD on a poll counts as its GET (it asks the provider just the same)', async () => {
      const reader = await createReader(server);
      const heads = await Promise.all(Array.from({ length: LIMITS.polls.max }, () => server.request('/my/purchase/pix/ordnope/', { method: 'HEAD', headers: { cookie: reader.cookie } })));
      expect(heads.filter((h) => h.status === 429)).toEqual([]);
      expect((await server.request('/my/purchase/pix/ordnope/', { headers: { cookie: reader.cookie } })).status).toBe(429);
    });

    it('another reader is not slowed down by one who hit the limit', async () => {
      const route = limited.find((r) => r.limit.name === 'unlocks' && r.path.test('/api/redeem/'))!;
      const [a, b] = [await createReader(server), await createReader(server)];
      await Promise.all(Array.from({ length: LIMITS.unlocks.max + 1 }, () => call(server, route, a)));
      expect((await call(server, route, a)).status).toBe(429);
      expect((await call(server, route, b)).status).not.toBe(429);
    });
  });
}
