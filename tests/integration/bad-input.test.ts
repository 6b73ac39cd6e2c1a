/**
 * What an attacker or a broken client can send to every public route: unknown ids, hostile
 * query strings, broken percent-encoding, path traversal, huge segments and wrong methods.
 * The server must never answer 5xx, never leak a stack trace or a file path, never serve a
 * file from outside the build, never reflect markup, never redirect off-site, and must answer
 * unknown things with 404 (an HTML page, or JSON {"detail": ...} under /sapi/ and /api/).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import {
  ROOT, anySeries, clearAddressLimits, leakIn, selectedDialects, useServer,
  type RequestOptions, type SeriesSample, type ServerClient, type TestResponse,
} from './harness';

interface Route {
  name: string;
  /** The file under src/pages that answers it (the guard test checks every file is listed). */
  file: string;
  /** Path without query. */
  path: string;
  /** Query the route needs, without "?" (may be empty). */
  query: string;
  kind: 'html' | 'json' | 'text';
  /** Indexes (in path.split('/')) of the segments that come from data: slug, id, chapter. */
  dynamic?: number[];
  /** Mutation-only routes: probed with hostile bodies instead of hostile GETs. */
  method?: 'POST' | 'DELETE';
  /** Pages that are also forms: they take POST as well as GET. */
  form?: true;
}

interface Probe {
  path: string;
  options?: RequestOptions;
  /** What must hold besides "no 5xx, no leak, no off-site redirect". */
  expect?: 'notFound' | 'clientError';
}

const XSS = '<script>alert(1)</script>';
const SECRETS = [/"name":\s*"inkpass"/, /root:x:0:0/, /DATABASE_URL/, /INKPASS_SECRET/, /-----BEGIN [A-Z ]*PRIVATE KEY/];

