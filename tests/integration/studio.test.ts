/**
 * The staff studio's pages (issue 27, docs/staff.md), on both databases: every page under
 * src/pages/studio/ sends a signed-out visitor to the login page (coming back) and refuses a
 * reader; /studio/ lists only the sections a member of staff may use; /studio/audit/ is admin
 * only, filters by person, object and days, answers malformed filters with a message (400, never
 * a 500) and escapes what the records hold.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anySeries, createReader, htmlText, markup, message, ROOT, selectedDialects, useServer, withDb, type Reader, type ServerClient } from './harness';

type Capability = 'content' | 'pricing' | 'support' | 'money' | 'moderation' | 'admin';

/** Every page of the studio, from its files: a new page without the check fails below. */
function studioPages(): string[] {
  const dir = path.join(ROOT, 'src/pages/studio');
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) walk(full);
      else if (/\.(astro|ts)$/.test(e.name) && !/\.test\.ts$/.test(e.name)) {
        const rel = path.relative(path.join(ROOT, 'src/pages'), full).replace(/\\/g, '/').replace(/\.(astro|ts)$/, '');
        // A page per object ([id]) is asked for with a sample id: the check comes before the id is read.
        out.push(`/${rel.replace(/(^|\/)index$/, '').replace(/\[[^\]]+\]/g, '1')}/`.replace(/\/+/g, '/'));
      }
    }
  };
  walk(dir);
  return out.sort();
}

async function grant(server: ServerClient, email: string, capability: Capability, change: 'grant' | 'revoke' = 'grant', actorId: number | null = null) {
  await withDb(server, async (db) => {
    const { changeCapability } = await import('~/features/accounts/index.server');
    await changeCapability(db, { email, capability, change, actor: { userId: actorId, capability: 'admin', ip: actorId ? '203.0.113.9' : null, userAgent: actorId ? 'studio-test/1.0' : null } });
  });
}

async function staff(server: ServerClient, ...capabilities: Capability[]): Promise<Reader> {
  const r = await createReader(server);
  for (const c of capabilities) await grant(server, r.email, c);
  return r;
}

const get = (server: ServerClient, path: string, who: Reader | null, site: 'en' | 'br' = 'en') =>
  server.request(path, { site, headers: who ? { cookie: who.cookie } : {} });

/** A staff page form as a browser sends it from this site (or, with `origin`, from another). */
const post = (server: ServerClient, who: Reader | null, fields: Record<string, string>, opts: { site?: 'en' | 'br'; origin?: string } = {}) =>
  server.request('/studio/staff/', {
    site: opts.site ?? 'en',
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'text/html',
      origin: opts.origin ?? server.origin(opts.site ?? 'en'),
      'sec-fetch-site': opts.origin ? 'cross-site' : 'same-origin',
      ...(who ? { cookie: who.cookie } : {}),
    },
  });

const capabilitiesOf = (server: ServerClient, id: number) =>
  withDb(server, async (db) => (await db.selectFrom('user_capabilities').select('capability').where('user_id', '=', id).orderBy('capability').execute()).map((r) => r.capability));

/** The audit table's rows as text. */
const rowsOf = (html: string) => [...html.matchAll(/<tr class="audit-row"[^>]*>([\s\S]*?)<\/tr>/g)].map((m) => htmlText(m[1]!));

