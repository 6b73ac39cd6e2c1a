/**
 * The email outbox (docs/operations.md, "Email"): every message the site sends is a row of
 * outbox_emails, written by `enqueueEmail` inside the business transaction that caused it (so a
 * rolled-back change sends nothing, and a committed one loses nothing). The server's own worker
 * (`maybeDeliverMail`, once per machine: src/server/workers.ts) sends due rows over SMTP outside
 * any transaction, and retries a failure with exponential back-off. An unreachable SMTP server
 * delays mail and loses none. Without SMTP_URL nothing is sent: a demo shows the messages at
 * /dev/outbox/, a production server keeps them queued until SMTP is configured.
 */
import nodemailer, { type Transporter } from 'nodemailer';
import { escapeHtml } from '~/lib/html';
import { config } from './config.mjs';
import type { DB } from './db';
import { log } from './observe.mjs';

export interface OutgoingEmail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** What it is for (`password.reset`…), for logs and the demo outbox. */
  kind: string;
}

/** Queues a message in the caller's transaction (or on `db`): the worker sends it after the commit. */
export async function enqueueEmail(db: DB, mail: OutgoingEmail, now: number): Promise<void> {
  // `.invalid` can never be delivered (RFC 2606): a deleted account's anonymised address
  // (deleted-…@deleted.invalid) still gets a late refund's receipt written for it; sending would
  // only bounce or fail five times.
  if (/\.invalid$/i.test(mail.to)) return;
  await db.insertInto('outbox_emails').values({
    to_address: mail.to, subject: mail.subject, text_body: mail.text, html_body: mail.html, kind: mail.kind, next_attempt_at: now, created_at: now,
  }).execute();
  // Sent within seconds rather than at the next tick (the commit happens after this returns).
  wakeSoon();
}

// ------------------------------------------------------------------ templates

export interface EmailContent {
  /** The site's name (`site.name`), in the subject's and the footer's place. */
  siteName: string;
  subject: string;
  /** Plain paragraphs, each escaped for the HTML part. */
  paragraphs: string[];
  /** Lines after the paragraphs, each with its own link (a digest's chapters): a list in HTML, text then URL in text. */
  list?: { text: string; url: string }[];
  /** The one action: a button in HTML, its URL on a line of its own in text. */
  action?: { label: string; url: string };
  /** A last line in small print (why they got it). */
  footer: string;
  /** A link after the footer (the notification settings), in small print too. */
  footerLink?: { label: string; url: string };
}

/**
 * One layout for every message: plain text and a small HTML part with the same words, the site's
 * name, no images, no tracking pixel, no rewritten links.
 */
export function renderEmail(c: EmailContent): { subject: string; text: string; html: string } {
  const subject = `${c.subject} · ${c.siteName}`;
  const text = [c.siteName, '', ...c.paragraphs.flatMap((p) => [p, '']), ...(c.list ?? []).flatMap((l) => [`- ${l.text}`, `  ${l.url}`, '']), ...(c.action ? [`${c.action.label}:`, c.action.url, ''] : []), '--', c.footer, ...(c.footerLink ? [`${c.footerLink.label}: ${c.footerLink.url}`] : []), ''].join('\n');
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const html = [
    '<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>',
    '<body style="margin:0;padding:24px;background:#f6f6f6;font-family:system-ui,sans-serif;color:#1a1a1a">',
    '<div style="max-width:560px;margin:0 auto;background:#fff;padding:24px;border-radius:8px">',
    `<p style="margin:0 0 24px;font-weight:700;font-size:20px">${escapeHtml(c.siteName)}</p>`,
    ...c.paragraphs.map(p),
    c.list?.length ? `<ul style="margin:0 0 16px;padding-left:20px">${c.list.map((l) => `<li style="margin:0 0 8px"><a href="${escapeHtml(l.url)}" style="color:#1a1a1a">${escapeHtml(l.text)}</a></li>`).join('')}</ul>` : '',
    c.action ? `<p style="margin:24px 0"><a href="${escapeHtml(c.action.url)}" style="display:inline-block;background:#1a1a1a;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none">${escapeHtml(c.action.label)}</a></p><p style="margin:0 0 16px;font-size:13px;word-break:break-all">${escapeHtml(c.action.url)}</p>` : '',
    `<p style="margin:24px 0 0;font-size:12px;color:#666">${escapeHtml(c.footer)}</p>`,
    c.footerLink ? `<p style="margin:8px 0 0;font-size:12px;color:#666"><a href="${escapeHtml(c.footerLink.url)}" style="color:#666">${escapeHtml(c.footerLink.label)}</a></p>` : '',
    '</div></body></html>',
  ].join('');
  return { subject, text, html };
}