/** Every route of the site (pages that read data are probed with hostile input; see the guard test below). */
function routesFor(s: SeriesSample): Route[] {
  const ch = s.chapter;
  return [
    { name: 'home', file: 'index.astro', path: '/', query: '', kind: 'html' },
    { name: 'about', file: 'about.astro', path: '/about/', query: '', kind: 'html' },
    { name: 'terms', file: 'terms.astro', path: '/terms/', query: '', kind: 'html' },
    { name: 'privacy', file: 'privacy.astro', path: '/privacy/', query: '', kind: 'html' },
    { name: 'app box', file: 'app.astro', path: '/app/', query: '', kind: 'html' },
    { name: 'not found page', file: '404.astro', path: '/404/', query: '', kind: 'html' },
    { name: 'server error page', file: '500.astro', path: '/500/', query: '', kind: 'html' },
    { name: 'listing', file: 'comics/index.astro', path: '/comics/', query: '', kind: 'html' },
    { name: 'listing fragment', file: 'comics/fragment.astro', path: '/comics/fragment/', query: '', kind: 'html' },
    { name: 'home block fragment', file: 'fragments/home/[block].astro', path: '/fragments/home/latest/', query: '', kind: 'html', dynamic: [3] },
    { name: 'series page', file: 'comics/[slug].astro', path: `/comics/${s.slug}/`, query: '', kind: 'html', dynamic: [2] },
    ...(ch ? [
      { name: 'reader', file: 'read/[slug]/[id]/[chapter].astro', path: ch.readerPath, query: '', kind: 'html' as const, dynamic: [2, 3, 4] },
      { name: 'paywall', file: 'read/[slug]/[id]/[chapter]/paywall.astro', path: `${ch.readerPath}paywall/`, query: '', kind: 'html' as const, dynamic: [2, 3, 4] },
      { name: 'reader manifest', file: 'api/reader/[e4pid]/manifest.ts', path: `/api/reader/${ch.e4pid}/manifest`, query: '', kind: 'json' as const, dynamic: [3] },
      { name: 'comments page', file: 'comments/[e4pid]/index.astro', path: `/comments/${ch.e4pid}/`, query: '', kind: 'html' as const, form: true as const, dynamic: [2] },
      { name: 'comments fragment (under the reader)', file: 'comments/[e4pid]/fragment.astro', path: `/comments/${ch.e4pid}/fragment/`, query: '', kind: 'html' as const, dynamic: [2] },
      { name: 'comments API', file: 'api/comments/[e4pid]/index.ts', path: `/api/comments/${ch.e4pid}/`, query: '', kind: 'json' as const, dynamic: [3] },
      { name: 'chapter page image', file: 'media/p/[e4pid]/[page].ts', path: `/media/p/${ch.e4pid}/0.webp`, query: 'exp=1&sig=00', kind: 'text' as const, dynamic: [3, 4] },
    ] : []),
    { name: 'schedule', file: 'schedule/index.astro', path: '/schedule/', query: '', kind: 'html' },
    { name: 'genres', file: 'genres/index.astro', path: '/genres/', query: '', kind: 'html' },
    { name: 'new series', file: 'new/index.astro', path: '/new/', query: '', kind: 'html' },
    { name: 'top', file: 'top/index.astro', path: '/top/', query: '', kind: 'html' },
    { name: 'latest updates', file: 'updates/index.astro', path: '/updates/', query: '', kind: 'html' },
    { name: 'collection', file: 'collections/[slug].astro', path: '/collections/staff-picks/', query: '', kind: 'html', dynamic: [2] },
    { name: 'calendar', file: 'calendario/index.astro', path: '/calendario/', query: '', kind: 'html' },
    { name: 'login', file: 'auth/login/index.astro', path: '/auth/login/', query: '', kind: 'html', form: true },
    { name: 'password confirmation', file: 'auth/confirm/index.astro', path: '/auth/confirm/', query: '', kind: 'html', form: true },
    { name: 'sign-up', file: 'auth/signup/index.astro', path: '/auth/signup/', query: '', kind: 'html', form: true },
    { name: 'forgotten password', file: 'auth/password/forgot/index.astro', path: '/auth/password/forgot/', query: '', kind: 'html', form: true },
    { name: 'password reset link', file: 'auth/password/reset/[token]/index.astro', path: '/auth/password/reset/not-a-token/', query: '', kind: 'html', form: true, dynamic: [4] },
    { name: 'email change link', file: 'auth/email/confirm/[token]/index.astro', path: '/auth/email/confirm/not-a-token/', query: '', kind: 'html', form: true, dynamic: [4] },
    { name: 'account page', file: 'my/account/index.astro', path: '/my/account/', query: '', kind: 'html', form: true },
    { name: 'data export', file: 'my/account/export.ts', path: '/my/account/export/', query: 'format=xml&page=-1', kind: 'json' },
    { name: 'account deletion', file: 'my/account/delete.astro', path: '/my/account/delete/', query: 'done=<b>1</b>', kind: 'html', form: true },
    { name: 'demo outbox', file: 'dev/outbox/index.astro', path: '/dev/outbox/', query: '', kind: 'html' },
    { name: 'demo outbox message', file: 'dev/outbox/[id].astro', path: '/dev/outbox/123/', query: '', kind: 'html', dynamic: [3] },
    { name: 'logout prompt', file: 'auth/logout/index.ts', path: '/auth/logout/', query: '', kind: 'html', form: true },
    { name: 'logout page', file: 'auth/logout/confirm.astro', path: '/auth/logout/confirm/', query: '', kind: 'html' },
    { name: 'favorites page', file: 'my/favorites/index.astro', path: '/my/favorites/', query: '', kind: 'html' },
    { name: 'history page', file: 'my/history.astro', path: '/my/history/', query: '', kind: 'html' },
    { name: 'notifications inbox', file: 'my/notifications/index.astro', path: '/my/notifications/', query: 'page=2', kind: 'html' },
    { name: 'notification settings', file: 'my/notifications/settings.astro', path: '/my/notifications/settings/', query: 'saved=1', kind: 'html', form: true },
    { name: 'keys page', file: 'my/keys.astro', path: '/my/keys/', query: 'page=2', kind: 'html' },
    { name: 'credits (the keys page)', file: 'my/credits.ts', path: '/my/credits/', query: 'page=2', kind: 'text' },
    { name: 'reading log (the history)', file: 'my/log.ts', path: '/my/log/', query: '', kind: 'text' },
    { name: 'favorites list API', file: 'api/favorites/index.ts', path: '/api/favorites/', query: '', kind: 'json' },
    { name: 'history API', file: 'api/house/history/me.ts', path: '/api/house/history/me', query: 'limit=25&skip=0&token=x', kind: 'json' },
    { name: 'app token', file: 'sapi/app/token.ts', path: '/sapi/app/token', query: 'ttl=3600', kind: 'json' },
    { name: 'sapi comics', file: 'sapi/comics/index.ts', path: '/sapi/comics', query: 'ordering=-last_updated', kind: 'json' },
    { name: 'sapi comic', file: 'sapi/comics/[e4pid].ts', path: `/sapi/comics/${s.e4pid}`, query: '', kind: 'json', dynamic: [3] },
    { name: 'api comic', file: 'api/comic.public/[ref]/index.ts', path: `/api/comic.public/${s.id}`, query: '', kind: 'json', dynamic: [3] },
    { name: 'api episodes', file: 'api/comic.public/[ref]/episodes.ts', path: `/api/comic.public/${s.id}/episodes`, query: 'language=en', kind: 'json', dynamic: [3] },
    { name: 'api episodes signed in', file: 'api/comic/[ref]/episodes.ts', path: `/api/comic/${s.id}/episodes`, query: 'language=en&token=x', kind: 'json', dynamic: [3] },
    { name: 'search suggestions', file: 'search/suggest/index.ts', path: '/search/suggest', query: 'q=ab&site_id=1', kind: 'json' },
    { name: 'card reel', file: 'home/reel/[e4pid].ts', path: `/home/reel/${s.e4pid}/`, query: '', kind: 'json', dynamic: [3] },
    { name: 'relay updates', file: 'relay/consumer/[publisher]/series/[ids]/updates.ts', path: `/relay/consumer/inkpass/series/${s.id}/updates`, query: 'clientid=it&after=1', kind: 'json', dynamic: [3, 5] },
    { name: 'relay futures', file: 'relay/consumer/[publisher]/series/[ids]/futures.ts', path: `/relay/consumer/inkpass/series/${s.id}/futures`, query: 'clientid=it&before=1', kind: 'json', dynamic: [3, 5] },
    { name: 'site feed', file: 'feeds/[file].ts', path: '/feeds/latest.xml', query: '', kind: 'text', dynamic: [2] },
    { name: 'series feed', file: 'feeds/comics/[file].ts', path: `/feeds/comics/${s.slug}.xml`, query: '', kind: 'text', dynamic: [3] },
    { name: 'public image', file: 'media/[...key].ts', path: '/media/series/nope/cover.webp', query: 's=175x250', kind: 'text', dynamic: [2, 3, 4] },
    { name: 'robots', file: 'robots.txt.ts', path: '/robots.txt', query: '', kind: 'text' },
    { name: 'web app manifest', file: 'manifest.webmanifest.ts', path: '/manifest.webmanifest', query: '', kind: 'json' },
    { name: 'sitemap', file: 'sitemap.xml.ts', path: '/sitemap.xml', query: '', kind: 'text' },
    { name: 'readiness', file: 'readyz.ts', path: '/readyz/', query: '', kind: 'text' },
    { name: 'series sitemap', file: 'sitemap-series.xml.ts', path: '/sitemap-series.xml', query: '', kind: 'text' },
    { name: 'chapter sitemap', file: 'sitemaps/[file].ts', path: '/sitemaps/chapters-0.xml', query: '', kind: 'text', dynamic: [2] },
    { name: 'theme form', file: 'prefs/theme.ts', path: '/prefs/theme/', query: '', kind: 'text', method: 'POST' },
    { name: 'age confirmation form', file: 'prefs/adult.ts', path: '/prefs/adult/', query: '', kind: 'text', method: 'POST' },
    { name: 'favorite toggle form', file: 'my/favorites/toggle.ts', path: '/my/favorites/toggle/', query: '', kind: 'text', method: 'POST' },
    { name: 'notify switch form', file: 'my/notifications/notify.ts', path: '/my/notifications/notify/', query: '', kind: 'text', method: 'POST' },
    { name: 'mark read form', file: 'my/notifications/read.ts', path: '/my/notifications/read/', query: '', kind: 'text', method: 'POST' },
    { name: 'push subscription API', file: 'my/notifications/push.ts', path: '/my/notifications/push/', query: '', kind: 'json', method: 'POST' },
    { name: 'quiet hours form', file: 'my/notifications/quiet.ts', path: '/my/notifications/quiet/', query: '', kind: 'text', method: 'POST' },
    { name: 'service worker', file: 'sw.js.ts', path: '/sw.js', query: '', kind: 'text' },
    { name: 'favorite API', file: 'api/favorites/[e4pid].ts', path: `/api/favorites/${s.e4pid}`, query: '', kind: 'json', method: 'POST', dynamic: [3] },
    { name: 'comment API', file: 'api/comments/item/[id]/index.ts', path: '/api/comments/item/1/', query: '', kind: 'json', method: 'DELETE', dynamic: [4] },
    { name: 'comment like API', file: 'api/comments/item/[id]/like.ts', path: '/api/comments/item/1/like/', query: '', kind: 'json', method: 'POST', dynamic: [4] },
    { name: 'comment report API', file: 'api/comments/item/[id]/report.ts', path: '/api/comments/item/1/report/', query: '', kind: 'json', method: 'POST', dynamic: [4] },
    { name: 'comment mute API', file: 'api/comments/item/[id]/mute.ts', path: '/api/comments/item/1/mute/', query: '', kind: 'json', method: 'POST', dynamic: [4] },
    { name: 'muted readers API', file: 'api/comments/mutes/index.ts', path: '/api/comments/mutes/', query: '', kind: 'json' },
    { name: 'mute reader API', file: 'api/comments/mutes/[user].ts', path: '/api/comments/mutes/1/', query: '', kind: 'json', method: 'DELETE', dynamic: [4] },
    { name: 'comment report form', file: 'comments/item/[id]/report.astro', path: '/comments/item/1/report/', query: '', kind: 'html', method: 'POST', dynamic: [3] },
    { name: 'comment mute form', file: 'comments/item/[id]/mute.astro', path: '/comments/item/1/mute/', query: '', kind: 'html', method: 'POST', dynamic: [3] },
    { name: 'muted readers page', file: 'comments/muted.astro', path: '/comments/muted/', query: '', kind: 'html', form: true },
    { name: 'progress API', file: 'api/progress/index.ts', path: '/api/progress/', query: '', kind: 'json', method: 'POST' },
    { name: 'error tunnel', file: 'api/errors/index.ts', path: '/api/errors/', query: '', kind: 'json', method: 'POST' },
    { name: 'bot check challenge', file: 'api/app-check/challenge.ts', path: '/api/app-check/challenge/', query: '', kind: 'json' },
    { name: 'redeem API', file: 'api/redeem/index.ts', path: '/api/redeem/', query: '', kind: 'json', method: 'POST' },
    { name: 'unlock form', file: 'unlock.ts', path: '/unlock/', query: '', kind: 'text', method: 'POST' },
    { name: 'daily pass API', file: 'api/daily-pass/index.ts', path: '/api/daily-pass/', query: '', kind: 'json', method: 'POST' },
    { name: 'ad start API', file: 'api/ads/start/index.ts', path: '/api/ads/start/', query: '', kind: 'json', method: 'POST' },
    { name: 'ad complete API', file: 'api/ads/complete/index.ts', path: '/api/ads/complete/', query: '', kind: 'json', method: 'POST' },
    { name: 'key packs page', file: 'my/purchase/index.astro', path: '/my/purchase/', query: 'next=/comics/', kind: 'html' },
    { name: 'checkout page', file: 'my/purchase/checkout/index.astro', path: '/my/purchase/checkout/', query: 'pack=popular', kind: 'html', form: true },
    { name: 'purchases page', file: 'my/purchases/index.astro', path: '/my/purchases/', query: 'page=2&withdrawn=ordnope', kind: 'html' },
    { name: 'withdrawal form', file: 'my/purchases/[id]/withdraw/index.astro', path: '/my/purchases/ordnope/withdraw/', query: '', kind: 'html', method: 'POST', dynamic: [3] },
    { name: 'receipt page', file: 'my/purchases/[id]/receipt/index.astro', path: '/my/purchases/ordnope/receipt/', query: '', kind: 'html', dynamic: [3] },
    { name: 'plans page', file: 'plans/index.astro', path: '/plans/', query: 'tier=leitor', kind: 'html' },
    { name: 'subscriptions page', file: 'my/subscriptions/index.astro', path: '/my/subscriptions/', query: '', kind: 'html' },
    { name: 'coupon API', file: 'my/purchase/coupon/index.ts', path: '/my/purchase/coupon/', query: '', kind: 'text', method: 'POST' },
    { name: 'Pix charge API', file: 'my/purchase/pix/index.ts', path: '/my/purchase/pix/', query: '', kind: 'text', method: 'POST' },
    { name: 'Pix status API', file: 'my/purchase/pix/[id].ts', path: '/my/purchase/pix/ordnope/', query: '', kind: 'json', dynamic: [4] },
    { name: 'purchase favorite API', file: 'api/purchases/[id]/favorite.ts', path: '/api/purchases/ordnope/favorite/', query: '', kind: 'json', method: 'POST', dynamic: [3] },
    { name: 'sandbox nonce API', file: 'payments/sandbox/nonce.ts', path: '/payments/sandbox/nonce/', query: '', kind: 'json', method: 'POST' },
    { name: 'Pix webhook', file: 'webhooks/pix.ts', path: '/webhooks/pix/', query: '', kind: 'json', method: 'POST' },
    { name: 'subscription Pix API', file: 'my/subscribe/pix/index.ts', path: '/my/subscribe/pix/', query: '', kind: 'json', method: 'POST' },
    { name: 'subscription card API', file: 'my/subscribe/card/index.ts', path: '/my/subscribe/card/', query: '', kind: 'json', method: 'POST' },
    { name: 'subscription status API', file: 'my/subscribe/status/[check].ts', path: '/my/subscribe/status/subnope/', query: '', kind: 'json', dynamic: [4] },
    { name: 'cancel subscription form', file: 'my/subscriptions/cancel/index.ts', path: '/my/subscriptions/cancel/', query: '', kind: 'text', method: 'POST' },
    { name: 'add-comic API', file: 'api/subscription/add-comic.ts', path: '/api/subscription/add-comic', query: '', kind: 'json', method: 'POST' },
    { name: 'sapi add-comic API', file: 'sapi/subscription/add-comic.ts', path: '/sapi/subscription/add-comic', query: '', kind: 'json', method: 'POST' },
    { name: 'subscribe form', file: 'my/subscriptions/add/index.ts', path: '/my/subscriptions/add/', query: '', kind: 'text', method: 'POST' },
    { name: 'plan rental API', file: 'api/rent/index.ts', path: '/api/rent/', query: '', kind: 'json', method: 'POST' },
    { name: 'link generation (staff)', file: '[underscore]/dynamic_link.astro', path: '/_/dynamic_link', query: '', kind: 'json', method: 'POST' },
    { name: 'short link', file: 'l/[code].ts', path: '/l/AAAAAAAAAAAAAAAA', query: '', kind: 'html', dynamic: [2] },
    { name: 'studio home', file: 'studio/index.astro', path: '/studio/', query: '', kind: 'html' },
    { name: 'studio audit trail', file: 'studio/audit/index.astro', path: '/studio/audit/', query: 'person=cli&from=2026-01-01&page=2', kind: 'html' },
    { name: 'studio staff', file: 'studio/staff/index.astro', path: '/studio/staff/', query: '', kind: 'html', form: true },
    { name: 'studio moderation', file: 'studio/moderation/index.astro', path: '/studio/moderation/', query: 'comment=abc&page=-1', kind: 'html', form: true },
    { name: 'studio moderation bans', file: 'studio/moderation/bans/index.astro', path: '/studio/moderation/bans/', query: '', kind: 'html', form: true },
    { name: 'studio moderation words', file: 'studio/moderation/words/index.astro', path: '/studio/moderation/words/', query: '', kind: 'html', form: true },
    { name: 'studio prices', file: 'studio/prices/index.astro', path: '/studio/prices/', query: 'q=x', kind: 'html' },
    { name: 'studio series prices', file: 'studio/prices/[series].astro', path: '/studio/prices/1/', query: 'at=2026-01-01T00:00', kind: 'html', dynamic: [3] },
    { name: 'studio campaign', file: 'studio/prices/campaigns/[id].astro', path: '/studio/prices/campaigns/new/', query: 'series=1&preview=1&discount=abc', kind: 'html', form: true, dynamic: [4] },
    { name: 'studio payments', file: 'studio/payments/index.astro', path: '/studio/payments/', query: 'done=dismissed', kind: 'html', form: true },
    { name: 'studio payment', file: 'studio/payments/[id].astro', path: '/studio/payments/ordnope/', query: 'done=confirmed', kind: 'html', form: true, dynamic: [3] },
    { name: 'studio chapter offer', file: 'studio/prices/chapter/[id].astro', path: '/studio/prices/chapter/1/', query: '', kind: 'html', form: true, dynamic: [4] },
    { name: 'studio readers', file: 'studio/readers/index.astro', path: '/studio/readers/', query: 'q=someone', kind: 'html' },
    { name: 'studio reader', file: 'studio/readers/[id]/index.astro', path: '/studio/readers/1/', query: 'ledger=2&orders=2', kind: 'html', dynamic: [3] },
    { name: 'studio reader grant', file: 'studio/readers/[id]/grant.astro', path: '/studio/readers/1/grant/', query: '', kind: 'html', form: true, dynamic: [3] },
    { name: 'studio reader sign-out', file: 'studio/readers/[id]/sign-out.astro', path: '/studio/readers/1/sign-out/', query: '', kind: 'html', form: true, dynamic: [3] },
    { name: 'studio shop', file: 'studio/shop/index.astro', path: '/studio/shop/', query: '', kind: 'html' },
    { name: 'studio shop item', file: 'studio/shop/[kind]/[id].astro', path: '/studio/shop/packs/new/', query: '', kind: 'html', form: true, dynamic: [3, 4] },
    { name: 'studio new chapter', file: 'studio/chapters/new/index.astro', path: '/studio/chapters/new/', query: `series=${s.id}`, kind: 'html', form: true },
    { name: 'studio chapter draft', file: 'studio/chapters/drafts/[id]/index.astro', path: '/studio/chapters/drafts/1/', query: '', kind: 'html', form: true, dynamic: [4] },
    { name: 'studio draft upload', file: 'studio/chapters/drafts/[id]/pages/index.astro', path: '/studio/chapters/drafts/1/pages/', query: '', kind: 'html', form: true, dynamic: [4] },
    { name: 'studio draft preview', file: 'studio/chapters/drafts/[id]/preview.astro', path: '/studio/chapters/drafts/1/preview/', query: '', kind: 'html', dynamic: [4] },
    { name: 'studio draft page image', file: 'studio/chapters/drafts/[id]/pages/[position].ts', path: '/studio/chapters/drafts/1/pages/1/', query: '', kind: 'text', dynamic: [4, 6] },
    { name: 'studio series list', file: 'studio/series/index.astro', path: '/studio/series/', query: 'q=a&state=DRAFT&page=2', kind: 'html' },
    { name: 'studio new series', file: 'studio/series/new/index.astro', path: '/studio/series/new/', query: '', kind: 'html', form: true },
    { name: 'studio series editor', file: 'studio/series/[id]/index.astro', path: `/studio/series/${s.id}/`, query: '', kind: 'html', form: true },
    { name: 'studio series images', file: 'studio/series/[id]/images/index.astro', path: `/studio/series/${s.id}/images/`, query: '', kind: 'html', form: true },
  ];
}

