import { defineMiddleware } from 'astro:middleware';
import { siteFromHost } from '~/lib/site';
import { createT } from '~/lib/i18n';
import { cookieScope } from '~/lib/cookies';
import { THEME_COOKIE_DARK, THEME_COOKIE_LITE, themeFromCookies } from '~/lib/theme';
import { ADULT_COOKIE, adultConfirmed } from '~/features/catalog';
import { config } from '~/server/config.mjs';
import { getDb } from '~/server/db';
import { maybeRefreshReleases } from '~/features/catalog/index.server';
import { maybeSettleDuePayments } from '~/features/commerce/index.server';
import { maybeFanOutReleases, maybeSendDigests, maybeSendPushes } from '~/features/notifications/index.server';
import { PERSONAL_COOKIES } from '~/server/page-cache.mjs';
import { runsMachineTimers } from '~/server/workers';
import { maybeDeliverMail } from '~/server/outbox';

/** How often the machine's timers are looked at when no request comes (each keeps its own pace). */
const MACHINE_TICK_MS = 10_000;
let ticking = false;

/**
 * The machine's background work, each step throttled to its own pace. Requests look first; a
 * timer started by the first one (the start-up probe's /readyz/, scripts/serve.mjs) looks too,
 * so a quiet site still releases, announces and expires on time.
 */
function machineTimers(now: number): void {
  if (!ticking) {
    ticking = true;
    setInterval(() => machineTimers(Math.floor(Date.now() / 1000)), MACHINE_TICK_MS).unref();
  }
  // Keep the denormalised release counters current as scheduled chapters come out (once a minute, in the background).
  maybeRefreshReleases(getDb, now);
  // Pix payments past their expiry stop being payable and give their coupon back (once a minute, in the background).
  maybeSettleDuePayments(getDb, now);
  // Readers with a favorite's notify switch on hear of released chapters (once a minute, in batches, in the background).
  maybeFanOutReleases(getDb, now);
  // Email digests of new chapters whose day or week is up (every 5 minutes, in batches, in the background).
  maybeSendDigests(getDb, now);
  // Queued email goes out over SMTP, retried with back-off while the server is unreachable (every 10 s, in the background).
  maybeDeliverMail(getDb, now);
  // Queued web pushes go out (every 5 s, in the background; nothing without VAPID keys).
  maybeSendPushes(getDb);
}

/** What every later step and page reads from `locals`: the site, its language, one "now" per request. */
export const context = defineMiddleware((ctx, next) => {
  const { request, locals, cookies } = ctx;
  // ctx.url.host is validated against security.allowedDomains (astro.config.mjs), and forwarded
  // headers reach Astro only from a trusted proxy (scripts/edge.mjs).
  // The log line names the route's pattern, never the URL (which may carry tokens). An error
  // page rendered for this request runs the middleware again: the route that failed is kept.
  if (locals.observe) locals.observe.route ??= ctx.routePattern;
  const site = siteFromHost(ctx.url.host);
  locals.site = site;
  locals.locale = site.locale;
  locals.t = createT(site.locale);
  locals.now = Math.floor(Date.now() / 1000);
  // Once per machine: with several workers only the one chosen runs these (src/server/workers.ts).
  if (runsMachineTimers) machineTimers(locals.now);
  locals.adultConfirmed = adultConfirmed(cookies.get(ADULT_COOKIE)?.value);
  // Every cookie this request sets takes this scope (COOKIE_DOMAIN shares them with the other site's host).
  locals.cookieScope = cookieScope(ctx.url.host, ctx.url.protocol === 'https:', config.cookieDomain);
  locals.theme = themeFromCookies(cookies.get(THEME_COOKIE_DARK)?.value, cookies.get(THEME_COOKIE_LITE)?.value);
  // Believed only from the header an operator says its CDN sets (COUNTRY_HEADER): any client can send one.
  const country = config.countryHeader ? (request.headers.get(config.countryHeader) ?? '').trim().toUpperCase() : '';
  locals.country = /^[A-Z]{2}$/.test(country) ? country : null;
  locals.personalized = PERSONAL_COOKIES.test(request.headers.get('cookie') ?? '');
  return next();
});
