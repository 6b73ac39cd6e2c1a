/**
 * A reader's own data over real HTTP on both dialects (issue 32; docs/privacy.md): the export
 * holds the reader's rows and nothing of another reader's, and no secret; deleting the account
 * needs the password and the box, is refused signed out and from another site, and then erases
 * what docs/privacy.md says it erases — sessions, favorites, history, notifications, links,
 * queued mail; comments anonymised with others' replies kept — while the money records stay and
 * both audits still pass, the subscription stops renewing, and the email can sign up again.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  CARD_EXPIRY, appCheckHeader, createReader, htmlText, message, selectedDialects, useServer, withDb,
  type Reader, type ServerClient, type SiteName,
} from './harness';

const FORM = 'application/x-www-form-urlencoded';

function post(server: ServerClient, p: string, fields: Record<string, string>, o: { cookie?: string; site?: SiteName; origin?: string; headers?: Record<string, string> } = {}) {
  return server.request(p, {
    method: 'POST', site: o.site, body: new URLSearchParams(fields).toString(), timeoutMs: 90_000,
    headers: { 'content-type': FORM, origin: o.origin ?? server.origin(o.site), ...(o.cookie ? { cookie: o.cookie } : {}), ...o.headers },
  });
}

/** Every key of a JSON value, however deep. */
function keysOf(v: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(v)) for (const x of v) keysOf(x, into);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) { into.add(k); keysOf(x, into); }
  return into;
}