function withQuery(route: Route, extra: string): string {
  const q = [route.query, extra].filter(Boolean).join('&');
  return q ? `${route.path}?${q}` : route.path;
}

/** Malformed query strings, appended to whatever the route needs. */
const QUERIES = [
  'page=-1', 'page=0', 'page=999999999', 'page=99999999999999999999999', 'page=abc', 'page=1.5', 'page=1e3',
  'page=1&page=2', 'page=', 'page', 'page[]=1', 'page=%00', 'page=%',
  `q=${'a'.repeat(10_000)}`, `q=${'%41'.repeat(3_400)}`,
  'q=%', 'q=%E0%A4%A', 'q=%FF%FE%FD', 'q=%C0%AF', `q=${encodeURIComponent(XSS)}`, "q='%20OR%201=1%20--",
  'ordering=bogus', 'ordering=-last_updated;drop%20table%20series', 'ordering=name&ordering=-name',
  'language=xx', 'language=', `language=${encodeURIComponent(XSS)}`, 'language=en&language=pt-br', 'language=../../etc',
  'filter=a&filter=b&filter=c', 'order=bogus', 'view=%00', 'site_id=99', 'site_id=-1', 'site_id=abc', 'show_all_sites=maybe',
  'limit=-5', 'limit=1000000', 'skip=-1',
  // Values PostgreSQL cannot take where SQLite would: ids and counts past 2^31, NUL in text.
  'page=2147483648', 'skip=2147483648', 'limit=4294967296', 'q=%00', 'q=ab%00cd', 'language=en%00', 'filter=%00', 'after=99999999999', 'before=2147483648',
];

