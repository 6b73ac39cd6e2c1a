/**
 * Staff capabilities, the audit trail and link generation (issue 27, docs/staff.md), on both
 * databases: the migration makes staff accounts admins; `npm run user -- grant-role` and
 * `revoke-role` change capabilities with an audit record; POST /_/dynamic_link answers 401 signed
 * out, 403 to a reader and to staff without `content`, 422 for a path that is not a chapter of
 * this site, and a short link that redirects (302) to the chapter and counts its visits; the
 * series page shows the link button to content staff only, and never leaks it to a reader
 * through the page cache; audit rows cannot be changed or deleted.
 */
import { describe, expect, it } from 'vitest';
import { Migrator } from 'kysely/migration';
import { anySeries, createReader, markup, message, npmRun, selectedDialects, useServer, withDb, type Reader, type ServerClient } from './harness';

const FORM = 'application/x-www-form-urlencoded';
const UA = 'staff-test-browser/1.0';

/** A same-origin link-generation call as the page's script makes it. */
function generate(server: ServerClient, who: Reader | null, path: string, opts: { site?: 'en' | 'br'; accept?: string; origin?: string } = {}) {
  const site = opts.site ?? 'en';
  return server.request('/_/dynamic_link', {
    site,
    method: 'POST',
    body: new URLSearchParams({ path }).toString(),
    headers: {
      'content-type': FORM,
      accept: opts.accept ?? 'application/json',
      origin: opts.origin ?? server.origin(site),
      'sec-fetch-site': opts.origin ? 'cross-site' : 'same-origin',
      'user-agent': UA,
      ...(who ? { cookie: who.cookie } : {}),
    },
  });
}

async function grantInProcess(server: ServerClient, email: string, capability: 'content' | 'pricing') {
  await withDb(server, async (db) => {
    const { changeCapability } = await import('~/features/accounts/index.server');
    const { commandLineActor } = await import('~/server/audit');
    await changeCapability(db, { email, capability, change: 'grant', actor: commandLineActor('admin') });
  });
}

const auditOf = (server: ServerClient, table: string, id: string | number) =>
  withDb(server, (db) => db.selectFrom('audit_log').selectAll().where('object_table', '=', table).where('object_id', '=', String(id)).orderBy('id').execute());

const pageUser = (html: string) => JSON.parse(/<script type="application\/json" id="page-user-data">([\s\S]*?)<\/script>/.exec(html)![1]!) as { is_staff: boolean } | null;

