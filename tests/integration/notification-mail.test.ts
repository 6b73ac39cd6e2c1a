/**
 * Notifications by email and moderation items (issue 32, docs/notifications.md), on both dialects:
 * - receipts: one email per paid, refunded and failed payable, queued in the transaction that
 *   moved it, in the language of the site it was paid on; a replayed confirmation (again, and
 *   several at once) queues nothing more;
 * - the email digest with the clock injected: daily and weekly periods, never twice within one,
 *   nothing when nothing is new, only unread chapter items since the last digest, and one email
 *   when two passes run at once; the settings form's frequency;
 * - moderation decisions in the affected reader's inbox only, localized, honouring the
 *   community inbox preference.
 * The digest's clock runs a year ahead, so the server's own pass (real clock) never meets it.
 */
import crypto from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_CHECK_FIELD } from '~/lib/app-check';
import {
  anySeries, appCheckHeader, appCheckToken, createReader, htmlText, message, plain, selectedDialects, useServer, withDb,
  type Reader, type SeriesSample, type SiteName, CARD_EXPIRY,
} from './harness';

const hex = (n: number) => crypto.randomBytes(n).toString('hex');
const DAY = 86_400;

for (const dialect of selectedDialects()) {
  describe(`notification emails and moderation items (${dialect})`, () => {
    const server = useServer(dialect);
    const realNow = Math.floor(Date.now() / 1000);
    const F = realNow + 365 * DAY;

    const form = (reader: Reader | null, path: string, fields: Record<string, string> | URLSearchParams, site: SiteName = 'en', headers: Record<string, string> = {}) =>
      server.request(path, {
        site, method: 'POST', body: new URLSearchParams(fields).toString(), timeoutMs: 90_000,
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(site), 'sec-fetch-site': 'same-origin', ...(reader ? { cookie: reader.cookie } : {}), ...headers },
      });
    const mails = (reader: Reader, kind?: string) => withDb(server, async (db) => {
      let q = db.selectFrom('outbox_emails').selectAll().where('to_address', '=', reader.email);
      if (kind) q = q.where('kind', '=', kind);
      return (await q.orderBy('id').execute()).map((m) => ({ ...m, text: m.text_body, html: m.html_body }));
    });

    // ------------------------------------------------------------------ receipts

    const buyByCard = async (reader: Reader, site: SiteName) => {
      const nonce = await form(reader, '/payments/sandbox/nonce/', { method: 'card', number: '4111111111111111', expiry: CARD_EXPIRY, cvv: '123' }, site);
      expect(nonce.status, nonce.text).toBe(200);
      const res = await form(reader, '/my/purchase/checkout/', {
        pack: 'popular', method: 'card', nonce: (nonce.json() as { nonce: string }).nonce, request_key: `rk${hex(12)}`, next: '/comics/', [APP_CHECK_FIELD]: await appCheckToken(server, reader, site),
      }, site);
      expect(res.status, res.text.slice(0, 300)).toBe(303);
      return withDb(server, (db) => db.selectFrom('orders').selectAll().where('user_id', '=', reader.id).orderBy('id', 'desc').executeTakeFirstOrThrow());
    };

    it('a paid order emails one receipt in its site\'s language; the confirmation replayed, and replayed at once, queues nothing more', { timeout: 120_000 }, async () => {
      const [en, br] = await Promise.all([createReader(server, { name: 'Ana' }), createReader(server, { name: 'Bia', site: 'br' })]);
      const order = await buyByCard(en, 'en');
      expect(order.state).toBe('PAID');
      let sent = await mails(en);
      expect(sent.map((m) => m.kind)).toEqual(['receipt.PAYMENT_PAID']);
      const m = sent[0]!;
      expect(m.subject).toBe(`${message('en', 'mail.receipt.subject.PAYMENT_PAID')} · Inkpass`);
      expect(m.text).toContain(message('en', 'mail.reset.greeting', { name: 'Ana' }));
      expect(m.text).toMatch(/We received your payment of \$\d+\.\d\d on /);
      expect(m.text).toContain(`Reference: ${order.public_id}`);
      expect(m.text).toContain(message('en', 'receipts.item.pack', { name: 'popular' }));
      expect(m.text).toContain(`/my/purchases/${order.public_id}/receipt/`);
      expect(m.text).toContain(`${message('en', 'mail.footer.settings')}: http`);
      expect(m.text).toContain('/my/notifications/settings/');
      expect(m.html).not.toMatch(/<img|<script/i);

      // The same payment confirmed again, once and five times at once: already paid, nothing queued.
      const { confirmPayment } = await import('~/features/commerce/index.server');
      const again = { orderId: order.public_id, paymentId: order.payment_id!, amount: Number(order.total), currency: order.currency, source: 'webhook' as const, now: realNow };
      expect(await withDb(server, (db) => confirmPayment(db, again))).toEqual({ kind: 'already' });
      const many = await withDb(server, (db) => Promise.all(Array.from({ length: 5 }, () => confirmPayment(db, again))));
      expect(many.every((r) => r.kind === 'already')).toBe(true);
      sent = await mails(en);
      expect(sent).toHaveLength(1);

      // The Portuguese site's order: the receipt in Portuguese, in reais.
      const pt = await buyByCard(br, 'br');
      const [ptMail] = await mails(br, 'receipt.PAYMENT_PAID');
      expect(ptMail!.subject).toBe(`${message('pt-BR', 'mail.receipt.subject.PAYMENT_PAID')} · Inkpass`);
      expect(ptMail!.text).toMatch(/Recebemos seu pagamento de R\$\s?\d+,\d\d em /);
      expect(ptMail!.text).toContain(`Referência: ${pt.public_id}`);
      expect(ptMail!.text).toContain('http://br.localhost:');
      expect(await mails(br)).toHaveLength(1);
    });

    it('a refunded order (the reader\'s withdrawal) emails one refund receipt with the amount given back, in Portuguese', { timeout: 120_000 }, async () => {
      const reader = await createReader(server, { name: 'Caio', site: 'br' });
      const order = await buyByCard(reader, 'br');
      const withdraw = () => form(reader, `/my/purchases/${order.public_id}/withdraw/`, {}, 'br');
      expect((await withdraw()).status).toBe(303);
      expect((await withDb(server, (db) => db.selectFrom('orders').select('state').where('id', '=', order.id).executeTakeFirstOrThrow())).state).toBe('REFUNDED');
      const refunded = await mails(reader, 'receipt.PAYMENT_REFUNDED');
      expect(refunded).toHaveLength(1);
      expect(refunded[0]!.subject).toBe(`${message('pt-BR', 'mail.receipt.subject.PAYMENT_REFUNDED')} · Inkpass`);
      expect(refunded[0]!.text).toMatch(/Reembolsamos R\$\s?\d+,\d\d do seu pagamento em /);
      expect(refunded[0]!.text).toContain(order.public_id);
      // Asking again refunds nothing and mails nothing.
      await withdraw();
      expect((await mails(reader)).map((m) => m.kind)).toEqual(['receipt.PAYMENT_PAID', 'receipt.PAYMENT_REFUNDED']);
    });

    it('a subscription payment emails its receipt; a failed renewal emails once, with the subscription page, even when closed twice', { timeout: 120_000 }, async () => {
      const reader = await createReader(server, { name: 'Duda' });
      const nonce = await form(reader, '/payments/sandbox/nonce/', { method: 'card', number: '4111111111111111', expiry: CARD_EXPIRY, cvv: '123' });
      const res = await form(reader, '/my/subscribe/card/', { tier_id: 'reader', method: 'card', nonce: (nonce.json() as { nonce: string }).nonce, device_data: '{}' }, 'en', await appCheckHeader(server, reader, 'en'));
      expect(res.status, res.text).toBe(200);
      const paid = await mails(reader, 'receipt.SUBSCRIPTION_PAID');
      expect(paid).toHaveLength(1);
      expect(paid[0]!.text).toMatch(/We received your subscription payment of \$\d+\.\d\d on /);
      expect(paid[0]!.text).toMatch(/Item: Subscription .+, from .+ to .+/);

      const { chargeForPeriod, closePayable } = await import('~/features/commerce/index.server');
      const sub = await withDb(server, (db) => db.selectFrom('subscriptions').selectAll().where('user_id', '=', reader.id).executeTakeFirstOrThrow());
      const last = await withDb(server, (db) => db.selectFrom('subscription_charges').selectAll().where('subscription_id', '=', sub.id).orderBy('period_end', 'desc').executeTakeFirstOrThrow());
      const now = Math.floor(Date.now() / 1000);
      const charge = await withDb(server, (db) => chargeForPeriod(db, {
        subscription_id: Number(sub.id), user_id: reader.id, period_start: Number(last.period_end), period_end: Number(last.period_end) + 30 * DAY,
        currency: last.currency, amount: Number(last.amount), method: 'card', provider: last.provider, expires_at: null,
      }, now));
      const close = () => withDb(server, (db) => closePayable(db, { id: charge.public_id, state: 'FAILED', source: 'renew', reason: 'Declined', now }));
      expect(await close()).toEqual({ state: 'FAILED' });
      expect(await close()).toEqual({ state: 'FAILED' });
      const failed = await mails(reader, 'receipt.SUBSCRIPTION_FAILED');
      expect(failed).toHaveLength(1);
      expect(failed[0]!.subject).toBe(`${message('en', 'mail.receipt.subject.SUBSCRIPTION_FAILED')} · Inkpass`);
      expect(failed[0]!.text).toContain(message('en', 'mail.receipt.failedNext'));
      expect(failed[0]!.text).toContain('/my/subscriptions/');
      expect(failed[0]!.text).toContain(charge.public_id);
    });

    // ------------------------------------------------------------------ the digest

    let listed: SeriesSample;
    let chapter: { id: number; e4pid: string; number: number; title: string | null; language: string };
    beforeAll(async () => {
      listed = (await anySeries(server, 5)).find((s) => s.chapter && s.languages.includes('en'))!;
      chapter = await withDb(server, async (db) => {
        const c = await db.selectFrom('chapters').select(['id', 'e4pid', 'number', 'title', 'language']).where('id', '=', listed.chapter!.id).executeTakeFirstOrThrow();
        return { ...c, id: Number(c.id), number: Number(c.number) };
      });
    });

    /** A chapter item as the fan-out writes it (its series, this chapter), updated at `at`. */
    const item = (reader: Reader, at: number, o: { read?: boolean; kind?: string } = {}) => withDb(server, (db) => db.insertInto('notifications').values({
      user_id: reader.id, category: o.kind ? 'money' : 'chapters', kind: o.kind ?? 'CHAPTER', series_id: listed.id, chapter_id: chapter.id, site_id: 1,
      data: JSON.stringify({ e4pid: chapter.e4pid, number: chapter.number, language: 'en', slug: listed.slug, format: listed.format, name: listed.name }),
      created_at: at, updated_at: at, read_at: o.read ? at : null,
    }).execute());
    const setDigest = (reader: Reader, frequency: 'daily' | 'weekly', since: number, site = 1) => withDb(server, (db) => db.insertInto('notification_digests')
      .values({ user_id: reader.id, frequency, site_id: site, last_digest_at: since, updated_at: since })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ frequency, site_id: site, last_digest_at: since })).execute());
    const digests = (reader: Reader) => mails(reader, 'digest');
    const pass = async (now: number) => {
      const { sendDigests } = await import('~/features/notifications/index.server');
      return withDb(server, (db) => sendDigests(db, now));
    };

    it('daily: one digest a day of the unread chapter items since the last, never twice, nothing when nothing is new', { timeout: 60_000 }, async () => {
      const [a, empty] = await Promise.all([createReader(server, { name: 'Eva' }), createReader(server, { name: 'Fabi' })]);
      await setDigest(a, 'daily', F);
      await setDigest(empty, 'daily', F);
      await item(a, F - 100);                       // before the period: was in an earlier digest
      await item(a, F + 100);                       // unread, in the period: listed
      await item(a, F + 200, { read: true });       // read already: not listed
      await item(a, F + 300, { kind: 'PAYMENT_PAID' }); // not a chapter item

      await pass(F + DAY - 1);
      expect(await digests(a)).toHaveLength(0);
      await pass(F + DAY);
      let sent = await digests(a);
      expect(sent).toHaveLength(1);
      const m = sent[0]!;
      expect(m.subject).toBe(`${message('en', 'mail.digest.subject', { count: 1 })} · Inkpass`);
      expect(m.text).toContain(message('en', 'mail.digest.intro'));
      // Exactly one line: the series by name and the chapter by number, with its access note; never the title.
      expect(m.text.match(/^- /gm)).toHaveLength(1);
      expect(m.text).toMatch(new RegExp(`^- ${listed.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: chapter ${chapter.number} \\((Free|Owned|Included for you|Not available|\\d+ keys?)\\)$`, 'm'));
      if (chapter.title) expect(m.text).not.toContain(chapter.title);
      expect(m.text).toContain(listed.chapter!.readerPath);
      expect(m.text).toContain(`${message('en', 'mail.footer.settings')}: http://localhost:`);
      expect(m.html).not.toMatch(/<img|<script/i);
      // The empty reader's period is used up, with nothing sent.
      expect(await digests(empty)).toHaveLength(0);
      expect(Number((await withDb(server, (db) => db.selectFrom('notification_digests').select('last_digest_at').where('user_id', '=', empty.id).executeTakeFirstOrThrow())).last_digest_at)).toBe(F + DAY);

      // Within the period: nothing more, even with a new item.
      await item(a, F + DAY + 100);
      await pass(F + DAY + 3600);
      await pass(F + 2 * DAY - 1);
      expect(await digests(a)).toHaveLength(1);
      // The next day: only the new item.
      await pass(F + 2 * DAY);
      sent = await digests(a);
      expect(sent).toHaveLength(2);
      expect(sent[1]!.text.match(/^- /gm)).toHaveLength(1);
      // A day with nothing new: nothing.
      await pass(F + 3 * DAY);
      expect(await digests(a)).toHaveLength(2);
      expect(await digests(empty)).toHaveLength(0);
    });

    it('weekly: not after a day, once after seven; two passes at once send one digest; in the site\'s language it was chosen on', { timeout: 60_000 }, async () => {
      const [w, pt] = await Promise.all([createReader(server, { name: 'Gabi' }), createReader(server, { name: 'Hugo', site: 'br' })]);
      const G = F + 30 * DAY;
      await setDigest(w, 'weekly', G);
      await setDigest(pt, 'daily', G, 3);
      await item(w, G + 100);
      await item(w, G + 200);
      await item(pt, G + 100);
      await pass(G + DAY);
      expect(await digests(w)).toHaveLength(0);
      expect(await digests(pt)).toHaveLength(1);
      await pass(G + 7 * DAY - 1);
      expect(await digests(w)).toHaveLength(0);
      // Three passes at once (SQLite: on one connection, as one process would; PostgreSQL: on a pool, truly at once).
      const { sendDigests } = await import('~/features/notifications/index.server');
      if (dialect === 'postgres') await Promise.all([pass(G + 7 * DAY), pass(G + 7 * DAY), pass(G + 7 * DAY)]);
      else await withDb(server, (db) => Promise.all([sendDigests(db, G + 7 * DAY), sendDigests(db, G + 7 * DAY), sendDigests(db, G + 7 * DAY)]));
      const sent = await digests(w);
      expect(sent).toHaveLength(1);
      expect(sent[0]!.subject).toBe(`${message('en', 'mail.digest.subject', { count: 2 })} · Inkpass`);
      expect(sent[0]!.text.match(/^- /gm)).toHaveLength(2);
      const [ptMail] = await digests(pt);
      expect(ptMail!.subject).toBe(`${message('pt-BR', 'mail.digest.subject', { count: 1 })} · Inkpass`);
      expect(ptMail!.text).toContain(message('pt-BR', 'mail.digest.intro'));
      expect(ptMail!.text).toContain(`${message('pt-BR', 'mail.footer.settings')}: http://br.localhost:`);
    });

    it('the settings form: a frequency chosen is saved with the email box; the box alone turns it on daily; Off turns it off', async () => {
      const reader = await createReader(server, { site: 'br' });
      const settings = () => server.request('/my/notifications/settings/', { site: 'br', headers: { cookie: reader.cookie } });
      let page = await settings();
      expect(page.text).toMatch(/<input type="radio" name="digest" value="off" checked/);
      expect(page.text).toContain(message('pt-BR', 'notifications.digest.legend'));
      const save = (fields: [string, string][]) => form(reader, '/my/notifications/settings/', new URLSearchParams(fields) as unknown as Record<string, string>, 'br');

      expect((await save([['on', 'chapters.inbox'], ['digest_was', 'off'], ['digest', 'weekly']])).status).toBe(303);
      page = await settings();
      expect(page.text).toMatch(/<input type="radio" name="digest" value="weekly" checked/);
      expect(page.text).toMatch(/value="chapters\.email"[^>]*checked/);
      const row = await withDb(server, (db) => db.selectFrom('notification_digests').selectAll().where('user_id', '=', reader.id).executeTakeFirstOrThrow());
      expect([row.frequency, Number(row.site_id)]).toEqual(['weekly', 3]);

      // Off chosen while the box is still checked: off, and the box follows.
      await save([['on', 'chapters.inbox'], ['on', 'chapters.email'], ['digest_was', 'weekly'], ['digest', 'off']]);
      page = await settings();
      expect(page.text).toMatch(/<input type="radio" name="digest" value="off" checked/);
      expect(page.text).not.toMatch(/value="chapters\.email"[^>]*checked/);
      // The box checked with the frequency left at Off: daily.
      await save([['on', 'chapters.inbox'], ['on', 'chapters.email'], ['digest_was', 'off'], ['digest', 'off']]);
      page = await settings();
      expect(page.text).toMatch(/<input type="radio" name="digest" value="daily" checked/);
      expect(htmlText(page.text)).toContain(message('pt-BR', 'notifications.digest.daily'));

      // Push and email announce what reaches the inbox: with a category's inbox off they go too,
      // the digest included, and the page says why.
      await save([['on', 'chapters.email'], ['on', 'chapters.push'], ['on', 'community.email'], ['on', 'money.inbox'], ['digest_was', 'daily'], ['digest', 'weekly']]);
      page = await settings();
      expect(page.text).toMatch(/<input type="radio" name="digest" value="off" checked/);
      for (const box of ['chapters.inbox', 'chapters.email', 'chapters.push', 'community.email', 'community.inbox']) expect(page.text, box).not.toMatch(new RegExp(`value="${box.replace('.', '\\.')}"[^>]*checked`));
      expect(page.text).toMatch(/value="money\.inbox"[^>]*checked/);
      expect(htmlText(page.text)).toContain(message('pt-BR', 'notifications.settings.note'));
      expect((await withDb(server, (db) => db.selectFrom('notification_digests').select('frequency').where('user_id', '=', reader.id).executeTakeFirstOrThrow())).frequency).toBe('off');
    });

    // ------------------------------------------------------------------ moderation items

    it('a removal, a restore and a ban reach the affected reader\'s inbox only, localized; a reader with community items off gets none', { timeout: 60_000 }, async () => {
      const [author, other, quiet] = await Promise.all([createReader(server, { name: 'Ivo' }), createReader(server, { name: 'Juju' }), createReader(server, { name: 'Kim' })]);
      const comment = (user: Reader, state: 'VISIBLE' | 'HELD') => withDb(server, async (db) => Number((await db.insertInto('comments').values({
        chapter_id: chapter.id, site_id: 1, language: 'en', user_id: user.id, parent_id: null, body: `A comment ${hex(4)}`, created_at: realNow, edited_at: null, deleted_at: null, state,
      }).returning('id').executeTakeFirstOrThrow()).id));
      const removed = await comment(author, 'VISIBLE');
      const held = await comment(author, 'HELD');
      await withDb(server, (db) => db.insertInto('comment_reports').values([
        { comment_id: removed, user_id: other.id, reason: 'spam', created_at: realNow, reviewed_at: null },
        { comment_id: removed, user_id: quiet.id, reason: 'spam', created_at: realNow, reviewed_at: null },
        { comment_id: removed, user_id: author.id === quiet.id ? other.id : author.id, reason: 'spoiler', created_at: realNow, reviewed_at: null },
      ]).execute());
      await withDb(server, (db) => db.updateTable('comments').set({ report_count: 3 }).where('id', '=', removed).execute());
      const quietSaved = await form(quiet, '/my/notifications/settings/', new URLSearchParams([['on', 'chapters.inbox'], ['on', 'money.inbox']]) as unknown as Record<string, string>);
      expect(quietSaved.status).toBe(303);

      const { moderateComment, banReader, liftBan } = await import('~/features/comments/index.server');
      const actor = { userId: null, capability: 'moderation' as const, ip: null, userAgent: null };
      const now = Math.floor(Date.now() / 1000);
      expect(await withDb(server, (db) => moderateComment(db, 1, removed, 'remove', actor, now))).toBe('done');
      expect(await withDb(server, (db) => moderateComment(db, 1, held, 'restore', actor, now))).toBe('done');
      // Done again: unchanged, no second item.
      expect(await withDb(server, (db) => moderateComment(db, 1, removed, 'remove', actor, now))).toBe('unchanged');
      expect(await withDb(server, (db) => banReader(db, { userId: author.id, length: '7', reason: 'Be kind' }, actor, now))).toMatchObject({ outcome: 'banned' });
      expect(await withDb(server, (db) => banReader(db, { userId: quiet.id, length: 'forever', reason: 'Spam' }, actor, now))).toMatchObject({ outcome: 'banned' });
      // Lifted by a moderator: the reader hears it; lifting again (no ban left) says nothing.
      expect(await withDb(server, (db) => liftBan(db, author.id, actor, now))).toMatchObject({ outcome: 'lifted' });
      expect(await withDb(server, (db) => liftBan(db, author.id, actor, now))).toMatchObject({ outcome: 'unchanged' });

      const community = (r: Reader) => withDb(server, (db) => db.selectFrom('notifications').select(['kind']).where('user_id', '=', r.id).where('category', '=', 'community').orderBy('id').execute());
      expect((await community(author)).map((r) => r.kind)).toEqual(['COMMENT_REMOVED', 'COMMENT_RESTORED', 'BANNED_UNTIL', 'BAN_LIFTED']);
      expect(await community(other)).toEqual([]);
      expect(await community(quiet)).toEqual([]);

      const inbox = plain(htmlText((await server.request('/my/notifications/', { headers: { cookie: author.cookie } })).text));
      expect(inbox).toContain(message('en', 'notifications.community.COMMENT_REMOVED_REASON', { chapter: chapter.number, series: listed.name, reason: message('en', 'moderation.reason.spam') }));
      expect(inbox).toContain(message('en', 'notifications.community.COMMENT_RESTORED', { chapter: chapter.number, series: listed.name }));
      expect(inbox).toMatch(/You can’t comment until .+: Be kind/);
      const ptInbox = plain(htmlText((await server.request('/my/notifications/', { site: 'br', headers: { cookie: author.cookie } })).text));
      expect(ptInbox).toMatch(/Você não pode comentar até .+: Be kind/);
      expect(inbox).toContain(message('en', 'notifications.community.BAN_LIFTED'));
      expect(ptInbox).toContain(message('pt-BR', 'notifications.community.BAN_LIFTED'));
      const otherInbox = plain(htmlText((await server.request('/my/notifications/', { headers: { cookie: other.cookie } })).text));
      expect(otherInbox).not.toContain('Your comment on');
      expect(otherInbox).not.toContain('comment until');
    });

    it('with community email on, a moderation decision is also emailed, in the language of the site it was taken on; off (the default), nothing', { timeout: 60_000 }, async () => {
      const [wants, default_] = await Promise.all([createReader(server, { name: 'Lia' }), createReader(server, { name: 'Max' })]);
      const saved = await form(wants, '/my/notifications/settings/', new URLSearchParams([['on', 'chapters.inbox'], ['on', 'money.inbox'], ['on', 'community.inbox'], ['on', 'community.email']]) as unknown as Record<string, string>);
      expect(saved.status).toBe(303);
      const comment = (user: Reader) => withDb(server, async (db) => Number((await db.insertInto('comments').values({
        chapter_id: chapter.id, site_id: 1, language: 'en', user_id: user.id, parent_id: null, body: `A comment ${hex(4)}`, created_at: realNow, edited_at: null, deleted_at: null, state: 'VISIBLE',
      }).returning('id').executeTakeFirstOrThrow()).id));
      const [mine, theirs] = [await comment(wants), await comment(default_)];
      const { moderateComment, banReader } = await import('~/features/comments/index.server');
      const actor = { userId: null, capability: 'moderation' as const, ip: null, userAgent: null };
      const now = Math.floor(Date.now() / 1000);
      expect(await withDb(server, (db) => moderateComment(db, 1, mine, 'remove', actor, now))).toBe('done');
      expect(await withDb(server, (db) => moderateComment(db, 1, theirs, 'remove', actor, now))).toBe('done');
      // A ban taken on the Portuguese site: its email is in Portuguese.
      expect(await withDb(server, (db) => banReader(db, { userId: wants.id, length: 'forever', reason: 'Spam', siteId: 3 }, actor, now))).toMatchObject({ outcome: 'banned' });
      const mails = (r: Reader) => withDb(server, (db) => db.selectFrom('outbox_emails').select(['subject', 'text_body', 'kind']).where('to_address', '=', r.email).where('kind', '=', 'community').orderBy('id').execute());
      const got = await mails(wants);
      expect(got.map((m) => m.subject)).toEqual([`${message('en', 'mail.community.subject')} · ${message('en', 'site.name')}`, `${message('pt-BR', 'mail.community.subject')} · ${message('pt-BR', 'site.name')}`]);
      expect(plain(got[0]!.text_body)).toContain(message('en', 'notifications.community.COMMENT_REMOVED', { chapter: chapter.number, series: listed.name }));
      expect(plain(got[1]!.text_body)).toContain(message('pt-BR', 'notifications.community.BANNED_FOREVER', { reason: 'Spam' }));
      expect(got[0]!.text_body).toContain('/my/notifications/settings/');
      expect(await mails(default_)).toEqual([]);
    });
  });
}