/** Malformed path tails, appended to a route's path. */
const PATH_TAILS = [
  '%E0%A4%A/', '%/', '%%/', '%00/', '%2e%2e/%2e%2e/%2e%2e/etc/passwd', '..%2f..%2f..%2fpackage.json',
  '../../../../../etc/passwd', `${'x'.repeat(5_000)}/`, `${'%C3%A9'.repeat(800)}/`, `${encodeURIComponent(XSS)}/`,
];

/** Whole paths an attacker tries, independent of routes. */
const ATTACK_PATHS = [
  '/../../../../etc/passwd', '/..%2f..%2f..%2f..%2fetc%2fpasswd', '/%2e%2e/%2e%2e/%2e%2e/package.json',
  '/_astro/../../package.json', '/_astro/..%2f..%2fpackage.json', '/_astro/%2e%2e/%2e%2e/package.json',
  '/_astro/%E0%A4%A', '/_astro/%', '/_astro/', '/_astro/nope.js', '/%00', '/%', '/%E0%A4%A/',
  '//evil.example/', '//evil.example/%2f..', '/\\evil.example/', '/comics//evil.example/', '/comics/..',
  `/${'y'.repeat(8_000)}/`, '/dist/server/entry.mjs', '/.env', '/data/inkpass.db', '/package.json', '/.git/config',
];