for (const dialect of selectedDialects()) {
  describe(`staff capabilities and link generation (${dialect})`, () => {
    const server = useServer(dialect);

    it('the migration makes every is_staff account an admin, and no one else', async () => {
      const { createTestDatabase } = await import('~/server/test-databases');
      const { migrationProvider } = await import('@db/migrations/index');
      const made = await createTestDatabase(dialect);
      try {
        const migrator = new Migrator({ db: made.db, provider: migrationProvider });
        // Back to the day before capabilities, with one staff account and one reader.
        expect((await migrator.migrateTo('2026-11-27T02-money-owners')).error).toBeUndefined();
        const add = (email: string, staff: 0 | 1) => made.db.insertInto('users').values({ email, display_name: email, password_hash: 'x', is_staff: staff, created_at: 1, password_changed_at: 1 }).returning('id').executeTakeFirstOrThrow();
        const staff = Number((await add('old-staff@example.test', 1)).id);
        const reader = Number((await add('old-reader@example.test', 0)).id);
        expect((await migrator.migrateToLatest()).error).toBeUndefined();
        const rows = await made.db.selectFrom('user_capabilities').select(['user_id', 'capability', 'granted_by']).orderBy('user_id').execute();
        expect(rows.map((r) => ({ ...r, user_id: Number(r.user_id) }))).toEqual([{ user_id: staff, capability: 'admin', granted_by: null }]);
        expect(rows.some((r) => Number(r.user_id) === reader)).toBe(false);
        // The CHECK refuses a capability that does not exist.
        await expect(made.db.insertInto('user_capabilities').values({ user_id: reader, capability: 'owner' as never, granted_at: 1, granted_by: null }).execute()).rejects.toThrow();
      } finally {
        await made.drop();
      }
    });

    it("the demo seed's staff account holds every capability, and the demo reader none", async () => {
      const rows = await withDb(server, (db) => db.selectFrom('user_capabilities').innerJoin('users', 'users.id', 'user_capabilities.user_id')
        .select(['users.email', 'user_capabilities.capability']).where('users.email', 'in', ['staff@inkpass.test', 'reader@inkpass.test']).orderBy('capability').execute());
      expect(rows.map((r) => `${r.email} ${r.capability}`)).toEqual(['admin', 'content', 'moderation', 'money', 'pricing', 'support'].map((c) => `staff@inkpass.test ${c}`));
    });

    it('grant-role and revoke-role change capabilities, each with its audit record; unknown emails exit 1, usage errors 2', async () => {
      const a = await createReader(server);
      const b = await createReader(server);
      const granted = await npmRun(server.databaseUrl, 'user', ['grant-role', '--email', a.email, '--role', 'content']);
      expect(granted.code, granted.stderr).toBe(0);
      expect(granted.stdout).toContain('was granted content');
      // The page data says staff at once (the session reads the capabilities).
      expect(pageUser((await server.request('/', { headers: { cookie: a.cookie } })).text)).toMatchObject({ is_staff: true });

      await grantInProcess(server, b.email, 'content');
      await grantInProcess(server, b.email, 'pricing');
      const revoked = await npmRun(server.databaseUrl, 'user', ['revoke-role', '--email', b.email.toUpperCase(), '--role', 'content']);
      expect(revoked.code, revoked.stderr).toBe(0);
      const caps = await withDb(server, (db) => db.selectFrom('user_capabilities').select(['user_id', 'capability']).where('user_id', 'in', [a.id, b.id]).orderBy('user_id').execute());
      expect(caps.map((c) => [Number(c.user_id), c.capability])).toEqual([[a.id, 'content'], [b.id, 'pricing']]);

      const [grant] = await auditOf(server, 'users', a.id);
      expect(grant).toMatchObject({ actor_id: null, capability: 'admin', action: 'capability.grant', ip: null, user_agent: null });
      expect(JSON.parse(grant!.before_json!)).toEqual({ capabilities: [] });
      expect(JSON.parse(grant!.after_json!)).toEqual({ capabilities: ['content'] });
      const revoke = (await auditOf(server, 'users', b.id)).at(-1)!;
      expect(revoke).toMatchObject({ action: 'capability.revoke', capability: 'admin' });
      expect(JSON.parse(revoke.after_json!)).toEqual({ capabilities: ['pricing'] });

      const unknown = await npmRun(server.databaseUrl, 'user', ['grant-role', '--email', 'nobody-here@example.test', '--role', 'content']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No account has the email nobody-here@example.test');
      if (dialect === selectedDialects()[0]) {
        const usage = await npmRun(server.databaseUrl, 'user', ['grant-role', '--email', a.email, '--role', 'owner']);
        expect(usage.code).toBe(2);
        expect(usage.stderr).toContain('Usage: npm run user -- create');
        expect(usage.stderr).toContain('grant-role --email <email> --role <content|pricing|support|money|moderation|admin>');
      }
    });

    it('POST /_/dynamic_link: 401 signed out, 403 to a reader and to staff without content; content staff get a short link that redirects and counts', async () => {
      const [series] = (await anySeries(server, 10)).filter((s) => s.chapter);
      const chapter = series!.chapter!.readerPath;
      const reader = await createReader(server);
      const pricing = await createReader(server);
      await grantInProcess(server, pricing.email, 'pricing');
      const content = await createReader(server);
      await grantInProcess(server, content.email, 'content');

      const anonymous = await generate(server, null, chapter);
      expect(anonymous.status).toBe(401);
      expect(anonymous.json()).toEqual({ success: false, data: message('en', 'staff.error.signIn') });
      for (const who of [reader, pricing]) {
        const refused = await generate(server, who, chapter, { site: 'br' });
        expect(refused.status).toBe(403);
        expect(refused.json()).toEqual({ success: false, data: message('pt-BR', 'staff.error.forbidden') });
      }

      const made = await generate(server, content, chapter);
      expect(made.status).toBe(200);
      const { success, data } = made.json() as { success: boolean; data: string };
      expect(success).toBe(true);
      const link = new RegExp(`^${server.origin('en').replace(/[.]/g, '\\.')}/l/([A-Za-z0-9_-]{16})$`).exec(data);
      expect(link, data).not.toBeNull();
      const short = new URL(data).pathname;
      for (let i = 0; i < 2; i++) {
        const visit = await server.request(short);
        expect(visit.status).toBe(302);
        expect(visit.headers.location).toBe(chapter);
      }
      // A HEAD (a link preview's check) answers the same and counts nothing.
      const head = await server.request(short, { method: 'HEAD' });
      expect([head.status, head.headers.location]).toEqual([302, chapter]);
      const row = await withDb(server, (db) => db.selectFrom('short_links').selectAll().where('code', '=', link![1]!).executeTakeFirstOrThrow());
      expect({ visits: Number(row.visits), path: row.path, site: Number(row.site_id), by: Number(row.created_by) }).toEqual({ visits: 2, path: chapter, site: 1, by: content.id });

      // Its audit record: who, with which capability, what, from where.
      const [audit] = await auditOf(server, 'short_links', row.id);
      expect(audit).toMatchObject({ actor_id: content.id, capability: 'content', action: 'short_link.create', user_agent: UA, before_json: null });
      expect(audit!.ip).toMatch(/127\.0\.0\.1/);
      expect(JSON.parse(audit!.after_json!)).toEqual({ code: link![1], site_id: 1, path: chapter });

      // A link belongs to the site it was made on; unknown and malformed codes are the 404 page.
      for (const [path, site] of [[short, 'br'], ['/l/AAAAAAAAAAAAAAAA', 'en'], ['/l/short', 'en'], ['/l/%2e%2e%2fauth', 'en']] as const) {
        const missing = await server.request(path, { site });
        expect(missing.status, path).toBe(404);
        expect(missing.text).toContain(message(site === 'br' ? 'pt-BR' : 'en', 'error.notFound.title'));
      }
    });

    it('a path that is not a chapter of this site is refused with 422 and the reason, and nothing is made', async () => {
      const content = await createReader(server);
      await grantInProcess(server, content.email, 'content');
      const [series] = (await anySeries(server, 10)).filter((s) => s.chapter);
      const chapter = series!.chapter!.readerPath;
      const cases: [string, string][] = [
        [`https://evil.example${chapter}`, 'offSite'],
        [`//evil.example${chapter}`, 'offSite'],
        [`http://br.localhost:${server.port}${chapter}`, 'offSite'],
        ['/comics/whatever/', 'notChapter'],
        [`${chapter}?next=//evil.example`, 'notChapter'],
        [`/read/${'x'.repeat(500)}/a/chapter-1/`, 'tooLong'],
        [`/read/a\tb/c/chapter-1/`, 'invalid'],
        [`/read/a\\b/c/chapter-1/`, 'invalid'],
        ['', 'empty'],
      ];
      for (const [path, reason] of cases) {
        const res = await generate(server, content, path);
        expect(res.status, path).toBe(422);
        expect(res.json(), path).toEqual({ success: false, data: message('en', `staff.link.error.${reason}`) });
      }
      // Other control characters never reach the route: the body policy refuses them (src/server/body.ts).
      const control = await generate(server, content, '/read/a\u0001b/c/chapter-1/');
      expect(control.status).toBe(400);
      expect(control.json()).toEqual({ success: false, data: message('en', 'error.body.malformed') });
      // The same origin by absolute URL is fine.
      expect((await generate(server, content, `${server.origin('en')}${chapter}`)).status).toBe(200);
      const links = await withDb(server, (db) => db.selectFrom('short_links').select('path').where('created_by', '=', content.id).execute());
      expect(links).toEqual([{ path: chapter }]);
      expect(await auditOf(server, 'short_links', 'nothing')).toEqual([]);
    });

    it('a cross-origin POST is refused before anything is made; a form without JavaScript gets a page with the link', async () => {
      const content = await createReader(server);
      await grantInProcess(server, content.email, 'content');
      const [series] = (await anySeries(server, 10)).filter((s) => s.chapter);
      const chapter = series!.chapter!.readerPath;
      const forged = await generate(server, content, chapter, { origin: 'http://evil.example' });
      expect(forged.status).toBe(403);
      expect(await withDb(server, (db) => db.selectFrom('short_links').select('id').where('created_by', '=', content.id).execute())).toEqual([]);

      const form = await generate(server, content, chapter, { site: 'br', accept: 'text/html,application/xhtml+xml' });
      expect(form.status).toBe(200);
      expect(form.headers['content-type']).toContain('text/html');
      const code = /http:\/\/br\.localhost:\d+\/l\/([A-Za-z0-9_-]{16})/.exec(form.text)?.[1];
      expect(code, form.text.slice(0, 300)).toBeDefined();
      expect(form.text).toContain(message('pt-BR', 'staff.link.title'));
      expect((await server.request(`/l/${code}`, { site: 'br' })).headers.location).toBe(chapter);
      // Signed out from a form: to the login page.
      const out = await generate(server, null, chapter, { accept: 'text/html', site: 'en' });
      expect(out.status).toBe(303);
      expect(out.headers.location).toMatch(/^\/auth\/login\//);
    });

    it('the series page shows the link button to content staff only, in the site\'s language', async () => {
      const [series] = (await anySeries(server, 10)).filter((s) => s.chapter);
      const path = `/comics/${series!.slug}/?language=en`;
      const reader = await createReader(server);
      const content = await createReader(server);
      await grantInProcess(server, content.email, 'content');
      const pricing = await createReader(server);
      await grantInProcess(server, pricing.email, 'pricing');
      const buttons = (html: string) => markup(html).match(/<button class="btn-share"[^>]*>[^<]*<\/button>/g) ?? [];

      const staffPage = await server.request(path, { headers: { cookie: content.cookie } });
      expect(staffPage.status).toBe(200);
      const mine = buttons(staffPage.text);
      expect(mine.length).toBeGreaterThan(0);
      expect(mine.some((b) => b.includes(`value="${series!.chapter!.readerPath}"`) && b.includes(`formaction="/_/dynamic_link"`))).toBe(true);
      expect(mine[0]).toContain(`>${message('en', 'staff.link.copy')}</button>`);
      expect(markup(staffPage.text)).toContain('data-share-status');
      expect(staffPage.headers['cache-control']).not.toMatch(/public|s-maxage/);
      const br = await server.request(path, { site: 'br', headers: { cookie: content.cookie } });
      expect(buttons(br.text)[0]).toContain(`>${message('pt-BR', 'staff.link.copy')}</button>`);

      for (const who of [reader, pricing]) expect(buttons((await server.request(path, { headers: { cookie: who.cookie } })).text), who.email).toEqual([]);
      // Anonymously, after the staff visits (with the page cache on: page-cache.test.ts).
      for (let i = 0; i < 2; i++) {
        const anonymous = await server.request(path, { headers: { 'accept-encoding': 'br' } });
        expect(anonymous.status).toBe(200);
        expect(buttons(anonymous.text)).toEqual([]);
        expect(markup(anonymous.text)).not.toContain('data-share-status');
        // Nor does it load or announce the share script (a dynamic import made only for staff).
        expect(anonymous.text).not.toMatch(/\/_astro\/studio\.[\w-]+\.js/);
      }
    });

    it('audit rows cannot be changed or deleted, on this database', async () => {
      const content = await createReader(server);
      await grantInProcess(server, content.email, 'content');
      const before = await auditOf(server, 'users', content.id);
      expect(before).toHaveLength(1);
      const id = before[0]!.id;
      await withDb(server, async (db) => {
        await expect(db.updateTable('audit_log').set({ action: 'tampered' }).where('id', '=', id).execute()).rejects.toThrow(/append-only/);
        await expect(db.deleteFrom('audit_log').where('id', '=', id).execute()).rejects.toThrow(/append-only/);
        await expect(db.deleteFrom('audit_log').execute()).rejects.toThrow(/append-only/);
      });
      expect(await auditOf(server, 'users', content.id)).toEqual(before);
    });
  });
}
