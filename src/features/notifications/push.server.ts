/**
 * Web push (docs/notifications.md, "Web push"): a reader's browsers subscribe (VAPID, the
 * `web-push` library's encryption and signature), the fan-out and `notifyReader` queue a push in
 * the transaction that writes the inbox item, and the server's own worker sends the queue
 * outside any transaction, once per machine (src/server/workers.ts), never inside a request.
 *
 * - Only new inbox items push: a chapter folded into an item of the last 6 hours sends nothing.
 * - At most DAILY_PUSH_CAP pushes a reader per UTC day; quiet hours (default 22:00–08:00 in each
 *   subscription's zone) skip a device: the push is not sent to it, later or ever (the inbox keeps
 *   the item).
 * - 404/410 from the push service delete the subscription; other failures back off (1 min
 *   doubling to a day) and the push is not retried (it would be late; the inbox has it).
 * - The text is in the subscription's site's language, names the series and the chapter by
 *   number, never a chapter title.
 */
import webpush from 'web-push';
import type { DB } from '~/server/db';
import { config } from '~/server/config.mjs';
import { log } from '~/server/observe.mjs';
import { vapidKeys, type VapidKeys } from '~/server/vapid';
import { SITES, type SiteId } from '~/lib/site';
import { notificationsPath, readerPath } from '~/lib/paths';
import { findSeries } from '~/features/catalog/index.server';
import type { Format } from '~/features/catalog';
import {
  DAILY_PUSH_CAP, DEFAULT_QUIET, capDay, deviceLabel, inQuietHours, pushBackoffSeconds, pushEndpointAllowed, pushKeysValid, validTimeZone, type QuietHours,
} from './push-rules';
import type { Category } from './repository.server';
import * as repo from './repository-push.server';

/** A reader keeps at most this many browsers; an older one is dropped when a new one subscribes. */
export const MAX_SUBSCRIPTIONS = 10;
/** Pushes one pass takes at most. */
const BATCH = 100;
/** A push still queued this long after it was due is dropped (a late "chapter out" is noise; the inbox has it). */
export const STALE_SECONDS = 3600;
/** How long one push service call may take. */
const SEND_TIMEOUT_MS = 10_000;
/** How long a push service keeps a push for a device that is off (seconds). */
const TTL_SECONDS = 6 * 3600;

/** The public key browsers subscribe with, or null when this server sends no push. */
export function pushPublicKey(): string | null {
  return vapidKeys()?.publicKey ?? null;
}

// ---------------------------------------------------------------- subscriptions

export type SubscribeResult = { ok: true } | { ok: false; status: 400 | 422; reason: 'shape' | 'endpoint' | 'keys' };

/**
 * Saves the subscription a browser gave (`PushSubscription.toJSON()` plus `timeZone`), and turns
 * the reader's push on for new chapters. The endpoint must be a known push service (422).
 */
export async function savePushSubscription(db: DB, userId: number, body: unknown, ctx: { siteId: SiteId; userAgent: string; now: number }): Promise<SubscribeResult> {
  if (!body || typeof body !== 'object') return { ok: false, status: 400, reason: 'shape' };
  const b = body as { endpoint?: unknown; keys?: { p256dh?: unknown; auth?: unknown } | null; timeZone?: unknown };
  if (!pushEndpointAllowed(b.endpoint, config.push.endpointHosts)) return { ok: false, status: 422, reason: 'endpoint' };
  const keys = b.keys && typeof b.keys === 'object' ? b.keys : {};
  if (!pushKeysValid(keys.p256dh, keys.auth)) return { ok: false, status: 422, reason: 'keys' };
  await repo.upsertSubscription(db, {
    user_id: userId, endpoint: b.endpoint as string, p256dh: keys.p256dh as string, auth: keys.auth as string,
    time_zone: validTimeZone(b.timeZone, SITES[ctx.siteId].timeZone), site_id: ctx.siteId, device: deviceLabel(ctx.userAgent), now: ctx.now,
  });
  await repo.trimSubscriptions(db, userId, MAX_SUBSCRIPTIONS);
  await db.insertInto('notification_prefs').values({ user_id: userId, category: 'chapters', channel: 'push', enabled: 1 })
    .onConflict((oc) => oc.columns(['user_id', 'category', 'channel']).doUpdateSet({ enabled: 1 })).execute();
  return { ok: true };
}

/** Forgets this reader's subscription of `endpoint` (the browser unsubscribed). */
export async function removePushSubscription(db: DB, userId: number, endpoint: unknown): Promise<boolean> {
  if (typeof endpoint !== 'string' || endpoint.length > 2048) return false;
  return repo.deleteSubscription(db, userId, endpoint);
}