function unknownProbes(s: SeriesSample): { path: string; kind: 'html' | 'json' }[] {
  const ch = s.chapter;
  const chapterTail = ch ? ch.readerPath.split('/').filter(Boolean).pop() : 'chapter-1';
  return [
    { path: '/comics/no-such-series-4b1d/', kind: 'html' },
    { path: '/comics/no-such-series-4b1d/extra/', kind: 'html' },
    { path: '/read/no-such-series-4b1d/123456/chapter-1/', kind: 'html' },
    { path: `/read/${s.slug}/999999999/${chapterTail}/`, kind: 'html' },
    { path: `/read/${s.slug}/NOT-AN-ID/${chapterTail}/`, kind: 'html' },
    { path: '/sapi/comics/SER-doesnotexist', kind: 'json' },
    { path: '/sapi/comics/0', kind: 'json' },
    { path: `/sapi/comics/${encodeURIComponent("SER-x' OR '1'='1")}`, kind: 'json' },
    { path: '/api/comic.public/999999999', kind: 'json' },
    { path: '/api/comic.public/99999999999999999999', kind: 'json' },
    { path: '/api/comic.public/2147483648', kind: 'json' },
    { path: '/api/comic.public/4294967296/episodes?language=en', kind: 'json' },
    { path: '/sapi/comics/2147483648', kind: 'json' },
    { path: '/api/comic.public/-1', kind: 'json' },
    { path: '/api/comic.public/0', kind: 'json' },
    { path: '/api/comic.public/abc', kind: 'json' },
    { path: '/api/comic.public/SER-doesnotexist', kind: 'json' },
    { path: '/api/comic.public/999999999/episodes?language=en', kind: 'json' },
    { path: '/api/comic.public/99999999999999999999/episodes?language=en', kind: 'json' },
    { path: '/api/comic.public/SER-doesnotexist/episodes?language=en', kind: 'json' },
    { path: '/l/AAAAAAAAAAAAAAAA', kind: 'html' },
    { path: '/l/not-a-code', kind: 'html' },
    { path: '/x/dynamic_link/', kind: 'html' },
  ];
}

