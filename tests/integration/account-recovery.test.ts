/**
 * Account recovery and the email outbox over real HTTP on both dialects (docs/accounts.md,
 * "Forgotten password"; docs/operations.md, "Email"): reset links are single use, expire after
 * an hour (a server on a fake clock), and stop working after a password change; the forgotten-
 * password form answers the same for known and unknown emails; /dev/outbox/ exists only in a
 * demo; mail stays queued and is retried while the SMTP server is down, then goes out.
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createReader, freePort, htmlText, message, preparedDatabase, ROOT, selectedDialects, startExtraServer, until, useServer, withDb,
  type Reader, type ServerClient, type ServerHandle, type SiteName,
} from './harness';

const FORM = 'application/x-www-form-urlencoded';
const FAKE_CLOCK = pathToFileURL(path.join(ROOT, 'tests/support/fake-clock.mjs')).href;
const at = (unix: number) => ({ NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${FAKE_CLOCK}`.trim(), INKPASS_FAKE_NOW: String(unix), INKPASS_FAKE_FROZEN: '1' });
const SECRET = 'recovery-test-secret-0123456789abcdef0123456789';

function post(server: ServerClient, p: string, fields: Record<string, string>, o: { cookie?: string; site?: SiteName } = {}) {
  return server.request(p, {
    method: 'POST', site: o.site, body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': FORM, origin: server.origin(o.site), ...(o.cookie ? { cookie: o.cookie } : {}) },
  });
}

/** The signed-in reader's id on a page, or null. */
async function whoAmI(server: ServerClient, cookie: string): Promise<number | null> {
  const page = await server.request('/', { headers: { cookie } });
  const data = /<script type="application\/json" id="page-user-data">([\s\S]*?)<\/script>/.exec(page.text)?.[1];
  return data ? ((JSON.parse(data) as { id?: number } | null)?.id ?? null) : null;
}

async function forgetResetLimits(server: { databaseUrl: string }): Promise<void> {
  await withDb(server, (db) => db.deleteFrom('rate_limits').where('bucket', 'like', 'reset:%').execute());
}

/** The newest queued message to `email`. */
async function lastMail(server: { databaseUrl: string }, email: string) {
  return withDb(server, (db) => db.selectFrom('outbox_emails').selectAll().where('to_address', '=', email).orderBy('id', 'desc').executeTakeFirst());
}

/** Asks for a reset link for `email` and returns the link's path, read from the queued message. */
async function resetLink(server: ServerClient, email: string): Promise<string> {
  await forgetResetLimits(server);
  const before = (await lastMail(server, email))?.id ?? 0;
  const res = await post(server, '/auth/password/forgot/', { email });
  expect(res.status).toBe(200);
  const mail = await lastMail(server, email);
  expect(mail && Number(mail.id) > Number(before)).toBe(true);
  const link = /https?:\/\/[^\s/]+(\/auth\/password\/reset\/[A-Za-z0-9_-]{43}\/)/.exec(mail!.text_body)?.[1];
  expect(link).toBeTruthy();
  // Like every message, it ends with the link to the notification settings.
  expect(mail!.text_body).toMatch(/\/my\/notifications\/settings\/\n$/);
  return link!;
}