export async function pushDevices(db: DB, userId: number) {
  return (await repo.subscriptionsOf(db, userId)).map((s) => ({ device: s.device, createdAt: Number(s.created_at), lastSuccessAt: s.last_success_at == null ? null : Number(s.last_success_at) }));
}

/** Whether the reader said no to push for new chapters (a saved settings form without the box): then "notify me" asks nothing. */
export async function chapterPushRefused(db: DB, userId: number): Promise<boolean> {
  const row = await db.selectFrom('notification_prefs').select('enabled').where('user_id', '=', userId).where('category', '=', 'chapters').where('channel', '=', 'push').executeTakeFirst();
  return row !== undefined && Number(row.enabled) === 0;
}

export async function loadQuietHours(db: DB, userId: number): Promise<QuietHours> {
  const row = await repo.quietHoursRow(db, userId);
  return row ? { enabled: Number(row.enabled) === 1, startHour: Number(row.start_hour), endHour: Number(row.end_hour) } : { ...DEFAULT_QUIET };
}

export const saveQuietHours = repo.saveQuietHours;

// ---------------------------------------------------------------- queueing (inside the writer's transaction)

/** Queues a chapter push for the readers among `userIds` with push on for new chapters (no row is written for the others). */
export async function queueChapterPushes(db: DB, userIds: readonly number[], c: { seriesId: number; siteId: number | null }, data: string, now: number): Promise<void> {
  if (!pushPublicKey()) return;
  const on = await repo.pushOn(db, userIds, 'chapters');
  await repo.queuePushes(db, on.map((user_id) => ({ user_id, category: 'chapters' as const, kind: 'CHAPTER', series_id: c.seriesId, site_id: c.siteId, data, due_at: now })));
}

/** Queues a money or community push for one reader when their push is on for that category. */
export async function queueReaderPush(db: DB, userId: number, category: Category, kind: string, data: string, now: number): Promise<void> {
  if (!pushPublicKey()) return;
  if ((await repo.pushOn(db, [userId], category)).length === 0) return;
  await repo.queuePushes(db, [{ user_id: userId, category, kind, series_id: null, site_id: null, data, due_at: now }]);
}

// ---------------------------------------------------------------- sending (the worker, outside any transaction)

export interface PushMessage { title: string; body: string; url: string; tag: string }
type Subscription = Awaited<ReturnType<typeof repo.subscriptionsOf>>[number];
/** Sends one encrypted push; resolves to the push service's HTTP status (throws on a network error). */
export type PushSender = (sub: { endpoint: string; p256dh: string; auth: string }, payload: string, vapid: VapidKeys) => Promise<number>;

/**
 * web-push encrypts (aes128gcm) and signs (VAPID) the request; it is sent with fetch, which
 * follows no redirect here and gives up after SEND_TIMEOUT_MS (web-push's own sender speaks
 * https only, and the tests' stand-in is local http).
 */
export const sendWithFetch: PushSender = async (sub, payload, vapid) => {
  const details = webpush.generateRequestDetails({ endpoint: sub.endpoint, keys: { p256dh: sub.p256dh, auth: sub.auth } }, payload, {
    vapidDetails: vapid, TTL: TTL_SECONDS, contentEncoding: 'aes128gcm', urgency: 'normal',
  });
  const res = await fetch(details.endpoint, {
    method: details.method, headers: details.headers as Record<string, string>, body: details.body ? new Uint8Array(details.body) : undefined,
    redirect: 'manual', signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
  });
  await res.arrayBuffer().catch(() => undefined);
  return res.status;
};

async function messageFor(db: DB, row: { kind: string; series_id: number | null; data: string }, siteId: SiteId): Promise<PushMessage> {
  const site = SITES[siteId] ?? SITES[1];
  // Loaded on first use: the fan-out imports this module, and the e2e specs import the fan-out
  // under Node's own loader, which takes no JSON module (the catalogues) without an attribute.
  const t = (await import('~/lib/i18n')).createT(site.locale);
  let data: Record<string, unknown> = {};
  try { data = JSON.parse(row.data) as Record<string, unknown>; } catch { /* a broken row still says something */ }
  if (row.kind === 'CHAPTER') {
    const series = row.series_id == null ? undefined : await findSeries(db, String(row.series_id), site.language);
    const number = Number(data.number ?? 0);
    const url = data.slug ? readerPath({ slug: String(data.slug), format: String(data.format ?? 'COMIC') as Format }, { e4pid: String(data.e4pid ?? ''), number, language: String(data.language ?? site.language) }) : notificationsPath();
    return { title: series?.name ?? String(data.name ?? t('site.name')), body: t('push.chapter', { chapter: number }), url, tag: `series-${row.series_id ?? 0}` };
  }
  const known = ['PAYMENT_PAID', 'PAYMENT_REFUNDED', 'SUBSCRIPTION_PAID', 'SUBSCRIPTION_FAILED'];
  return { title: t('site.name'), body: known.includes(row.kind) ? t(`notifications.money.${row.kind as 'PAYMENT_PAID'}`) : t('notifications.money.other'), url: notificationsPath(), tag: `account-${row.kind}` };
}