for (const dialect of selectedDialects()) {
  describe(`the reader's data: export and deletion (${dialect})`, () => {
    const server = useServer(dialect);
    let chapter: string;
    let series: string;

    const audit = () => withDb(server, async (db) => {
      const { auditLedger } = await import('~/features/wallet/index.server');
      const { auditOrders } = await import('~/features/commerce/index.server');
      return [...(await auditLedger(db)), ...(await auditOrders(db))];
    });
    afterEach(async () => {
      expect(await audit()).toEqual([]);
    });

    const balances = (r: Reader) => withDb(server, async (db) => (await import('~/features/wallet/index.server')).balancesOf(db, r.id));
    const comment = async (r: Reader, body: string, parent?: number): Promise<number> => {
      await withDb(server, (db) => db.deleteFrom('rate_limits').where((eb) => eb.or([eb('bucket', 'like', `comments:%:${r.id}`), eb('bucket', 'like', `route:%:reader:${r.id}`)])).execute());
      const res = await server.request(`/api/comments/${chapter}/`, {
        method: 'POST', body: new URLSearchParams({ body, ...(parent ? { parent: String(parent) } : {}) }).toString(),
        headers: { 'content-type': FORM, origin: server.origin(), 'sec-fetch-site': 'same-origin', cookie: r.cookie, ...(await appCheckHeader(server, r)) },
      });
      expect(res.status, res.text).toBe(201);
      return (res.json() as { id: number }).id;
    };
    const like = async (r: Reader, id: number) => {
      const res = await server.request(`/api/comments/item/${id}/like/`, { method: 'POST', headers: { origin: server.origin(), 'sec-fetch-site': 'same-origin', cookie: r.cookie } });
      expect(res.status, res.text).toBeLessThan(300);
    };
    const subscribeCard = async (r: Reader) => {
      const nonce = await post(server, '/payments/sandbox/nonce/', { method: 'card', number: '4111111111111111', expiry: CARD_EXPIRY, cvv: '123' }, { cookie: r.cookie });
      expect(nonce.status, nonce.text).toBe(200);
      const res = await post(server, '/my/subscribe/card/', { tier_id: 'reader', method: 'card', nonce: (nonce.json() as { nonce: string }).nonce, device_data: '{}' }, { cookie: r.cookie, headers: await appCheckHeader(server, r) });
      expect([res.status, res.json()]).toEqual([200, { success: true, error: null, message: null }]);
    };

    /** A reader with something in every room: favorite (notify on), progress, a notification, keys, a subscription, comments, likes, a pending email change. */
    const fullReader = async (other: Reader) => {
      const r = await createReader(server, { name: 'Dora Data' });
      const now = Math.floor(Date.now() / 1000);
      await withDb(server, async (db) => {
        const { setFavorite, setNotify } = await import('~/features/library/index.server');
        const { grantKeys } = await import('~/features/wallet/index.server');
        const { notifyReader } = await import('~/features/notifications/index.server');
        expect((await setFavorite(db, r.id, series, true, now)).ok).toBe(true);
        expect((await setNotify(db, r.id, series, true, now)).ok).toBe(true);
        await grantKeys(db, { userId: r.id, keys: 7, xtra: 3, reason: 'account-data test', key: `account-data:${r.id}`, now });
        await notifyReader(db, r.id, 'money', 'PAYMENT_PAID', { amount: 990, currency: 'USD' }, now);
        const ch = await db.selectFrom('chapters').select(['id', 'series_id']).where('e4pid', '=', chapter).executeTakeFirstOrThrow();
        await db.insertInto('reading_progress').values({ user_id: r.id, chapter_id: ch.id, series_id: ch.series_id, completion: 40, completed: 0, first_read: now, last_read: now, token_issued_at: now, seq: 1 }).execute();
      });
      await subscribeCard(r);
      const change = await post(server, '/my/account/', { action: 'email', email: `new-${r.email}`, current: r.password }, { cookie: r.cookie });
      expect(change.status).toBe(303);
      const answered = await comment(r, `Dora answered ${r.id}`);
      await comment(other, `Reply by the other reader to ${r.id}`, answered);
      const alone = await comment(r, `Dora alone ${r.id}`);
      const othersTop = await comment(other, `Other's own ${r.id}`);
      const doraReply = await comment(r, `Dora replies ${r.id}`, othersTop);
      await like(r, othersTop);
      await like(other, answered);
      return { reader: r, answered, alone, othersTop, doraReply };
    };

    beforeAll(async () => {
      const now = Math.floor(Date.now() / 1000);
      const rows = await withDb(server, (db) => db.selectFrom('chapters as c').innerJoin('series as s', 's.id', 'c.series_id').select(['c.e4pid', 's.e4pid as series'])
        .where('c.language', '=', 'en').where('c.released_at', '<=', now - 3600).where('s.state', '=', 'ACTIVE').orderBy('c.id').limit(80).execute());
      for (const r of rows) {
        if ((await server.request(`/api/reader/${r.e4pid}/manifest/`)).status === 200) {
          chapter = r.e4pid;
          series = r.series;
          break;
        }
      }
      expect(chapter).toBeTruthy();
    });

    it('the export is a JSON attachment of the reader\'s own data, with no secret and nothing of another reader', async () => {
      const other = await createReader(server, { name: 'Otto Other' });
      const { reader } = await fullReader(other);
      const res = await server.request('/my/account/export/', { headers: { cookie: reader.cookie } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="inkpass-export-${new Date().toISOString().slice(0, 10)}.json"`);
      const data = res.json() as Record<string, any>;
      expect(data.profile).toMatchObject({ id: reader.id, email: reader.email, display_name: 'Dora Data', locale: 'en', site_id: 1 });
      expect(data.favorites).toEqual([expect.objectContaining({ series, notify: true })]);
      expect(data.reading_history).toEqual([expect.objectContaining({ chapter, completion: 40, completed: false })]);
      // The one told in the setup, and the subscription's payment.
      expect(data.notifications).toEqual(expect.arrayContaining([expect.objectContaining({ category: 'money', kind: 'PAYMENT_PAID' }), expect.objectContaining({ kind: 'SUBSCRIPTION_PAID' })]));
      expect(data.notification_preferences.chapters).toEqual({ inbox: true, push: false, email: false });
      const held = await balances(reader);
      expect(held.keys).toBe(7);
      expect(data.balances).toEqual({ keys: 7, bonus_keys: held.xtra });
      expect(data.ledger.some((e: { kind: string; amount: number }) => e.kind === 'grant' && e.amount === 7)).toBe(true);
      expect(data.subscriptions).toEqual([expect.objectContaining({ plan: 'reader', state: 'ACTIVE', cancelled: false })]);
      expect(data.subscription_charges).toEqual([expect.objectContaining({ state: 'PAID' })]);
      expect(data.comments.map((c: { text: string }) => c.text).sort()).toEqual([`Dora alone ${reader.id}`, `Dora answered ${reader.id}`, `Dora replies ${reader.id}`]);
      expect(data.comments.find((c: { text: string }) => c.text.startsWith('Dora answered'))).toMatchObject({ chapter, likes: 1, replies: 1 });
      expect(data.comment_likes).toHaveLength(1);
      expect(data.email_changes).toEqual([expect.objectContaining({ new_email: `new-${reader.email}`, used_at: null })]);
      expect(data.sessions.length).toBeGreaterThan(0);
      // No secret: no hash or token field, not the session's secret, not the password hash.
      const keys = keysOf(data);
      for (const k of keys) expect(k).not.toMatch(/hash|token|secret|password$|idempotency/i);
      const hash = await withDb(server, async (db) => (await db.selectFrom('users').select('password_hash').where('id', '=', reader.id).executeTakeFirstOrThrow()).password_hash);
      expect(res.text).not.toContain(hash);
      expect(res.text).not.toContain(reader.token.split('.')[0]!);
      expect(res.text).not.toContain(reader.token.split('.')[1]!);
      // Nothing of the other reader (their reply and comment are theirs).
      expect(res.text).not.toContain(other.email);
      expect(res.text).not.toContain('Otto Other');
      expect(res.text).not.toContain(`Reply by the other reader to ${reader.id}`);
      // The other reader's export has none of Dora's.
      const theirs = await server.request('/my/account/export/', { headers: { cookie: other.cookie } });
      expect(theirs.text).not.toContain(reader.email);
      expect(theirs.text).not.toContain(`Dora answered ${reader.id}`);
      expect((theirs.json() as { comments: unknown[] }).comments).toHaveLength(2);
      // The account page links to it and to the deletion, without JavaScript.
      const page = await server.request('/my/account/', { headers: { cookie: reader.cookie } });
      expect(page.text).toContain('href="/my/account/export/"');
      expect(page.text).toContain('href="/my/account/delete/"');
      // Signed out: the login page, back here after.
      const anon = await server.request('/my/account/export/');
      expect(anon.status).toBe(303);
      expect(anon.headers.location).toBe('/auth/login/?next=%2Fmy%2Faccount%2Fexport%2F');
    });

    it('deletion is refused with a wrong password, without the box, signed out and from another site', async () => {
      const reader = await createReader(server, { site: 'br' });
      await withDb(server, async (db) => (await import('~/features/wallet/index.server')).grantKeys(db, { userId: reader.id, keys: 2, xtra: 1, reason: 'account-data test', key: `account-data:${reader.id}`, now: Math.floor(Date.now() / 1000) }));
      const held = await balances(reader);
      const page = await server.request('/my/account/delete/', { site: 'br', headers: { cookie: reader.cookie } });
      expect(page.status).toBe(200);
      // The keys left, paid and bonus, before anything is confirmed.
      expect(htmlText(page.text)).toContain(message('pt-BR', 'account.delete.keysLeft', { keys: 2, xtra: held.xtra }));
      const wrong = await post(server, '/my/account/delete/', { current: 'not-the-password', confirm: '1' }, { cookie: reader.cookie, site: 'br' });
      expect(wrong.status).toBe(422);
      expect(htmlText(wrong.text)).toContain(message('pt-BR', 'account.delete.wrongPassword'));
      const unticked = await post(server, '/my/account/delete/', { current: reader.password }, { cookie: reader.cookie, site: 'br' });
      expect(unticked.status).toBe(422);
      expect(htmlText(unticked.text)).toContain(message('pt-BR', 'account.delete.confirmMissing'));
      const anonymous = await post(server, '/my/account/delete/', { current: reader.password, confirm: '1' }, { site: 'br' });
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.location).toMatch(/^\/auth\/login\//);
      const crossSite = await post(server, '/my/account/delete/', { current: reader.password, confirm: '1' }, { cookie: reader.cookie, site: 'br', origin: 'https://evil.example', headers: { 'sec-fetch-site': 'cross-site' } });
      expect(crossSite.status).toBe(403);
      // Still there: the account page answers and the password signs in.
      expect((await server.request('/my/account/', { site: 'br', headers: { cookie: reader.cookie } })).status).toBe(200);
      const login = await post(server, '/auth/login/', { email: reader.email, password: reader.password }, { site: 'br' });
      expect(login.status).toBe(303);
      expect(await withDb(server, (db) => db.selectFrom('audit_log').select('id').where('action', '=', 'account.delete').where('object_id', '=', String(reader.id)).execute())).toEqual([]);
    });

    it('deletion erases the personal rows in one go, keeps the money records, stops the subscription, and frees the email', async () => {
      const other = await createReader(server, { name: 'Otto Other' });
      const { reader, answered, alone, othersTop, doraReply } = await fullReader(other);
      const count = (table: 'favorites' | 'reading_progress' | 'notifications' | 'notification_prefs' | 'sessions' | 'email_changes' | 'ledger_transactions' | 'orders' | 'subscription_charges') =>
        withDb(server, async (db) => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('user_id', '=', reader.id).executeTakeFirstOrThrow()).n));
      const ledgerBefore = await count('ledger_transactions');
      const chargesBefore = await count('subscription_charges');
      expect(await count('favorites')).toBe(1);
      // Named a creator of the series (the comments' badge): the deletion takes the account off it.
      const creatorRows = () => withDb(server, (db) => db.selectFrom('series_creators').select('series_id').where('user_id', '=', reader.id).execute());
      await withDb(server, async (db) => {
        const { id } = await db.selectFrom('series').select('id').where('e4pid', '=', series).executeTakeFirstOrThrow();
        await db.insertInto('series_creators').values({ series_id: id, user_id: reader.id, position: 0 }).execute();
      });
      expect(await creatorRows()).toHaveLength(1);
      // A device that gets push (its endpoint is personal data), with a push waiting and quiet hours.
      const pushRows = () => withDb(server, async (db) => Promise.all((['push_subscriptions', 'push_outbox', 'push_quiet_hours', 'notification_digests'] as const).map(async (t) => (await db.selectFrom(t).select('user_id').where('user_id', '=', reader.id).execute()).length)));
      await withDb(server, async (db) => {
        const now = Math.floor(Date.now() / 1000);
        await db.insertInto('push_subscriptions').values({ user_id: reader.id, endpoint: `https://fcm.googleapis.com/fcm/send/${reader.id}-erase`, p256dh: 'k', auth: 'a', time_zone: 'UTC', site_id: 1, device: 'Chrome', created_at: now }).execute();
        await db.insertInto('push_outbox').values({ user_id: reader.id, category: 'chapters', kind: 'CHAPTER_RELEASED', series_id: null, site_id: 1, data: '{}', due_at: now }).execute();
        await db.insertInto('push_quiet_hours').values({ user_id: reader.id, enabled: 1, start_hour: 23, end_hour: 7 }).execute();
      });
      // And a weekly digest, chosen on the settings form of the Portuguese site.
      expect((await post(server, '/my/notifications/settings/', { on: 'chapters.inbox', digest_was: 'off', digest: 'weekly' }, { cookie: reader.cookie, site: 'br' })).status).toBe(303);
      expect(await pushRows()).toEqual([1, 1, 1, 1]);
      const exported = (await server.request('/my/account/export/', { headers: { cookie: reader.cookie } })).json() as { creator_of_series: { series: string }[] };
      expect(exported.creator_of_series).toEqual([expect.objectContaining({ series })]);
      expect((exported as unknown as { push_devices: unknown[]; quiet_hours: unknown }).push_devices).toEqual([expect.objectContaining({ device: 'Chrome', time_zone: 'UTC' })]);
      expect((exported as unknown as { quiet_hours: unknown }).quiet_hours).toEqual({ enabled: true, start_hour: 23, end_hour: 7 });
      expect((exported as unknown as { email_digest: unknown }).email_digest).toEqual({ frequency: 'weekly', site_id: 3, last_digest_at: expect.any(Number) });
      expect(JSON.stringify(exported)).not.toContain('-erase');
      expect(await withDb(server, (db) => db.selectFrom('outbox_emails').select('id').where('to_address', '=', reader.email).execute())).not.toEqual([]);

      const res = await post(server, '/my/account/delete/', { current: reader.password, confirm: '1' }, { cookie: reader.cookie });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe('/my/account/delete/?done=1');
      expect(res.headers['set-cookie']).toMatch(/inkpass_session=;.*Max-Age=0/i);
      const done = await server.request(res.headers.location!);
      expect(done.status).toBe(200);
      expect(htmlText(done.text)).toContain(message('en', 'account.delete.doneTitle'));

      // Signed out everywhere, and the password no longer signs in (the usual wrong-credentials answer).
      expect((await server.request('/my/account/', { headers: { cookie: reader.cookie } })).status).toBe(303);
      const login = await post(server, '/auth/login/', { email: reader.email, password: reader.password });
      expect(login.status).toBe(401);
      expect(htmlText(login.text)).toContain(message('en', 'auth.login.invalid'));
      for (const table of ['sessions', 'favorites', 'reading_progress', 'notifications', 'notification_prefs', 'email_changes'] as const) expect(await count(table), table).toBe(0);
      expect(await creatorRows()).toEqual([]);
      expect(await pushRows()).toEqual([0, 0, 0, 0]);
      expect(await withDb(server, (db) => db.selectFrom('outbox_emails').select('id').where('to_address', 'in', [reader.email, `new-${reader.email}`]).execute())).toEqual([]);

      // The account row stays, anonymised: no email of theirs, no name, no password.
      const row = await withDb(server, (db) => db.selectFrom('users').select(['email', 'display_name', 'password_hash', 'is_staff']).where('id', '=', reader.id).executeTakeFirstOrThrow());
      expect(row.email).toMatch(new RegExp(`^deleted-${reader.id}-[0-9a-f]{12}@deleted\\.invalid$`));
      expect([row.display_name, row.password_hash, Number(row.is_staff)]).toEqual(['', '', 0]);

      // Comments: the one others answered stays as "[deleted]" without text, with the reply; the rest go.
      const list = await server.request(`/api/comments/${chapter}/`, { headers: { cookie: other.cookie } });
      const comments = (list.json() as { comments: { id: number; body: string; deleted: boolean; author: { name: string } | null; replies: { id: number; body: string }[] }[] }).comments;
      const kept = comments.find((c) => c.id === answered)!;
      expect(kept).toMatchObject({ body: '', deleted: true, author: null, replies: [{ body: `Reply by the other reader to ${reader.id}` }] });
      for (const text of [`Dora answered ${reader.id}`, `Dora alone ${reader.id}`, `Dora replies ${reader.id}`]) expect(list.text).not.toContain(text);
      // The comments page shows the kept one as "[deleted]" with the reply under it.
      const html = htmlText((await server.request(`/comments/${chapter}/`)).text);
      expect(html).toContain(message('en', 'comments.deletedAuthor'));
      expect(html).toContain(`Reply by the other reader to ${reader.id}`);
      expect(html).not.toContain(`Dora answered ${reader.id}`);
      expect(comments.find((c) => c.id === alone)).toBeUndefined();
      const theirs = comments.find((c) => c.id === othersTop)!;
      expect(theirs.replies.find((r) => r.id === doraReply)).toBeUndefined();
      const stored = await withDb(server, (db) => db.selectFrom('comments').select(['id', 'body', 'like_count', 'reply_count']).where('id', 'in', [answered, alone, othersTop, doraReply]).orderBy('id').execute());
      expect(stored.map((c) => [Number(c.id), c.body, Number(c.like_count), Number(c.reply_count)])).toEqual([
        [answered, '', 1, 1], [othersTop, `Other's own ${reader.id}`, 0, 0],
      ]);

      // Money records stay (the audits run after each test), the subscription renews no more.
      expect(await count('ledger_transactions')).toBe(ledgerBefore);
      expect(await count('subscription_charges')).toBe(chargesBefore);
      const sub = await withDb(server, (db) => db.selectFrom('subscriptions').select(['id', 'state', 'cancel_at_period_end', 'payment_token']).where('user_id', '=', reader.id).executeTakeFirstOrThrow());
      expect([sub.state, Number(sub.cancel_at_period_end), sub.payment_token]).toEqual(['ACTIVE', 1, null]);
      const events = await withDb(server, (db) => db.selectFrom('subscription_events').select(['source', 'detail']).where('subscription_id', '=', sub.id).orderBy('id', 'desc').limit(1).execute());
      expect(events).toEqual([{ source: 'reader', detail: 'account deleted: no further renewal' }]);
      const entry = await withDb(server, (db) => db.selectFrom('audit_log').select(['actor_id', 'capability', 'after_json']).where('action', '=', 'account.delete').where('object_id', '=', String(reader.id)).execute());
      expect(entry).toHaveLength(1);
      expect(JSON.parse(entry[0]!.after_json!)).toMatchObject({ state: 'deleted', erased: { wallet: { keys_left: 7 }, library: { favorites: 1, progress: 1 }, subscriptions: { subscriptions_stopped: 1 } } });
      expect(entry[0]!.after_json).not.toContain(reader.email);

      // The email can sign up again, as a new account with nothing of the old one's.
      const again = await server.request('/auth/signup/', {
        method: 'POST', body: new URLSearchParams({ email: reader.email, display_name: 'Dora Again', password: 'another-pass-1', terms: '1' }).toString(),
        headers: { 'content-type': FORM, origin: server.origin(), 'sec-fetch-site': 'same-origin' },
      });
      expect(again.status, again.text.slice(0, 300)).toBe(303);
      const fresh = await withDb(server, (db) => db.selectFrom('users').select('id').where('email', '=', reader.email).executeTakeFirstOrThrow());
      expect(Number(fresh.id)).not.toBe(reader.id);
    });
  });
}