// Only the selected dialects (INKPASS_IT_DIALECTS); both by default.
describe.each(selectedDialects())('%s', (dialect) => {
  const server = useServer(dialect);
  let s: SeriesSample;
  let all: Route[] = [];
  let routes: Route[] = [];

  beforeAll(async () => {
    const samples = await anySeries(server, 20);
    const found = samples.find((x) => x.languages.includes('en') && x.chapter) ?? samples[0];
    if (!found) throw new Error(`the seeded ${dialect} database has no active series`);
    s = found;
    all = routesFor(s);
    routes = all.filter((r) => !r.method);
  });

  // Hundreds of anonymous probes from 127.0.0.1 spend the per-address budgets: give them back,
  // or a file run within the minute after this one (the age gate, the cookie domain) gets 429s.
  afterAll(() => clearAddressLimits(server));

  /** Sends every probe; returns a readable list of what went wrong (empty when all is well). */
  async function check(probes: Probe[]): Promise<string[]> {
    const problems: string[] = [];
    for (const probe of probes) {
      const method = probe.options?.method ?? 'GET';
      const label = `${method} ${short(probe.path)}${probe.options?.site === 'br' ? ' [br]' : ''}`;
      let res: TestResponse;
      try {
        res = await server.request(probe.path, probe.options);
      } catch (e) {
        problems.push(`${label} → no usable answer: ${(e as Error).message}`);
        continue;
      }
      problems.push(...judge(label, probe, res, server));
    }
    return problems;
  }

  it('survives malformed query strings on every route', { timeout: 180_000 }, async () => {
    const probes: Probe[] = [];
    for (const route of routes) for (const q of QUERIES) probes.push({ path: withQuery(route, q) });
    // The Portuguese site takes the same beating on the pages.
    for (const route of routes.filter((r) => r.kind === 'html')) {
      for (const q of ['page=-1', 'page=abc', 'page=1&page=2', 'q=%E0%A4%A', `q=${'b'.repeat(10_000)}`]) {
        probes.push({ path: withQuery(route, q), options: { site: 'br' } });
      }
    }
    expect(await check(probes)).toEqual([]);
  });

  it('survives broken percent-encoding, traversal and huge segments in paths', { timeout: 180_000 }, async () => {
    const probes: Probe[] = [];
    for (const route of routes) {
      const base = route.path.endsWith('/') ? route.path : `${route.path}/`;
      for (const tail of PATH_TAILS) probes.push({ path: base + tail });
      // Inside each data-driven segment (slug, id, chapter).
      const segs = route.path.split('/');
      for (const i of route.dynamic ?? []) {
        for (const bad of ['%E0%A4%A', '%', '..', '%2e%2e', '-1', '99999999999999999999', '2147483648', '4294967296', '%00', 'x'.repeat(5_000)]) {
          const copy = [...segs];
          copy[i] = bad;
          probes.push({ path: withQuery({ ...route, path: copy.join('/') }, '') });
        }
      }
    }
    for (const p of ATTACK_PATHS) {
      probes.push({ path: p });
      probes.push({ path: p, options: { site: 'br', headers: { 'accept-encoding': 'br, gzip' } } });
    }
    expect(await check(probes)).toEqual([]);
  });

  it('answers unknown series, chapters and ids with 404 (HTML pages, JSON {detail} on APIs)', { timeout: 120_000 }, async () => {
    const probes: Probe[] = [];
    for (const u of unknownProbes(s)) {
      for (const site of ['en', 'br'] as const) probes.push({ path: u.path, options: { site }, expect: 'notFound' });
    }
    const problems = await check(probes);
    // The kind of 404 body: a page for pages, {"detail": "..."} for the APIs.
    for (const u of unknownProbes(s)) {
      const res = await server.request(u.path);
      if (res.status !== 404) continue; // already reported
      const type = res.headers['content-type'] ?? '';
      if (u.kind === 'html') {
        if (!/^text\/html/.test(type)) problems.push(`GET ${short(u.path)} → 404 with content-type "${type}", expected an HTML page`);
      } else {
        let detail: unknown;
        try { detail = res.json().detail; } catch { detail = undefined; }
        if (!/json/.test(type) || typeof detail !== 'string' || !detail) {
          problems.push(`GET ${short(u.path)} → 404 (${type}) without a JSON {"detail": "..."} body: ${short(res.text, 120)}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('refuses wrong methods on read-only routes with a 4xx', { timeout: 120_000 }, async () => {
    const probes: Probe[] = [];
    for (const route of routes) {
      const p = withQuery(route, '');
      const origin = server.origin('en');
      if (!route.form) {
        probes.push(
          { path: p, options: { method: 'POST', headers: { origin, 'content-type': 'application/x-www-form-urlencoded' }, body: 'page=1' }, expect: 'clientError' },
          { path: p, options: { method: 'POST', headers: { origin, 'content-type': 'application/json' }, body: '{"page":1}' }, expect: 'clientError' },
        );
      }
      probes.push(
        { path: p, options: { method: 'PUT', headers: { origin, 'content-type': 'application/json' }, body: '{}' }, expect: 'clientError' },
        { path: p, options: { method: 'DELETE', headers: { origin } }, expect: 'clientError' },
        { path: p, options: { method: 'PATCH', headers: { origin, 'content-type': 'application/json' }, body: '{}' }, expect: 'clientError' },
        // A cross-site form post (CSRF shape) must be refused too.
        { path: p, options: { method: 'POST', headers: { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' }, expect: 'clientError' },
        // HEAD is a read: it just must not break.
        { path: p, options: { method: 'HEAD' } },
      );
    }
    expect(await check(probes)).toEqual([]);
  });

  it('refuses hostile bodies on every mutation endpoint and form page with a 4xx (or its usual redirect)', { timeout: 120_000 }, async () => {
    const origin = server.origin('en');
    const FORM = 'application/x-www-form-urlencoded';
    const bodies: { type: string; body: string }[] = [
      { type: FORM, body: '' }, { type: FORM, body: 'a=%' }, { type: FORM, body: 'next=%ED%A0%80' }, { type: FORM, body: `x=${'%00'.repeat(3)}` },
      { type: FORM, body: 'next=//evil.example&next=/&current=dark' }, { type: FORM, body: `series=${'S'.repeat(10_000)}` },
      { type: 'application/json', body: '{' }, { type: 'application/json', body: '[]' }, { type: 'application/json', body: 'null' },
      { type: 'application/json', body: '{"e4pid":{"$ne":1},"completion":"NaN","seq":1e309}' }, { type: 'application/json', body: '['.repeat(3000) },
      { type: 'text/xml', body: '<x/>' }, { type: 'multipart/form-data', body: 'no boundary' }, { type: 'multipart/form-data; boundary=z', body: '--z\r\nbroken' },
    ];
    const probes: Probe[] = [];
    for (const route of all.filter((r) => r.method || r.form)) {
      for (const b of bodies) {
        probes.push({ path: route.path, options: { method: route.method ?? 'POST', body: b.body, headers: { origin, 'content-type': b.type } } });
      }
    }
    const problems = await check(probes);
    // Anything but a 4xx must be the endpoint's normal redirect (the theme and favorite forms
    // go back to a safe page even when `next` is junk; judge() already checked where to).
    for (const probe of probes) {
      const res = await server.request(probe.path, probe.options);
      if (res.status >= 400 && res.status < 500) continue;
      if (res.status === 303) continue;
      problems.push(`${probe.options?.method} ${probe.path} ${probe.options?.headers?.['content-type']} ${short(String(probe.options?.body))} → ${res.status}`);
    }
    expect(problems).toEqual([]);
  });

  it('lists every route of src/pages (a new route must join the probes above)', () => {
    const pagesDir = path.join(ROOT, 'src/pages');
    const files = fs.readdirSync(pagesDir, { recursive: true, encoding: 'utf8' })
      // Astro makes no route of a file or folder whose name starts with "_" (a page's helper module).
      .filter((f) => /\.(astro|ts)$/.test(f) && !/\.test\.ts$/.test(f) && !f.split(path.sep).some((part) => part.startsWith('_')))
      .map((f) => f.split(path.sep).join('/'))
      .sort();
    const listed = new Set(all.map((r) => r.file));
    expect(files.filter((f) => !listed.has(f))).toEqual([]);
    expect([...listed].filter((f) => !files.includes(f))).toEqual([]);
  });

  it('does not break on hostile headers', { timeout: 120_000 }, async () => {
    const probes: Probe[] = [];
    const hostile: Record<string, string>[] = [
      { cookie: 'inkpass_session=%E0%A4%A' },
      { cookie: `inkpass_session=${'z'.repeat(4_000)}` },
      { cookie: 'inkpass_session=a.b.c; inkpass_session=d; theme=%' },
      { 'accept-language': 'x'.repeat(2_000) },
      { 'accept-encoding': 'br;q=abc, gzip;q=-1, *;q=0' },
      { 'if-none-match': '"' + 'w'.repeat(1_000) },
      { 'if-modified-since': 'not a date' },
      { 'x-forwarded-host': 'evil.example' },
      { 'x-forwarded-proto': 'gopher' },
      { range: 'bytes=99999999-0' },
    ];
    for (const route of routes) for (const headers of hostile) probes.push({ path: withQuery(route, ''), options: { headers } });
    expect(await check(probes)).toEqual([]);
  });
});

/** Everything that must hold for any answer to a hostile request. */
function judge(label: string, probe: Probe, res: TestResponse, server: ServerClient): string[] {
  const problems: string[] = [];
  const at = `${label} → ${res.status}`;
  if (res.status >= 500 || res.status < 100) problems.push(`${at}: server error${bodyHint(res)}`);
  const leak = leakIn(res.text) ?? leakIn(Object.values(res.headers).join('\n'));
  if (leak) problems.push(`${at}: leaks internals: …${leak}…`);
  for (const secret of SECRETS) if (secret.test(res.text)) problems.push(`${at}: serves a file it must not (${secret})`);
  const html = /^text\/html/.test(res.headers['content-type'] ?? '');
  // Inside a quoted attribute value the markup is inert (Astro escapes only quotes and &
  // there), so look for it in the document with attribute values removed.
  if (html && withoutAttributeValues(res.text).includes(XSS)) problems.push(`${at}: reflects ${XSS} unescaped in HTML`);
  // Pages are publicly cacheable, so a page built from an attacker's X-Forwarded-Host would be
  // served to everyone with links to the attacker's host (cache poisoning).
  if (probe.options?.headers?.['x-forwarded-host'] && res.text.includes('evil.example')) {
    problems.push(`${at}: builds links from the untrusted X-Forwarded-Host (…${around(res.text, 'evil.example')}…)`);
  }
  if (res.status >= 300 && res.status < 400 && res.headers.location) {
    const loc = res.headers.location;
    const target = safeUrl(loc, server.origin(probe.options?.site));
    const allowed = [new URL(server.origin('en')).host, new URL(server.origin('br')).host];
    if (!target || !allowed.includes(target.host) || /^[/\\]{2}/.test(loc)) {
      problems.push(`${at}: redirects off-site to ${short(loc)}`);
    }
  }
  if (probe.expect === 'notFound' && res.status !== 404) problems.push(`${at}: expected 404`);
  if (probe.expect === 'clientError' && !(res.status >= 400 && res.status < 500)) problems.push(`${at}: expected a 4xx`);
  return problems;
}

function withoutAttributeValues(html: string): string {
  return html.replace(/\s[\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*')/g, ' ');
}

function around(text: string, needle: string): string {
  const i = text.indexOf(needle);
  return text.slice(Math.max(0, i - 60), i + needle.length + 20);
}

function safeUrl(loc: string, base: string): URL | null {
  try { return new URL(loc, base); } catch { return null; }
}

function bodyHint(res: TestResponse): string {
  const text = res.text.replace(/\s+/g, ' ').trim();
  return text ? ` (${short(text, 160)})` : '';
}

function short(s: string, max = 90): string {
  return s.length > max ? `${s.slice(0, max)}…(${s.length} chars)` : s;
}
