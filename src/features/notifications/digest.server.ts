/**
 * The email digest of new chapters (docs/notifications.md, "Email digest"): a reader who chose
 * daily or weekly gets, once per period, ONE email listing their unread chapter items updated
 * since the last digest (series, chapter number, free / owned / price as the inbox says; never a
 * chapter title), in the language of the site they chose it on. Nothing is queued when there is
 * nothing new.
 *
 * - Once per period: `last_digest_at` is claimed with a conditional UPDATE (still due → now) in
 *   the transaction that queues the email; a restart, a second pass or another machine finds the
 *   period claimed and sends nothing.
 * - Batched: DIGEST_BATCH readers at a time; the items and their access notes are read outside any
 *   transaction, the claim and the queued emails are one short write transaction per batch, and
 *   the event loop gets a turn between batches. Runs once per machine (src/server/workers.ts), at
 *   most every DIGEST_CHECK_SECONDS, never awaited by a request.
 */
import type { MessageKey } from '~/lib/i18n';
import type { Format } from '~/features/catalog';
import { NOTIFICATION_SETTINGS_PATH, notificationsPath, readerPath } from '~/lib/paths';
import { SITES, type Site, type SiteId } from '~/lib/site';
import { writeTransaction, type DB } from '~/server/db';
import { log } from '~/server/observe.mjs';
import { enqueueEmail, renderEmail, siteOrigin, type OutgoingEmail } from '~/server/outbox';
import { chapterView } from './inbox.server';
import * as repo from './repository-digest.server';

import { FREQUENCIES, type Frequency } from './digest-rules';

export { digestChoice, FREQUENCIES, type Frequency } from './digest-rules';
/** Readers per batch (one select of due readers, one of their items, one write transaction). */
export const DIGEST_BATCH = 500;
/** Chapter items one digest lists at most (the newest; the inbox has the rest). */
export const DIGEST_MAX_ITEMS = 50;
/** How often a machine looks for due digests. */
export const DIGEST_CHECK_SECONDS = 300;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const siteOf = (id: number | null): Site => SITES[(id === 3 ? 3 : 1) as SiteId];

export async function digestFrequency(db: DB, userId: number): Promise<Frequency> {
  return (await repo.digestOf(db, userId))?.frequency ?? 'off';
}

export async function saveDigestFrequency(db: DB, userId: number, frequency: Frequency, site: Site, now: number): Promise<void> {
  await repo.saveDigest(db, userId, frequency, site.id, now);
}

type Reader = Awaited<ReturnType<typeof repo.dueDigests>>[number];

/** One reader's digest email, or null when nothing new is unread. */
async function composeDigest(db: DB, reader: Reader, rows: Awaited<ReturnType<typeof repo.unreadChapterItems>>, now: number): Promise<OutgoingEmail | null> {
  const mine = rows.filter((r) => Number(r.user_id) === reader.userId && Number(r.updated_at) > reader.since).slice(0, DIGEST_MAX_ITEMS);
  if (mine.length === 0) return null;
  const site = siteOf(reader.siteId);
  // The catalogues load on first use (as push.server.ts): the e2e specs import this feature under Playwright's loader, which takes no JSON imports.
  const t = (await import('~/lib/i18n')).createT(site.locale);
  let total = 0;
  const list = await Promise.all(mine.map(async (r) => {
    let data: Record<string, unknown> = {};
    try { data = JSON.parse(r.data) as Record<string, unknown>; } catch { /* named as it can be */ }
    // The item's own site: its chapter's language, its links.
    const itemSite = siteOf(r.site_id == null ? null : Number(r.site_id));
    const c = await chapterView(db, { seriesId: r.series_id == null ? null : Number(r.series_id), count: Number(r.chapter_count), data }, { userId: reader.userId, site: itemSite, now, country: null });
    total += c.count;
    const access = c.access.kind === 'price' ? t('notifications.access.price', { keys: c.access.keys }) : t(`notifications.access.${c.access.kind}` as MessageKey);
    const text = c.count > 1
      ? t('mail.digest.items', { series: c.seriesName, count: c.count, chapter: c.number, access })
      : t('mail.digest.item', { series: c.seriesName, chapter: c.number, access });
    return { text, url: `${siteOrigin(itemSite.id)}${readerPath({ slug: c.slug, format: c.format as Format }, c)}` };
  }));
  const origin = siteOrigin(site.id);
  const mail = renderEmail({
    siteName: t('site.name'),
    subject: t('mail.digest.subject', { count: total }),
    paragraphs: [t('mail.reset.greeting', { name: reader.name }), t('mail.digest.intro')],
    list,
    action: { label: t('mail.digest.action'), url: `${origin}${notificationsPath()}` },
    footer: t('mail.footer.digest'),
    footerLink: { label: t('mail.footer.settings'), url: `${origin}${NOTIFICATION_SETTINGS_PATH}` },
  });
  return { to: reader.email, ...mail, kind: 'digest' };
}

/** Sends (queues) every digest due at `now`; returns how many emails were queued. */
export async function sendDigests(db: DB, now: number): Promise<number> {
  let after = 0;
  let queued = 0;
  for (let first = true; ; first = false) {
    if (!first) await nextTurn();
    const readers = await repo.dueDigests(db, now, after, DIGEST_BATCH);
    if (readers.length === 0) break;
    after = readers[readers.length - 1]!.userId;
    const since = Math.min(...readers.map((r) => r.since));
    const rows = await repo.unreadChapterItems(db, readers.map((r) => r.userId), since, now);
    const mails = new Map<number, OutgoingEmail>();
    for (const reader of readers) {
      const mail = await composeDigest(db, reader, rows, now);
      if (mail) mails.set(reader.userId, mail);
    }
    // The claim and the emails in one transaction: a reader's period is claimed once, and its email queued with it.
    queued += await writeTransaction(db, async (trx) => {
      const won = await repo.claimDigests(trx, readers.map((r) => r.userId), now);
      let n = 0;
      for (const id of won) {
        const mail = mails.get(id);
        if (mail) { await enqueueEmail(trx, mail, now); n++; }
      }
      return n;
    });
    if (readers.length < DIGEST_BATCH) break;
  }
  return queued;
}

let lastCheck = Number.NEGATIVE_INFINITY;
let running: Promise<unknown> | null = null;

/** Called on requests (machine timers only): at most once per DIGEST_CHECK_SECONDS, never awaited, never throws. */
export function maybeSendDigests(getDb: () => Promise<DB>, nowSeconds: number): void {
  if (running || nowSeconds - lastCheck < DIGEST_CHECK_SECONDS) return;
  lastCheck = nowSeconds;
  running = getDb()
    .then((db) => sendDigests(db, nowSeconds))
    .catch((error) => {
      log().error({ err: error instanceof Error ? error.message : error }, '[notifications] the digest pass failed');
    })
    .finally(() => { running = null; });
}