/**
 * The origin links in a message point at when no request is at hand (a webhook, a background
 * check, the digest): the site's host from SITE_HOSTS (`br.` names the Portuguese site) over
 * https, or, without SITE_HOSTS (a demo, the tests), this server on localhost / br.localhost.
 */
export function siteOrigin(siteId: number): string {
  const br = siteId === 3;
  const host = config.siteHosts.find((h) => h.startsWith('br.') === br);
  if (host) return `https://${host}`;
  return `http://${br ? 'br.' : ''}localhost:${config.port}`;
}

// ------------------------------------------------------------------ the worker

/** Messages one pass sends at most (the rest wait for the next pass). */
const BATCH = 20;
/** First retry after 30 s, then doubling, never more than an hour apart: a long outage loses nothing. */
export const RETRY_BASE_SECONDS = 30;
export const RETRY_MAX_SECONDS = 60 * 60;
/** A message the SMTP server refuses for good (5xx) this many times is marked failed; connection errors retry forever. */
const MAX_PERMANENT_FAILURES = 5;
/** How often the worker looks for due messages. */
const TICK_MS = 10_000;

/** The delay before attempt `attempts + 1`, after `attempts` failures. */
export function retryDelay(attempts: number): number {
  return Math.min(RETRY_MAX_SECONDS, RETRY_BASE_SECONDS * 2 ** Math.max(0, attempts - 1));
}

type Send = (mail: { to: string; subject: string; text: string; html: string }) => Promise<void>;