for (const dialect of selectedDialects()) {
  describe(`staff studio (${dialect})`, () => {
    const server = useServer(dialect);

    it('every studio page sends the signed-out to the login page with the way back, and refuses a reader in its language', async () => {
      const pages = studioPages();
      expect(pages).toEqual(expect.arrayContaining(['/studio/', '/studio/audit/', '/studio/staff/', '/studio/series/', '/studio/series/new/', '/studio/series/1/', '/studio/series/1/images/']));
      const reader = await createReader(server);
      for (const page of pages) {
        const anon = await get(server, page, null);
        expect([page, anon.status, anon.headers.location]).toEqual([page, 303, `/auth/login/?next=${encodeURIComponent(page)}`]);
        for (const site of ['en', 'br'] as const) {
          const res = await get(server, page, reader, site);
          expect([page, site, res.status]).toEqual([page, site, 403]);
          expect(res.text).toContain(message(site === 'en' ? 'en' : 'pt-BR', 'staff.error.forbidden'));
          expect(res.headers['cache-control']).toContain('no-store');
        }
      }
    });

    it('/studio/ lists only the sections a member of staff may use; audit is admin only; pages are no-store and noindex', async () => {
      const support = await staff(server, 'support');
      const home = await get(server, '/studio/', support);
      expect(home.status).toBe(200);
      expect(home.headers['cache-control']).toContain('no-store');
      expect(home.text).toContain('<meta name="robots" content="noindex"');
      expect(markup(home.text)).not.toContain('href="/studio/audit/"');
      expect(markup(home.text)).not.toContain('href="/studio/staff/"');
      expect(markup(home.text)).toContain('href="/studio/readers/"');
      expect(markup(home.text)).toContain('href="/studio/payments/"');
      expect(markup(home.text)).not.toContain('href="/studio/moderation/"');
      // Moderation's one section: the comments queue.
      const moderator = await staff(server, 'moderation');
      const modHome = markup((await get(server, '/studio/', moderator)).text);
      expect(modHome).toContain('href="/studio/moderation/"');
      expect(modHome).not.toContain('href="/studio/readers/"');
      expect((await get(server, '/studio/audit/', support)).status).toBe(403);
      expect((await get(server, '/studio/staff/', support)).status).toBe(403);

      const admin = await staff(server, 'admin');
      for (const site of ['en', 'br'] as const) {
        const page = await get(server, '/studio/', admin, site);
        expect(page.status).toBe(200);
        expect(markup(page.text)).toContain('href="/studio/audit/"');
        expect(markup(page.text)).toContain('href="/studio/staff/"');
        const staffPage = await get(server, '/studio/staff/', admin, site);
        expect(staffPage.status).toBe(200);
        expect(staffPage.headers['cache-control']).toContain('no-store');
        expect(staffPage.text).toContain('<meta name="robots" content="noindex"');
        expect(htmlText(page.text)).toContain(message(site === 'en' ? 'en' : 'pt-BR', 'studio.section.audit'));
        const audit = await get(server, '/studio/audit/', admin, site);
        expect(audit.status).toBe(200);
        expect(audit.headers['cache-control']).toContain('no-store');
        expect(audit.text).toContain('<meta name="robots" content="noindex"');
        expect(htmlText(audit.text)).toContain(message(site === 'en' ? 'en' : 'pt-BR', 'studio.audit.title'));
      }
    });

    it('the audit trail shows capability changes newest first and filters by person, object and day', async () => {
      const admin = await staff(server, 'admin');
      const target = await createReader(server);
      await grant(server, target.email, 'content', 'grant', admin.id);
      await grant(server, target.email, 'content', 'revoke', admin.id);

      const byObject = await get(server, `/studio/audit/?table=users&id=${target.id}`, admin);
      expect(byObject.status).toBe(200);
      const rows = rowsOf(byObject.text);
      expect(rows).toHaveLength(2);
      expect(rows[0]).toContain('capability.revoke');
      expect(rows[1]).toContain('capability.grant');
      expect(rows[0]).toContain(admin.email);
      expect(rows[0]).toContain('203.0.113.9');
      expect(rows[0]).toContain('studio-test/1.0');
      expect(rows[1]).toContain(message('en', 'studio.audit.after'));

      // By person: the admin's email and account number find both; the command line finds none of them.
      for (const person of [admin.email, String(admin.id)]) {
        expect(rowsOf((await get(server, `/studio/audit/?person=${encodeURIComponent(person)}`, admin)).text)).toHaveLength(2);
      }
      const cli = await get(server, `/studio/audit/?person=command+line&table=users&id=${target.id}`, admin);
      expect([cli.status, rowsOf(cli.text)]).toEqual([200, []]);
      // The command line's own grants (the admin's) show as "Command line".
      const adminRows = rowsOf((await get(server, `/studio/audit/?person=cli&table=users&id=${admin.id}`, admin)).text);
      expect(adminRows).toHaveLength(1);
      expect(adminRows[0]).toContain(message('en', 'studio.audit.commandLine'));

      // By day (UTC on the English site): today finds them, a past day does not.
      const today = new Date().toISOString().slice(0, 10);
      expect(rowsOf((await get(server, `/studio/audit/?table=users&id=${target.id}&from=${today}&to=${today}`, admin)).text)).toHaveLength(2);
      expect(rowsOf((await get(server, `/studio/audit/?table=users&id=${target.id}&from=2020-01-01&to=2020-01-02`, admin)).text)).toHaveLength(0);
    });

    it('malformed filters answer 400 with a message in the page language, never a 500', async () => {
      const admin = await staff(server, 'admin');
      const cases: [string, string][] = [
        ['from=not-a-date', 'studio.audit.error.date'],
        ['to=2026-02-30', 'studio.audit.error.date'],
        ['page=-5', 'studio.audit.error.page'],
        ['page=0', 'studio.audit.error.page'],
        ['page=99999999999', 'studio.audit.error.page'],
        [`person=${'x'.repeat(5000)}`, 'studio.audit.error.person'],
        ['person=nobody-here%40example.test', 'studio.audit.error.unknownPerson'],
        ['table=users%3B+drop+table+users', 'studio.audit.error.table'],
        [`id=${'9'.repeat(100)}`, 'studio.audit.error.id'],
        ['from=2026-05-02&to=2026-05-01', 'studio.audit.error.range'],
      ];
      for (const [query, key] of cases) {
        for (const site of ['en', 'br'] as const) {
          const res = await get(server, `/studio/audit/?${query}`, admin, site);
          expect([query, site, res.status]).toEqual([query, site, 400]);
          expect(htmlText(res.text)).toContain(message(site === 'en' ? 'en' : 'pt-BR', key));
        }
      }
      // The form echoes the input back inside its quoted value, where only the quote could end it.
      const echoed = await get(server, `/studio/audit/?person=${encodeURIComponent('"><script>alert(1)</script>')}`, admin);
      expect(echoed.status).toBe(400);
      const inValue = 'value="&quot;><script>alert(1)</script>"';
      expect(echoed.text).toContain(inValue);
      expect(echoed.text.replace(inValue, '')).not.toContain('<script>alert(1)');
    });

    it('what a record holds is shown escaped', async () => {
      const admin = await staff(server, 'admin');
      const objectId = `xss-${Date.now()}`;
      await withDb(server, async (db) => {
        const { writeTransaction } = await import('~/server/db');
        const { writeAudit } = await import('~/server/audit');
        await writeTransaction(db, (tx) => writeAudit(tx, { userId: admin.id, capability: 'admin', ip: '<b>ip</b>', userAgent: '<img src=x onerror=alert(2)>' },
          { action: 'test.<i>x</i>', object: { table: 'short_links', id: objectId }, after: { path: '<script>alert(1)</script>' } }, Math.floor(Date.now() / 1000)));
      });
      const res = await get(server, `/studio/audit/?table=short_links&id=${objectId}`, admin);
      expect(res.status).toBe(200);
      const html = res.text;
      expect(html).not.toContain('<script>alert(1)');
      expect(html).not.toContain('<img src=x');
      expect(html).not.toContain('<b>ip</b>');
      expect(html).not.toContain('<i>x</i>');
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    });

    it('pages through the trail 50 at a time with next and previous links', async () => {
      const admin = await staff(server, 'admin');
      const objectId = `page-${Date.now()}`;
      const now = Math.floor(Date.now() / 1000);
      await withDb(server, async (db) => {
        const { writeTransaction } = await import('~/server/db');
        const { writeAudit } = await import('~/server/audit');
        await writeTransaction(db, async (tx) => {
          for (let i = 0; i < 51; i++) await writeAudit(tx, { userId: admin.id, capability: 'admin', ip: null, userAgent: null }, { action: `test.n${i}`, object: { table: 'short_links', id: objectId } }, now - i);
        });
      });
      const first = await get(server, `/studio/audit/?table=short_links&id=${objectId}`, admin);
      const rows = rowsOf(first.text);
      expect(rows).toHaveLength(50);
      expect(rows[0]).toContain('test.n0');
      const next = /<a class="btn" rel="next" href="([^"]+)"/.exec(first.text)?.[1]?.replace(/&amp;/g, '&');
      expect(next).toBe(`/studio/audit/?table=short_links&id=${objectId}&page=2`);
      const second = await get(server, next!, admin);
      expect(rowsOf(second.text).map((r) => /test\.n\d+/.exec(r)?.[0])).toEqual(['test.n50']);
      expect(second.text).toContain('rel="prev"');
      expect(second.text).not.toContain('rel="next"');
    });

    it('an admin grants a capability by email and revokes it, each with an audit record; the capability works at once', async () => {
      const admin = await staff(server, 'admin');
      const reader = await createReader(server);
      const chapter = (await anySeries(server, 10)).find((s) => s.chapter)!.chapter!.readerPath;
      const dynamicLink = () => server.request('/_/dynamic_link', {
        method: 'POST', body: new URLSearchParams({ path: chapter }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', origin: server.origin('en'), 'sec-fetch-site': 'same-origin', cookie: reader.cookie },
      });
      expect((await dynamicLink()).status).toBe(403);

      const granted = await post(server, admin, { email: reader.email.toUpperCase(), capability: 'content', change: 'grant' });
      expect(granted.status).toBe(303);
      expect(granted.headers.location).toBe(`/studio/staff/?done=granted&capability=content&user=${reader.id}`);
      expect(await capabilitiesOf(server, reader.id)).toEqual(['content']);
      expect((await dynamicLink()).status).toBe(200);
      const list = await get(server, granted.headers.location!, admin, 'br');
      expect(list.status).toBe(200);
      expect(htmlText(list.text)).toContain(message('pt-BR', 'studio.staff.done.granted', { capability: message('pt-BR', 'studio.capability.content'), id: reader.id }));
      const row = new RegExp(`<li class="staff-account" data-id="${reader.id}"[^>]*>([\\s\\S]*?)</li>`).exec(list.text)?.[1] ?? '';
      expect(htmlText(row)).toContain(reader.email);
      expect(htmlText(row)).toContain(message('pt-BR', 'studio.capability.content'));

      const revoked = await post(server, admin, { email: reader.email, capability: 'content', change: 'revoke' });
      expect([revoked.status, revoked.headers.location]).toEqual([303, `/studio/staff/?done=revoked&capability=content&user=${reader.id}`]);
      expect(await capabilitiesOf(server, reader.id)).toEqual([]);
      expect((await dynamicLink()).status).toBe(403);

      const audit = await withDb(server, (db) => db.selectFrom('audit_log').selectAll().where('object_table', '=', 'users').where('object_id', '=', String(reader.id)).orderBy('id').execute());
      expect(audit.map((r) => [r.action, Number(r.actor_id), r.capability, r.after_json])).toEqual([
        ['capability.grant', admin.id, 'admin', JSON.stringify({ capabilities: ['content'] })],
        ['capability.revoke', admin.id, 'admin', JSON.stringify({ capabilities: [] })],
      ]);
      // Unknown emails and capabilities get a message, not a change.
      const unknown = await post(server, admin, { email: 'nobody-at-all@example.test', capability: 'content', change: 'grant' });
      expect(unknown.status).toBe(422);
      expect(htmlText(unknown.text)).toContain(message('en', 'studio.staff.error.noAccount'));
      const bad = await post(server, admin, { email: reader.email, capability: 'owner', change: 'grant' });
      expect(bad.status).toBe(422);
      expect(htmlText(bad.text)).toContain(message('en', 'studio.staff.error.capability'));
      expect(await capabilitiesOf(server, reader.id)).toEqual([]);
    });

    it('admin pages ask for the password again 15 minutes after sign-in, then come back on a new session; content pages do not ask', async () => {
      const admin = await staff(server, 'admin', 'content');
      const signedIn = (ago: number) => withDb(server, (db) => db.updateTable('sessions').set({ created_at: Math.floor(Date.now() / 1000) - ago }).where('user_id', '=', admin.id).execute());
      await signedIn(14 * 60);
      expect((await get(server, '/studio/staff/', admin)).status).toBe(200);
      await signedIn(16 * 60);
      const asked = await get(server, '/studio/audit/?table=users', admin, 'br');
      expect([asked.status, asked.headers.location]).toEqual([303, `/auth/confirm/?next=${encodeURIComponent('/studio/audit/?table=users')}`]);
      // The staff form's post is not carried out on the old sign-in either.
      const reader = await createReader(server);
      const stale = await post(server, admin, { email: reader.email, capability: 'support', change: 'grant' });
      expect([stale.status, stale.headers.location]).toEqual([303, `/auth/confirm/?next=${encodeURIComponent('/studio/staff/')}`]);
      expect(await capabilitiesOf(server, reader.id)).toEqual([]);
      // Content pages and calls do not ask.
      expect((await get(server, '/studio/', admin)).status).toBe(200);

      const page = await get(server, asked.headers.location!, admin, 'br');
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toContain('no-store');
      expect(htmlText(page.text)).toContain(message('pt-BR', 'auth.confirm.title'));
      expect(htmlText(page.text)).toContain(admin.email);
      const confirm = (password: string, opts: { origin?: string } = {}) => server.request('/auth/confirm/', {
        site: 'br', method: 'POST',
        body: new URLSearchParams({ password, next: '/studio/audit/?table=users' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: opts.origin ?? server.origin('br'), 'sec-fetch-site': opts.origin ? 'cross-site' : 'same-origin', cookie: admin.cookie },
      });
      const wrong = await confirm('not-the-password-1');
      expect(wrong.status).toBe(401);
      expect(htmlText(wrong.text)).toContain(message('pt-BR', 'auth.confirm.invalid'));
      expect((await confirm(admin.password, { origin: 'https://evil.example' })).status).toBe(403);
      const right = await confirm(admin.password);
      expect([right.status, right.headers.location]).toEqual([303, '/studio/audit/?table=users']);
      const token = /(?:^|\n)inkpass_session=([^;]+)/.exec(right.headers['set-cookie'] ?? '')?.[1];
      expect(token).toBeTruthy();
      const fresh = { ...admin, cookie: `inkpass_session=${token}` };
      expect((await get(server, '/studio/audit/?table=users', fresh, 'br')).status).toBe(200);
      // The old session ended with the new one.
      expect((await get(server, '/studio/staff/', admin)).status).toBe(303);
      expect((await get(server, '/studio/staff/', admin)).headers.location).toBe(`/auth/login/?next=${encodeURIComponent('/studio/staff/')}`);
      // Signed out, the page is the login page with the same way back.
      const anon = await get(server, '/auth/confirm/?next=%2Fstudio%2Fstaff%2F', null);
      expect([anon.status, anon.headers.location]).toEqual([303, `/auth/login/?next=${encodeURIComponent('/studio/staff/')}`]);
    });

    it('an admin cannot revoke their own admin (409); cross-origin and non-admin posts change nothing', async () => {
      const admin = await staff(server, 'admin');
      const self = await post(server, admin, { email: admin.email, capability: 'admin', change: 'revoke' }, { site: 'br' });
      expect(self.status).toBe(409);
      expect(htmlText(self.text)).toContain(message('pt-BR', 'studio.staff.error.self'));
      expect(await capabilitiesOf(server, admin.id)).toEqual(['admin']);

      const reader = await createReader(server);
      const cross = await post(server, admin, { email: reader.email, capability: 'money', change: 'grant' }, { origin: 'https://evil.example' });
      expect(cross.status).toBe(403);
      const support = await staff(server, 'support');
      const forbidden = await post(server, support, { email: reader.email, capability: 'money', change: 'grant' });
      expect(forbidden.status).toBe(403);
      const escalate = await post(server, support, { email: support.email, capability: 'admin', change: 'grant' });
      expect(escalate.status).toBe(403);
      const anon = await post(server, null, { email: reader.email, capability: 'money', change: 'grant' });
      expect([anon.status, anon.headers.location]).toEqual([303, `/auth/login/?next=${encodeURIComponent('/studio/staff/')}`]);
      expect(await capabilitiesOf(server, reader.id)).toEqual([]);
      expect(await capabilitiesOf(server, support.id)).toEqual(['support']);
    });
  });
}
