/**
 * Chapter drafts in the studio (issue 27, docs/staff.md "Chapter uploads"), on both databases:
 * the upload routes refuse every bad upload (bomb, wrong type, oversize, paths that climb out of
 * the archive, links, empty, corrupted, huge dimensions) with its status and the localized
 * message, leaving no draft, no page row and no file; a 30-page CBZ becomes a draft with its
 * pages in natural order; the draft's forms reorder, replace and delete pages with an audit
 * record each; readers and staff without `content` get 403, and staging files are served to
 * staff only.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { anySeries, createReader, createStaff, htmlText, MEDIA_DIR, message, npmRun, type Reader, selectedDialects, type ServerClient, useServer, withDb } from './harness';
import { dateTimeLabel } from '~/lib/dates';
import { declareSize, makeImage, makeZip, multipart, pngDeclaring, renameInZip, type Part } from '../support/uploads';

const STAGING = path.join(MEDIA_DIR, '.staging');

/** Every file under the staging folder (work folders included). */
function stagedFiles(): string[] {
  if (!fs.existsSync(STAGING)) return [];
  return (fs.readdirSync(STAGING, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)).sort();
}

const draftCount = (server: ServerClient) =>
  withDb(server, async (db) => ({
    drafts: Number((await db.selectFrom('chapter_drafts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    pages: Number((await db.selectFrom('chapter_draft_pages').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
  }));

function upload(server: ServerClient, who: Reader, target: string, parts: Part[], site: 'en' | 'br' = 'en') {
  const { body, type } = multipart(parts);
  return server.request(target, { site, method: 'POST', body, headers: { 'content-type': type, origin: server.origin(site), 'sec-fetch-site': 'same-origin', cookie: who.cookie } });
}

function form(server: ServerClient, who: Reader, target: string, fields: Record<string, string>) {
  return server.request(target, {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('en'), 'sec-fetch-site': 'same-origin', cookie: who.cookie },
  });
}

const pagesOf = (server: ServerClient, draftId: number) =>
  withDb(server, (db) => db.selectFrom('chapter_draft_pages').select(['position', 'original_name', 'media_key', 'width']).where('draft_id', '=', draftId).orderBy('position').execute());

for (const dialect of selectedDialects()) {
  describe(`studio chapter drafts (${dialect})`, () => {
    const server = useServer(dialect);
    let seriesId: number;
    let editor: Reader;

    beforeAll(async () => {
      seriesId = (await anySeries(server, 1))[0]!.id;
      editor = await createStaff(server, 'content');
    });

    const newChapter = (parts: Part[], site: 'en' | 'br' = 'en', who = editor) =>
      upload(server, who, `/studio/chapters/new/?series=${seriesId}`, [{ name: 'series', value: String(seriesId) }, { name: 'number', value: '7.5' }, { name: 'language', value: 'en' }, ...parts], site);

    it('refuses each bad upload with its status and localized message, and leaves no draft and no file', { timeout: 120_000 }, async () => {
      const png = await makeImage('png', 1, 300, 300);
      const bomb = await makeZip([{ name: '1.png', data: Buffer.concat([png, Buffer.alloc(5 * 1024 * 1024)]) }]);
      const liar = declareSize(await makeZip([{ name: '1.png', data: Buffer.concat([png, Buffer.alloc(25 * 1024 * 1024)]) }]), 1000);
      const traversal = async (bad: string, placeholder: string) => renameInZip(await makeZip([{ name: placeholder, data: png }]), placeholder, bad);
      const cases: { name: string; parts: Part[]; status: number; key: string; values?: Record<string, string | number>; site?: 'en' | 'br' }[] = [
        { name: 'bomb', parts: [{ name: 'pages', file: { name: 'bomb.cbz', data: bomb } }], status: 413, key: 'studio.upload.error.zipBomb', values: { name: '1.png' } },
        { name: 'bomb lying about its size', parts: [{ name: 'pages', file: { name: 'liar.cbz', data: liar } }], status: 413, key: 'studio.upload.error.zipBomb', values: { name: '1.png' }, site: 'br' },
        { name: 'text named .png', parts: [{ name: 'pages', file: { name: '1.png', data: png } }, { name: 'pages', file: { name: '007.png', data: Buffer.from('I am text, not an image') } }], status: 415, key: 'studio.upload.error.notImage', values: { page: 2, name: '007.png' } },
        { name: 'oversize page', parts: [{ name: 'pages', file: { name: 'big.png', data: Buffer.concat([png, Buffer.alloc(21 * 1024 * 1024)]) } }], status: 413, key: 'studio.upload.error.fileTooLarge', values: { name: 'big.png', mb: 20 } },
        { name: '../ in the archive', parts: [{ name: 'pages', file: { name: 'a.cbz', data: await traversal('../x.png', 'aa/x.png') } }], status: 422, key: 'studio.upload.error.zipPath', values: { name: '../x.png' } },
        { name: 'absolute path in the archive', parts: [{ name: 'pages', file: { name: 'a.cbz', data: await traversal('/abs.png', 'xabs.png') } }], status: 422, key: 'studio.upload.error.zipPath', values: { name: '/abs.png' } },
        { name: 'backslashes in the archive', parts: [{ name: 'pages', file: { name: 'a.cbz', data: await traversal('a\\..\\b.png', 'a_xx_b.png') } }], status: 422, key: 'studio.upload.error.zipPath', values: { name: 'a\\..\\b.png' }, site: 'br' },
        { name: 'symlink entry', parts: [{ name: 'pages', file: { name: 'l.cbz', data: await makeZip([{ name: '1.png', data: Buffer.from('/etc/passwd'), mode: 0o120777 }]) } }], status: 422, key: 'studio.upload.error.zipLink', values: { name: '1.png' } },
        { name: 'empty file', parts: [{ name: 'pages', file: { name: '001.png', data: Buffer.alloc(0) } }], status: 422, key: 'studio.upload.error.empty', values: { page: 1, name: '001.png' } },
        { name: 'corrupted image', parts: [{ name: 'pages', file: { name: '1.png', data: png.subarray(0, Math.floor(png.length / 2)) } }], status: 422, key: 'studio.upload.error.corrupt', values: { page: 1, name: '1.png' } },
        { name: 'PNG declaring 20000 × 20000', parts: [{ name: 'pages', file: { name: 'huge.png', data: pngDeclaring(20_000, 20_000) } }], status: 422, key: 'studio.upload.error.tooWide', values: { page: 1, name: 'huge.png', limit: 10_000 }, site: 'br' },
        { name: 'no files', parts: [], status: 422, key: 'studio.upload.error.noFiles' },
      ];
      const before = { counts: await draftCount(server), files: stagedFiles() };
      for (const c of cases) {
        const site = c.site ?? 'en';
        const res = await newChapter(c.parts, site);
        expect([c.name, res.status]).toEqual([c.name, c.status]);
        expect(htmlText(res.text), c.name).toContain(message(site === 'en' ? 'en' : 'pt-BR', c.key, c.values));
        expect(res.headers['cache-control'], c.name).toContain('no-store');
        expect(await draftCount(server), c.name).toEqual(before.counts);
        expect(stagedFiles(), c.name).toEqual(before.files);
      }
      // The form keeps what was typed.
      const again = await newChapter([{ name: 'title', value: 'Kept "quoted"' }, { name: 'pages', file: { name: 'x.png', data: Buffer.from('nope') } }]);
      expect(again.text).toContain('value="Kept &quot;quoted&quot;"');
    });

    it('turns a 30-page CBZ into a draft in natural order; the draft reorders, replaces and deletes pages, each with an audit record', { timeout: 120_000 }, async () => {
      const names = Array.from({ length: 30 }, (_, i) => `p${i + 1}.png`).sort(() => Math.random() - 0.5);
      const items = await Promise.all(names.map(async (name) => ({ name: `chapter/${name}`, data: await makeImage('png', Number(name.slice(1, -4)), 20 + Number(name.slice(1, -4)), 30) })));
      const cbz = await makeZip([...items, { name: '__MACOSX/chapter/._p1.png', data: Buffer.from('fork') }]);
      const created = await newChapter([{ name: 'title', value: 'The storm' }, { name: 'pages', file: { name: 'chapter.cbz', data: cbz, type: 'application/vnd.comicbook+zip' } }]);
      expect(created.status).toBe(303);
      const id = Number(/\/studio\/chapters\/drafts\/(\d+)\/\?done=created&n=30$/.exec(created.headers.location ?? '')?.[1]);
      expect(id).toBeGreaterThan(0);
      const pages = await pagesOf(server, id);
      expect(pages.map((p) => p.original_name)).toEqual(Array.from({ length: 30 }, (_, i) => `p${i + 1}.png`));
      expect(pages.map((p) => Number(p.width))).toEqual(Array.from({ length: 30 }, (_, i) => 21 + i));
      for (const p of pages) {
        expect(p.media_key.startsWith(`.staging/${id}/`)).toBe(true);
        expect(fs.existsSync(path.join(MEDIA_DIR, p.media_key))).toBe(true);
      }
      // Nothing reached the readers' tables.
      expect(await withDb(server, (db) => db.selectFrom('chapters').select('id').where('series_id', '=', seriesId).where('number', '=', 7.5).execute())).toEqual([]);

      const page = await server.request(created.headers.location!, { headers: { cookie: editor.cookie } });
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toContain('no-store');
      expect(page.text).toContain('<meta name="robots" content="noindex"');
      expect(htmlText(page.text)).toContain(message('en', 'studio.draft.done.created', { n: 30 }));
      expect((page.text.match(/class="draft-page"/g) ?? []).length).toBe(30);
      const image = await server.request(`/studio/chapters/drafts/${id}/pages/1/`, { headers: { cookie: editor.cookie } });
      expect([image.status, image.headers['content-type'], image.headers['cache-control']]).toEqual([200, 'image/png', 'private, no-store']);
      expect(image.body.equals(fs.readFileSync(path.join(MEDIA_DIR, pages[0]!.media_key)))).toBe(true);

      // The preview: the reader's stage with every page, from the staff-only route, never cached.
      const preview = await server.request(`/studio/chapters/drafts/${id}/preview/`, { headers: { cookie: editor.cookie } });
      expect([preview.status, preview.headers['cache-control']]).toEqual([200, 'private, no-store']);
      expect(preview.text).toContain('data-state="readable"');
      expect([...preview.text.matchAll(/<img src="\/studio\/chapters\/drafts\/\d+\/pages\/(\d+)\/"/g)].map((m) => Number(m[1]))).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));

      // Move page 1 down, then delete page 3, then replace page 2 with a JPEG.
      expect((await form(server, editor, `/studio/chapters/drafts/${id}/`, { action: 'down', position: '1' })).status).toBe(303);
      expect((await pagesOf(server, id)).slice(0, 3).map((p) => p.original_name)).toEqual(['p2.png', 'p1.png', 'p3.png']);
      // A drag and drop: page 6 to place 2 and back (the pages between shift by one), one record each; a target past the end is refused.
      const moves = () => withDb(server, async (db) => (await db.selectFrom('audit_log').select('id').where('action', '=', 'chapter_draft.page_move').where('object_id', '=', String(id)).execute()).length);
      const movesBefore = await moves();
      expect((await form(server, editor, `/studio/chapters/drafts/${id}/`, { action: 'move', position: '6', to: '2' })).headers.location).toBe(`/studio/chapters/drafts/${id}/?done=moved`);
      expect((await pagesOf(server, id)).slice(0, 7).map((p) => p.original_name)).toEqual(['p2.png', 'p6.png', 'p1.png', 'p3.png', 'p4.png', 'p5.png', 'p7.png']);
      expect((await form(server, editor, `/studio/chapters/drafts/${id}/`, { action: 'move', position: '2', to: '6' })).status).toBe(303);
      expect((await pagesOf(server, id)).slice(0, 7).map((p) => p.original_name)).toEqual(['p2.png', 'p1.png', 'p3.png', 'p4.png', 'p5.png', 'p6.png', 'p7.png']);
      expect(await moves()).toBe(movesBefore + 2);
      expect((await form(server, editor, `/studio/chapters/drafts/${id}/`, { action: 'move', position: '2', to: '99' })).headers.location).toBe(`/studio/chapters/drafts/${id}/?done=unchanged`);
      expect((await form(server, editor, `/studio/chapters/drafts/${id}/`, { action: 'move', position: '2', to: 'x' })).status).toBe(422);
      expect(await moves()).toBe(movesBefore + 2);
      const deleted = (await pagesOf(server, id))[2]!;
      expect((await form(server, editor, `/studio/chapters/drafts/${id}/`, { action: 'delete', position: '3' })).status).toBe(303);
      const afterDelete = await pagesOf(server, id);
      expect(afterDelete.map((p) => p.position)).toEqual(Array.from({ length: 29 }, (_, i) => i + 1));
      expect(afterDelete.slice(0, 3).map((p) => p.original_name)).toEqual(['p2.png', 'p1.png', 'p4.png']);
      expect(fs.existsSync(path.join(MEDIA_DIR, deleted.media_key))).toBe(false);
      const replaced = await upload(server, editor, `/studio/chapters/drafts/${id}/pages/`, [{ name: 'replace', value: '2' }, { name: 'pages', file: { name: 'new.jpg', data: await makeImage('jpeg', 9, 50, 70) } }]);
      expect([replaced.status, replaced.headers.location]).toEqual([303, `/studio/chapters/drafts/${id}/?done=replaced&n=1`]);
      const afterReplace = await pagesOf(server, id);
      expect(afterReplace[1]).toMatchObject({ position: 2, original_name: 'new.jpg' });
      expect(afterReplace[1]!.media_key.endsWith('.jpg')).toBe(true);
      expect(fs.existsSync(path.join(MEDIA_DIR, afterDelete[1]!.media_key))).toBe(false);
      // A refused addition changes nothing.
      const refused = await upload(server, editor, `/studio/chapters/drafts/${id}/pages/`, [{ name: 'pages', file: { name: 'bad.png', data: Buffer.from('text') } }], 'br');
      expect(refused.status).toBe(415);
      expect(htmlText(refused.text)).toContain(message('pt-BR', 'studio.upload.error.notImage', { page: 30, name: 'bad.png' }));
      expect(await pagesOf(server, id)).toEqual(afterReplace);

      const audit = await withDb(server, (db) => db.selectFrom('audit_log').select(['action', 'actor_id', 'capability']).where('object_table', '=', 'chapter_drafts').where('object_id', '=', String(id)).orderBy('id').execute());
      expect(audit.map((a) => a.action)).toEqual(['chapter_draft.create', 'chapter_draft.page_move', 'chapter_draft.page_move', 'chapter_draft.page_move', 'chapter_draft.page_delete', 'chapter_draft.page_replace']);
      expect(audit.every((a) => Number(a.actor_id) === editor.id && a.capability === 'content')).toBe(true);

      // Discarding removes the rows and the files.
      const files = afterReplace.map((p) => path.join(MEDIA_DIR, p.media_key));
      const discarded = await form(server, editor, `/studio/chapters/drafts/${id}/`, { action: 'discard' });
      expect([discarded.status, discarded.headers.location]).toEqual([303, `/studio/chapters/new/?series=${seriesId}&done=discarded`]);
      expect(await pagesOf(server, id)).toEqual([]);
      expect(files.filter((f) => fs.existsSync(f))).toEqual([]);
    });

    it('publishes a draft now (pages in the served layout, counters, audit) and schedules one in a zone; refuses a bad price and a taken number', { timeout: 60_000 }, async () => {
      const draftOf = async (number: string, language = 'en') => {
        const res = await upload(server, editor, `/studio/chapters/new/?series=${seriesId}`, [{ name: 'series', value: String(seriesId) }, { name: 'number', value: number }, { name: 'language', value: language }, ...images.map((data, i) => ({ name: 'pages', file: { name: `${i + 1}.png`, data } }))]);
        expect(res.status).toBe(303);
        return Number(/drafts\/(\d+)\//.exec(res.headers.location ?? '')?.[1]);
      };
      const images = await Promise.all([1, 2, 3].map((i) => makeImage('png', i, 30 + i, 40)));
      const counters = () => withDb(server, async (db) => Number((await db.selectFrom('series_languages').select('chapter_count').where('series_id', '=', seriesId).where('language', '=', 'en').executeTakeFirst())?.chapter_count ?? 0));
      const before = await counters();
      const id = await draftOf('9001.5');
      const publish = (draft: number, fields: Record<string, string>) => form(server, editor, `/studio/chapters/drafts/${draft}/`, { action: 'publish', price: '0', purchase: '1', zone: 'UTC', release: 'now', ...fields });

      const badPrice = await publish(id, { price: '-3' });
      expect(badPrice.status).toBe(422);
      expect(htmlText(badPrice.text)).toContain(message('en', 'studio.publish.error.price'));
      const badZone = await publish(id, { zone: 'Mars/Olympus' });
      expect(badZone.status).toBe(422);

      const done = await publish(id, { price: '0', ads: '1' });
      expect(done.status).toBe(303);
      expect(done.headers.location).toMatch(new RegExp(`^/studio/chapters/new/\\?series=${seriesId}&done=published&at=\\d+&zone=UTC$`));
      const chapter = await withDb(server, (db) => db.selectFrom('chapters').selectAll().where('series_id', '=', seriesId).where('language', '=', 'en').where('number', '=', 9001.5).executeTakeFirstOrThrow());
      expect([Number(chapter.page_count), Number(chapter.original_price), Number(chapter.ads_enabled), Number(chapter.purchase_enabled), Number(chapter.daily_pass_enabled)]).toEqual([3, 0, 1, 1, 0]);
      const rows = await withDb(server, (db) => db.selectFrom('chapter_pages').select(['position', 'media_key', 'width']).where('chapter_id', '=', chapter.id).orderBy('position').execute());
      expect(rows.map((r) => [Number(r.position), Number(r.width)])).toEqual([[0, 31], [1, 32], [2, 33]]);
      for (const r of rows) {
        expect(r.media_key.startsWith(`chapters/${chapter.e4pid.toLowerCase()}/`)).toBe(true);
        expect(fs.readFileSync(path.join(MEDIA_DIR, r.media_key)).equals(images[Number(r.position)]!)).toBe(true);
      }
      expect(fs.existsSync(path.join(STAGING, String(id)))).toBe(false);
      expect(await pagesOf(server, id)).toEqual([]);
      expect(await counters()).toBe(before + 1);
      const audit = await withDb(server, (db) => db.selectFrom('audit_log').select(['action', 'after_json']).where('object_table', '=', 'chapters').where('object_id', '=', String(chapter.id)).execute());
      expect(audit.map((a) => a.action)).toEqual(['chapter.publish']);
      expect(JSON.parse(audit[0]!.after_json!)).toMatchObject({ e4pid: chapter.e4pid, number: 9001.5, price: 0, pages: 3 });
      const notice = await server.request(done.headers.location!, { headers: { cookie: editor.cookie } });
      const at = Number(/&at=(\d+)&/.exec(done.headers.location!)![1]);
      expect(Math.abs(at - Math.floor(Date.now() / 1000))).toBeLessThan(120);
      const label = dateTimeLabel(at, 'en', 'UTC');
      expect(htmlText(notice.text)).toContain(message('en', 'studio.publish.done', { when: label, utc: label }));

      // Scheduled in São Paulo's wall clock: 2031-03-04 18:30 there is 21:30 UTC.
      const later = await draftOf('9002');
      const scheduled = await publish(later, { release: 'at', release_at: '2031-03-04T18:30', zone: 'America/Sao_Paulo' });
      expect(scheduled.status).toBe(303);
      const row = await withDb(server, (db) => db.selectFrom('chapters').select(['released_at', 'sale_at']).where('series_id', '=', seriesId).where('number', '=', 9002).executeTakeFirstOrThrow());
      expect([Number(row.released_at), Number(row.sale_at)]).toEqual([Date.UTC(2031, 2, 4, 21, 30) / 1000, Date.UTC(2031, 2, 4, 21, 30) / 1000]);
      expect(await counters()).toBe(before + 1);

      // The same number again in the same language is refused, and the draft stays.
      const again = await draftOf('9001.5');
      const taken = await publish(again, {});
      expect(taken.status).toBe(409);
      expect(htmlText(taken.text)).toContain(message('en', 'studio.publish.error.duplicate'));
      expect((await pagesOf(server, again)).length).toBe(3);
    });

    it('npm run drafts -- cleanup removes drafts untouched for a week, orphan staging folders and stale work folders, and keeps the rest', { timeout: 90_000 }, async () => {
      const make = async () => {
        const res = await newChapter([{ name: 'pages', file: { name: '1.png', data: await makeImage() } }]);
        expect(res.status).toBe(303);
        return Number(/drafts\/(\d+)\//.exec(res.headers.location ?? '')?.[1]);
      };
      const [stale, fresh] = [await make(), await make()];
      const now = Math.floor(Date.now() / 1000);
      await withDb(server, (db) => db.updateTable('chapter_drafts').set({ updated_at: now - 8 * 24 * 3600 }).where('id', '=', stale).execute());
      const orphan = path.join(STAGING, '2147483000');
      const work = path.join(STAGING, 'work-cleanup-test');
      for (const dir of [orphan, work]) {
        fs.mkdirSync(dir, { recursive: true });
        fs.writeFileSync(path.join(dir, 'x.png'), 'x');
      }
      fs.utimesSync(orphan, now - 2 * 3600, now - 2 * 3600);
      fs.utimesSync(work, now - 2 * 24 * 3600, now - 2 * 24 * 3600);
      const run = await npmRun(server.databaseUrl, 'drafts', ['cleanup'], { MEDIA_DIR });
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toContain('Removed 1 abandoned draft(s)');
      expect(await pagesOf(server, stale)).toEqual([]);
      expect(fs.existsSync(path.join(STAGING, String(stale)))).toBe(false);
      expect(fs.existsSync(orphan)).toBe(false);
      expect(fs.existsSync(work)).toBe(false);
      expect((await pagesOf(server, fresh)).length).toBe(1);
      expect(fs.existsSync(path.join(STAGING, String(fresh)))).toBe(true);
      const audit = await withDb(server, (db) => db.selectFrom('audit_log').select(['action', 'actor_id']).where('object_table', '=', 'chapter_drafts').where('object_id', '=', String(stale)).orderBy('id').execute());
      expect(audit.map((a) => [a.action, a.actor_id])).toEqual([['chapter_draft.create', editor.id], ['chapter_draft.expire', null]]);
    });

    it('answers 403 to a reader and to staff without content, and serves no staging file to them', async () => {
      const png = await makeImage();
      const created = await newChapter([{ name: 'pages', file: { name: '1.png', data: png } }]);
      expect(created.status).toBe(303);
      const id = Number(/drafts\/(\d+)\//.exec(created.headers.location ?? '')?.[1]);
      const before = await draftCount(server);
      for (const who of [await createReader(server), await createStaff(server, 'pricing', 'admin')]) {
        const res = await newChapter([{ name: 'pages', file: { name: '1.png', data: png } }], 'br', who);
        expect(res.status).toBe(403);
        expect(res.text).toContain(message('pt-BR', 'staff.error.forbidden'));
        expect((await upload(server, who, `/studio/chapters/drafts/${id}/pages/`, [{ name: 'pages', file: { name: '2.png', data: png } }])).status).toBe(403);
        expect((await form(server, who, `/studio/chapters/drafts/${id}/`, { action: 'discard' })).status).toBe(403);
        const image = await server.request(`/studio/chapters/drafts/${id}/pages/1/`, { headers: { cookie: who.cookie } });
        expect(image.status).toBe(403);
        expect(image.body.includes(png)).toBe(false);
      }
      expect(await draftCount(server)).toEqual(before);
      // A cross-site upload is refused before it is read.
      const { body, type } = multipart([{ name: 'series', value: String(seriesId) }, { name: 'number', value: '1' }, { name: 'language', value: 'en' }, { name: 'pages', file: { name: '1.png', data: png } }]);
      const evil = await server.request(`/studio/chapters/new/?series=${seriesId}`, { method: 'POST', body, headers: { 'content-type': type, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site', cookie: editor.cookie } });
      expect(evil.status).toBe(403);
      expect(await draftCount(server)).toEqual(before);
      // Nor is a staging file reachable through the public media route.
      const key = (await pagesOf(server, id))[0]!.media_key;
      expect((await server.request(`/media/${key}`)).status).toBe(404);
    });
  });
}