for (const dialect of selectedDialects()) {
  describe(`forgotten password and account changes (${dialect})`, () => {
    const server = useServer(dialect);
    const extra: ServerHandle[] = [];
    afterAll(async () => {
      await Promise.all(extra.map((s) => s.stop()));
    });

    it('the same status and body for a known and an unknown email; nothing is queued for the unknown one', async () => {
      const reader = await createReader(server);
      const unknown = `nobody-${crypto.randomBytes(5).toString('hex')}@example.test`;
      await forgetResetLimits(server);
      const known = await post(server, '/auth/password/forgot/', { email: reader.email });
      await forgetResetLimits(server);
      const nobody = await post(server, '/auth/password/forgot/', { email: unknown });
      expect(known.status).toBe(200);
      expect(nobody.status).toBe(known.status);
      expect(nobody.text).toBe(known.text);
      expect(htmlText(known.text)).toContain(message('en', 'auth.forgot.sent'));
      expect(await lastMail(server, unknown)).toBeUndefined();
      const mail = await lastMail(server, reader.email);
      expect(mail).toMatchObject({ kind: 'password.reset', status: 'pending' });
      // Both parts, the site's name, no tracking: the links are the reset link and the
      // notification settings, both plain addresses on this site.
      expect(mail!.subject).toContain('Inkpass');
      const hrefs = [...mail!.html_body.matchAll(/<a href="([^"]+)"/g)].map((m) => new URL(m[1]!.replace(/&amp;/g, '&')));
      expect(hrefs.map((u) => u.pathname)).toEqual([expect.stringMatching(/^\/auth\/password\/reset\/[A-Za-z0-9_-]{43}\/$/), '/my/notifications/settings/']);
      expect(hrefs.every((u) => u.origin === server.origin() && u.search === '')).toBe(true);
      expect(mail!.html_body).not.toMatch(/<img/i);
      // Only the token's hash is stored.
      const token = /reset\/([A-Za-z0-9_-]{43})\//.exec(mail!.text_body)![1]!;
      const stored = await withDb(server, (db) => db.selectFrom('password_resets').select('token_hash').where('user_id', '=', reader.id).execute());
      expect(stored.map((r) => r.token_hash)).toEqual([crypto.createHash('sha256').update(token).digest('hex')]);
    });

    it('answers a known and an unknown email in the same timing class (the email is never sent during the request)', async () => {
      const reader = await createReader(server);
      const unknown = `nobody-${crypto.randomBytes(5).toString('hex')}@example.test`;
      const time = async (email: string) => {
        await forgetResetLimits(server);
        const started = performance.now();
        expect((await post(server, '/auth/password/forgot/', { email })).status).toBe(200);
        return performance.now() - started;
      };
      const known: number[] = [];
      const nobody: number[] = [];
      for (let i = 0; i < 7; i++) {
        known.push(await time(reader.email));
        nobody.push(await time(unknown));
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      // The same class: a known email costs a token and a queued row, not an SMTP round trip.
      expect(median(known)).toBeLessThan(median(nobody) * 3 + 50);
    });

    it('is limited per email: the fourth request within an hour answers 429', async () => {
      const reader = await createReader(server);
      await forgetResetLimits(server);
      for (let i = 0; i < 3; i++) expect((await post(server, '/auth/password/forgot/', { email: reader.email })).status).toBe(200);
      const limited = await post(server, '/auth/password/forgot/', { email: reader.email });
      expect(limited.status).toBe(429);
      expect(limited.headers['retry-after']).toBeTruthy();
    });

    it('is limited per address too: after ten requests for any emails within an hour, the eleventh answers 429 and queues nothing', async () => {
      const reader = await createReader(server);
      await forgetResetLimits(server);
      try {
        for (let i = 0; i < 10; i++) expect((await post(server, '/auth/password/forgot/', { email: `nobody-${i}-${crypto.randomBytes(4).toString('hex')}@example.test` })).status).toBe(200);
        // A real account's email, asked for the first time, from the same address: refused, nothing queued.
        const limited = await post(server, '/auth/password/forgot/', { email: reader.email });
        expect(limited.status).toBe(429);
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        expect(await lastMail(server, reader.email)).toBeUndefined();
      } finally {
        await forgetResetLimits(server);
      }
    });

    it('a reset link works once, signs out every session, and the new password logs in', async () => {
      const reader = await createReader(server);
      const link = await resetLink(server, reader.email);
      expect((await server.request(link)).status).toBe(200);
      expect(await whoAmI(server, reader.cookie)).toBe(reader.id);
      const done = await post(server, link, { password: 'brand-new-pass-1' });
      expect(done.status).toBe(303);
      const fresh = /(?:^|\n)inkpass_session=([^;]+)/.exec(done.headers['set-cookie'] ?? '')?.[1];
      expect(fresh).toBeTruthy();
      // The old session is gone; the browser that reset it is signed in.
      expect(await whoAmI(server, reader.cookie)).toBeNull();
      expect(await whoAmI(server, `inkpass_session=${fresh}`)).toBe(reader.id);
      // Used: the link no longer works, to look at or to post.
      expect((await server.request(link)).status).toBe(410);
      const again = await post(server, link, { password: 'another-pass-22' });
      expect(again.status).toBe(410);
      expect(htmlText(again.text)).toContain(message('en', 'auth.reset.expired'));
      const oldLogin = await post(server, '/auth/login/', { email: reader.email, password: reader.password });
      expect(oldLogin.status).toBe(401);
      const newLogin = await post(server, '/auth/login/', { email: reader.email, password: 'brand-new-pass-1' });
      expect(newLogin.status).toBe(303);
    });

    it('a reset link expires after one hour (a server whose clock reads an hour and a second later)', { timeout: 120_000 }, async () => {
      const reader = await createReader(server);
      const link = await resetLink(server, reader.email);
      const issued = Number((await withDb(server, (db) => db.selectFrom('password_resets').select('created_at').where('user_id', '=', reader.id).executeTakeFirstOrThrow())).created_at);
      const nearly = await startExtraServer(server, at(issued + 3599));
      extra.push(nearly);
      expect((await nearly.request(link)).status).toBe(200);
      const later = await startExtraServer(server, at(issued + 3600));
      extra.push(later);
      expect((await later.request(link)).status).toBe(410);
      expect((await post(later, link, { password: 'too-late-pass-1' })).status).toBe(410);
      // Refused by the late server, it still works on time: the refusal did not use it up.
      expect((await server.request(link)).status).toBe(200);
    });

    it('a password change on /my/account/ asks for the current one, ends the other sessions and every reset link', async () => {
      const reader: Reader = await createReader(server);
      const other = await post(server, '/auth/login/', { email: reader.email, password: reader.password });
      const otherCookie = `inkpass_session=${/(?:^|\n)inkpass_session=([^;]+)/.exec(other.headers['set-cookie'] ?? '')![1]}`;
      const link = await resetLink(server, reader.email);
      const wrong = await post(server, '/my/account/', { action: 'password', current: 'not-my-password', password: 'next-pass-123' }, { cookie: reader.cookie });
      expect(wrong.status).toBe(403);
      expect(htmlText(wrong.text)).toContain(message('en', 'account.password.wrongCurrent'));
      const ok = await post(server, '/my/account/', { action: 'password', current: reader.password, password: 'next-pass-123' }, { cookie: reader.cookie });
      expect(ok.status).toBe(303);
      expect(await whoAmI(server, reader.cookie)).toBe(reader.id);
      expect(await whoAmI(server, otherCookie)).toBeNull();
      expect((await server.request(link)).status).toBe(410);
      expect((await post(server, link, { password: 'sneaky-pass-1' })).status).toBe(410);
    });

    it('lists the sessions with their device, signs out one, then all others', async () => {
      const reader = await createReader(server);
      const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';
      const signIn = async (ua: string, country?: string) => {
        const r = await server.request('/auth/login/', { method: 'POST', body: new URLSearchParams({ email: reader.email, password: reader.password }).toString(), headers: { 'content-type': FORM, origin: server.origin(), 'user-agent': ua, ...(country ? { 'cf-ipcountry': country } : {}) } });
        return `inkpass_session=${/(?:^|\n)inkpass_session=([^;]+)/.exec(r.headers['set-cookie'] ?? '')![1]}`;
      };
      // The test servers believe cf-ipcountry (COUNTRY_HEADER): the session keeps its place.
      const a = await signIn(firefox, 'BR');
      const b = await signIn('Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1');
      const page = await server.request('/my/account/', { headers: { cookie: reader.cookie } });
      expect(page.status).toBe(200);
      const text = htmlText(page.text);
      expect(text).toContain('Firefox · Linux');
      expect(text).toContain('Safari · iOS');
      expect(text).toContain('Brazil · ');
      // No session id (half of a cookie) is ever on the page.
      for (const c of [a, b, reader.cookie]) expect(page.text).not.toContain(c.split('=')[1]!.split('.')[0]!);
      const handles = [...page.text.matchAll(/name="session" value="([0-9a-f]{24})"/g)].map((m) => m[1]!);
      expect(handles).toHaveLength(2);
      // Sign out the Firefox one (the first listed after this device? find it by trying each).
      const firefoxHandle = handles[page.text.indexOf('Firefox · Linux') < page.text.indexOf('Safari · iOS') ? 0 : 1]!;
      expect((await post(server, '/my/account/', { action: 'signout', session: firefoxHandle }, { cookie: reader.cookie })).status).toBe(303);
      expect(await whoAmI(server, a)).toBeNull();
      expect(await whoAmI(server, b)).toBe(reader.id);
      expect((await post(server, '/my/account/', { action: 'others' }, { cookie: reader.cookie })).status).toBe(303);
      expect(await whoAmI(server, b)).toBeNull();
      expect(await whoAmI(server, reader.cookie)).toBe(reader.id);
      // A name change, and a refused empty one.
      expect((await post(server, '/my/account/', { action: 'name', display_name: '  Nova   Leitora ' }, { cookie: reader.cookie })).status).toBe(303);
      expect(await withDb(server, (db) => db.selectFrom('users').select('display_name').where('id', '=', reader.id).executeTakeFirstOrThrow())).toEqual({ display_name: 'Nova Leitora' });
      expect((await post(server, '/my/account/', { action: 'name', display_name: '  ' }, { cookie: reader.cookie })).status).toBe(400);
      // Signed out, the page sends to the login.
      const anonymous = await server.request('/my/account/');
      expect(anonymous.status).toBe(303);
      expect(anonymous.headers.location).toContain('/auth/login/');
    });

    it('a pending email change ends with a password reset, a password change or signing out the others; a confirmed one ends the reset links', async () => {
      // Someone who knew the password asks to move the account to their address; the owner's
      // answer (a reset, a new password, signing out the others) must leave that link dead.
      const askMove = async (reader: Reader) => {
        const to = `taker-${crypto.randomBytes(5).toString('hex')}@example.test`;
        expect((await post(server, '/my/account/', { action: 'email', email: to, current: reader.password }, { cookie: reader.cookie })).status).toBe(303);
        return /https?:\/\/[^\s/]+(\/auth\/email\/confirm\/[A-Za-z0-9_-]{43}\/)/.exec((await lastMail(server, to))!.text_body)![1]!;
      };
      const emailOf = (r: Reader) => withDb(server, (db) => db.selectFrom('users').select('email').where('id', '=', r.id).executeTakeFirstOrThrow());
      const reset = await createReader(server);
      const afterReset = await askMove(reset);
      expect((await post(server, await resetLink(server, reset.email), { password: 'owner-again-1' })).status).toBe(303);
      const changed = await createReader(server);
      const afterChange = await askMove(changed);
      expect((await post(server, '/my/account/', { action: 'password', current: changed.password, password: 'owner-again-2' }, { cookie: changed.cookie })).status).toBe(303);
      const others = await createReader(server);
      const afterOthers = await askMove(others);
      expect((await post(server, '/my/account/', { action: 'others' }, { cookie: others.cookie })).status).toBe(303);
      for (const [r, link] of [[reset, afterReset], [changed, afterChange], [others, afterOthers]] as const) {
        expect((await server.request(link)).status).toBe(410);
        expect((await post(server, link, {})).status).toBe(410);
        expect(await emailOf(r)).toEqual({ email: r.email });
      }
      // A reset link mailed to the old address stops working once the new address confirms.
      const moving = await createReader(server);
      const oldLink = await resetLink(server, moving.email);
      expect((await post(server, await askMove(moving), {})).status).toBe(200);
      expect((await server.request(oldLink)).status).toBe(410);
      expect((await post(server, oldLink, { password: 'old-mailbox-pass-1' })).status).toBe(410);
    });

    it('changing the email: asks the password, tells the old address, changes only when the new address confirms', async () => {
      const reader = await createReader(server);
      const next = `moved-${crypto.randomBytes(5).toString('hex')}@example.test`;
      const wrong = await post(server, '/my/account/', { action: 'email', email: next, current: 'not-my-password' }, { cookie: reader.cookie });
      expect(wrong.status).toBe(403);
      expect(await lastMail(server, next)).toBeUndefined();
      const asked = await post(server, '/my/account/', { action: 'email', email: next, current: reader.password }, { cookie: reader.cookie });
      expect(asked.status).toBe(303);
      // Nothing changed yet; the old address is told, the new one gets the link.
      const email = () => withDb(server, (db) => db.selectFrom('users').select('email').where('id', '=', reader.id).executeTakeFirstOrThrow());
      expect(await email()).toEqual({ email: reader.email });
      expect(await lastMail(server, reader.email)).toMatchObject({ kind: 'email.notice' });
      expect((await lastMail(server, reader.email))!.html_body).toContain('/my/notifications/settings/');
      const confirm = await lastMail(server, next);
      expect(confirm).toMatchObject({ kind: 'email.confirm' });
      const link = /https?:\/\/[^\s/]+(\/auth\/email\/confirm\/[A-Za-z0-9_-]{43}\/)/.exec(confirm!.text_body)![1]!;
      // Opening the link (a mail scanner would) changes nothing; the button does.
      expect((await server.request(link)).status).toBe(200);
      expect(await email()).toEqual({ email: reader.email });
      const done = await post(server, link, {});
      expect(done.status).toBe(200);
      expect(htmlText(done.text)).toContain(message('en', 'auth.emailConfirm.done'));
      expect(await email()).toEqual({ email: next });
      expect((await post(server, '/auth/login/', { email: next, password: reader.password })).status).toBe(303);
      expect((await post(server, '/auth/login/', { email: reader.email, password: reader.password })).status).toBe(401);
      // Used: the link no longer works.
      expect((await post(server, link, {})).status).toBe(410);
      // An address another account uses gets no link, and the page answers the same.
      const other = await createReader(server);
      const taken = await post(server, '/my/account/', { action: 'email', email: other.email, current: reader.password }, { cookie: reader.cookie });
      expect(taken.status).toBe(303);
      expect(taken.headers.location).toBe(asked.headers.location);
      expect((await lastMail(server, other.email))).toBeUndefined();
    });

    it('the demo outbox lists the queued messages and shows one, with its link', async () => {
      const reader = await createReader(server);
      const link = await resetLink(server, reader.email);
      const mail = await lastMail(server, reader.email);
      const list = await server.request('/dev/outbox/');
      expect(list.status).toBe(200);
      expect(list.text).toContain(`/dev/outbox/${mail!.id}/`);
      const one = await server.request(`/dev/outbox/${mail!.id}/`);
      expect(one.status).toBe(200);
      expect(one.text).toContain(link);
      expect((await server.request('/dev/outbox/999999999/')).status).toBe(404);
    });
  });

  describe(`the outbox in production mode, with SMTP down then up (${dialect})`, () => {
    let db: { url: string; drop(): Promise<void> } | undefined;
    let prod: ServerHandle | undefined;
    let smtp: SMTPServer | undefined;
    let smtpPort = 0;
    const received: { to: string; raw: string }[] = [];

    beforeAll(async () => {
      smtpPort = await freePort();
      const env = { INKPASS_MODE: 'production', INKPASS_SECRET: SECRET, SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, MAIL_FROM: 'Inkpass <no-reply@example.test>' };
      db = await preparedDatabase(dialect, env);
      prod = await startExtraServer({ dialect, databaseUrl: db.url }, env);
    }, 300_000);
    afterAll(async () => {
      await prod?.stop();
      await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
      await db?.drop();
    });

    it('/dev/outbox/ is the 404 page', async () => {
      expect((await prod!.request('/dev/outbox/')).status).toBe(404);
      expect((await prod!.request('/dev/outbox/1/')).status).toBe(404);
    });

    it('keeps a message queued and retries it with back-off while SMTP is down, then sends it', { timeout: 120_000 }, async () => {
      const reader = await createReader(prod!);
      // A message sent 31 days ago: the worker deletes it (KEEP_SENT_SECONDS); one sent 29 days ago stays.
      const ago = (days: number) => Math.floor(Date.now() / 1000) - days * 86400;
      const old = await withDb(prod!, (d) => d.insertInto('outbox_emails').values([31, 29].map((days) => ({
        to_address: `old-${days}@example.test`, subject: 's', text_body: 't', html_body: 'h', kind: 'test', status: 'sent' as const, attempts: 1, next_attempt_at: ago(days), created_at: ago(days), sent_at: ago(days),
      }))).returning('id').execute());
      expect((await post(prod!, '/auth/password/forgot/', { email: reader.email })).status).toBe(200);
      const row = () => lastMail(prod!, reader.email);
      await until('the worker has tried and failed', async () => ((await row())?.attempts ?? 0) >= 1, 60_000);
      const failed = (await row())!;
      expect(failed.status).toBe('pending');
      expect(failed.last_error).toBeTruthy();
      expect(failed.sent_at).toBeNull();
      // Back-off: the next try waits at least 30 s.
      expect(Number(failed.next_attempt_at) - Number(failed.created_at)).toBeGreaterThanOrEqual(30);

      smtp = new SMTPServer({
        authOptional: true, hideSTARTTLS: true, disabledCommands: ['STARTTLS'], logger: false,
        onData(stream, session, callback) {
          let raw = '';
          stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
          stream.on('end', () => {
            received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
            callback();
          });
        },
      });
      await new Promise<void>((resolve) => smtp!.listen(smtpPort, '127.0.0.1', () => resolve()));
      // Time passes: the retry is due now (instead of waiting out the back-off).
      await withDb({ databaseUrl: db!.url }, (d) => d.updateTable('outbox_emails').set({ next_attempt_at: Math.floor(Date.now() / 1000) - 1 }).where('id', '=', failed.id).execute());
      await until('the message is sent', async () => {
        await prod!.request('/');
        return (await row())?.status === 'sent';
      }, 60_000);
      const sent = (await row())!;
      expect(Number(sent.attempts)).toBeGreaterThanOrEqual(2);
      expect(sent.sent_at).not.toBeNull();
      const mail = received.find((m) => m.to === reader.email);
      expect(mail).toBeTruthy();
      expect(mail!.raw).toContain('multipart/alternative');
      expect(mail!.raw.replace(/=\r?\n/g, '')).toMatch(/\/auth\/password\/reset\//);
      expect(mail!.raw).toContain('no-reply@example.test');
      const kept = await withDb(prod!, (d) => d.selectFrom('outbox_emails').select('to_address').where('id', 'in', old.map((r) => r.id)).execute());
      expect(kept).toEqual([{ to_address: 'old-29@example.test' }]);
    });
  });
}