export interface PushPassResult { sent: number; capped: number; quiet: number; stale: number; pruned: number; failed: number }

/**
 * Sends the pushes due at `now`: each to the reader's subscriptions (chapter pushes: those of the
 * chapter's site) that are not backing off and not in quiet hours, if the reader's day has room.
 */
export async function deliverDuePushes(db: DB, now: number, options: { vapid?: VapidKeys | null; send?: PushSender } = {}): Promise<PushPassResult> {
  const result: PushPassResult = { sent: 0, capped: 0, quiet: 0, stale: 0, pruned: 0, failed: 0 };
  const vapid = options.vapid === undefined ? vapidKeys() : options.vapid;
  if (!vapid) return result;
  const send = options.send ?? sendWithFetch;
  const rows = await repo.takeDuePushes(db, now, BATCH);
  for (const row of rows) {
    if (Number(row.due_at) < now - STALE_SECONDS) { result.stale++; continue; }
    const userId = Number(row.user_id);
    const subs = (await repo.subscriptionsOf(db, userId))
      .filter((s) => row.site_id == null || Number(s.site_id) === Number(row.site_id))
      .filter((s) => s.retry_at == null || Number(s.retry_at) <= now);
    if (subs.length === 0) continue;
    const quiet = await loadQuietHours(db, userId);
    const awake = subs.filter((s) => !inQuietHours(quiet, validTimeZone(s.time_zone, SITES[Number(s.site_id) as SiteId]?.timeZone ?? 'UTC'), now));
    if (awake.length === 0) { result.quiet++; continue; }
    if (!(await repo.countPush(db, userId, capDay(now), DAILY_PUSH_CAP))) { result.capped++; continue; }
    for (const s of awake) {
      const outcome = await sendOne(db, s, JSON.stringify(await messageFor(db, row, Number(s.site_id) as SiteId)), vapid, send, now);
      result[outcome]++;
    }
  }
  if (rows.length > 0) await repo.pruneDaily(db, capDay(now - 86_400));
  return result;
}

async function sendOne(db: DB, s: Subscription, payload: string, vapid: VapidKeys, send: PushSender, now: number): Promise<'sent' | 'pruned' | 'failed'> {
  let status = 0;
  let error = '';
  try {
    status = await send({ endpoint: s.endpoint, p256dh: s.p256dh, auth: s.auth }, payload, vapid);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  if (status >= 200 && status < 300) {
    await repo.subscriptionSucceeded(db, Number(s.id), now);
    return 'sent';
  }
  if (status === 404 || status === 410) {
    await repo.deleteSubscriptionById(db, Number(s.id));
    return 'pruned';
  }
  const failures = Number(s.failure_count) + 1;
  await repo.subscriptionFailed(db, Number(s.id), failures, now + pushBackoffSeconds(failures));
  log().warn({ subscription: Number(s.id), status, failures, err: error.slice(0, 200) || undefined }, '[push] the push service refused; backing off');
  return 'failed';
}

// ---------------------------------------------------------------- the worker

const TICK_MS = 5_000;
let ticking = false;
let running: Promise<void> | null = null;
let getDbOf: (() => Promise<DB>) | null = null;

async function pass(): Promise<void> {
  if (running || !getDbOf) return;
  const getDb = getDbOf;
  running = (async () => {
    try {
      await deliverDuePushes(await getDb(), Math.floor(Date.now() / 1000));
    } catch (error) {
      log().error({ err: error instanceof Error ? error.message : error }, '[push] the push pass failed');
    } finally {
      running = null;
    }
  })();
  await running;
}

/** Sends queued pushes soon (after a fan-out's or a payment's commit). */
export function wakePushes(): void {
  if (ticking) setTimeout(() => void pass(), 200).unref();
}

/**
 * The server's push sender, started by the first request of the process that runs the machine's
 * timers (src/middleware/context.ts): a pass every TICK_MS in the background, one at a time.
 * Without VAPID keys (production without the settings) it does nothing.
 */
export function maybeSendPushes(getDb: () => Promise<DB>): void {
  if (ticking || !pushPublicKey()) return;
  getDbOf = getDb;
  ticking = true;
  setInterval(() => void pass(), TICK_MS).unref();
  void pass();
}