let transporter: Transporter | null = null;
function smtpSend(url: string): Send {
  // A short connection timeout: a dead SMTP server makes the pass fail fast and the back-off wait.
  if (!transporter) {
    const u = new URL(url);
    const secure = u.protocol === 'smtps:';
    transporter = nodemailer.createTransport({
      host: u.hostname.replace(/^\[|\]$/g, ''), port: Number(u.port) || (secure ? 465 : 587), secure,
      auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
      connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000,
    });
  }
  return async (mail) => {
    await transporter!.sendMail({ from: config.mail.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
  };
}

/** Sends the due messages with `send`, outside any transaction; returns how many went. */
export async function deliverDueEmails(db: DB, now: number, send: Send): Promise<number> {
  const due = await db.selectFrom('outbox_emails').selectAll().where('status', '=', 'pending').where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at').orderBy('id').limit(BATCH).execute();
  let sent = 0;
  for (const m of due) {
    const attempts = Number(m.attempts) + 1;
    try {
      await send({ to: m.to_address, subject: m.subject, text: m.text_body, html: m.html_body });
      await db.updateTable('outbox_emails').set({ status: 'sent', attempts, sent_at: now, last_error: null }).where('id', '=', m.id).execute();
      sent++;
    } catch (error) {
      const code = Number((error as { responseCode?: unknown }).responseCode);
      const permanent = code >= 500 && code < 600;
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const failed = permanent && attempts >= MAX_PERMANENT_FAILURES;
      await db.updateTable('outbox_emails').set({ attempts, last_error: message, next_attempt_at: now + retryDelay(attempts), status: failed ? 'failed' : 'pending' })
        .where('id', '=', m.id).execute();
      log().warn({ outbox: Number(m.id), kind: m.kind, attempts, err: message }, failed ? '[mail] refused for good' : '[mail] sending failed; will retry');
      // The server is down: the rest of the batch would fail the same way.
      if (!permanent) break;
    }
  }
  return sent;
}

/** Sent messages are kept this long (the demo outbox, support questions), then deleted: a message holds personal data. */
export const KEEP_SENT_SECONDS = 30 * 24 * 60 * 60;

/** Deletes up to 500 messages sent more than KEEP_SENT_SECONDS ago. */
export async function pruneSentEmails(db: DB, now: number): Promise<void> {
  await db.deleteFrom('outbox_emails')
    .where('id', 'in', (qb) => qb.selectFrom('outbox_emails').select('id').where('status', '=', 'sent').where('sent_at', '<', now - KEEP_SENT_SECONDS).limit(500))
    .execute();
}

let running: Promise<void> | null = null;
let ticking = false;
let getDbOf: (() => Promise<DB>) | null = null;
let lastRun = Number.NEGATIVE_INFINITY;

async function pass(): Promise<void> {
  if (running || !getDbOf || !config.mail.smtpUrl) return;
  const getDb = getDbOf;
  const smtpUrl = config.mail.smtpUrl;
  running = (async () => {
    try {
      const db = await getDb();
      const now = Math.floor(Date.now() / 1000);
      await deliverDueEmails(db, now, smtpSend(smtpUrl));
      await pruneSentEmails(db, now);
    } catch (error) {
      log().error({ err: error instanceof Error ? error.message : error }, '[mail] the outbox pass failed');
    } finally {
      running = null;
    }
  })();
  await running;
}

function wakeSoon(): void {
  if (!getDbOf || !config.mail.smtpUrl) return;
  setTimeout(() => void pass(), 200).unref();
}

/**
 * The server's mail sender, started by the first request of the process that runs the machine's
 * timers (src/middleware/context.ts): a pass every TICK_MS in the background (never delaying a
 * request), one at a time. Without SMTP_URL it sends nothing.
 */
export function maybeDeliverMail(getDb: () => Promise<DB>, now: number): void {
  getDbOf = getDb;
  if (!config.mail.smtpUrl) return;
  if (!ticking) {
    ticking = true;
    setInterval(() => void pass(), TICK_MS).unref();
  }
  if (now - lastRun >= TICK_MS / 1000) {
    lastRun = now;
    void pass();
  }
}

// ------------------------------------------------------------------ erasure

/**
 * Deletes every message to `address`, queued or kept after sending (an account's deletion, in
 * its transaction: a queued message must not go out afterwards, and the kept ones hold the
 * address). Returns how many went.
 */
export async function dropEmailsTo(db: DB, address: string): Promise<number> {
  const r = await db.deleteFrom('outbox_emails').where('to_address', '=', address).executeTakeFirst();
  return Number(r.numDeletedRows);
}

// ------------------------------------------------------------------ the demo outbox

/** The demo's outbox list (GET /dev/outbox/), newest first. */
export async function outboxList(db: DB, limit = 100) {
  const rows = await db.selectFrom('outbox_emails').select(['id', 'to_address', 'subject', 'kind', 'status', 'created_at']).orderBy('id', 'desc').limit(limit).execute();
  return rows.map((r) => ({ id: Number(r.id), to: r.to_address, subject: r.subject, kind: r.kind, status: r.status, createdAt: Number(r.created_at) }));
}

/** One message of the demo outbox (GET /dev/outbox/{id}/). */
export async function outboxMessage(db: DB, id: number) {
  const r = await db.selectFrom('outbox_emails').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? { id: Number(r.id), to: r.to_address, subject: r.subject, text: r.text_body, html: r.html_body, kind: r.kind, status: r.status, createdAt: Number(r.created_at) } : null;
}
