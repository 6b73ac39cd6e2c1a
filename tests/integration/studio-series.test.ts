/**
 * The studio's series editor (issue 27, docs/staff.md), on both databases: staff with `content`
 * create a series (a draft), and a draft is invisible to readers everywhere (series page, a
 * chapter's reader, the listing, search and its suggestions, the sitemap, the feeds, the APIs)
 * until it is published, when it appears on every one of them at once. Each save writes exactly
 * one audit record; refused forms answer 422 with the values kept, bad ids 404, oversized and
 * garbage bodies 413/415/400, and nothing changes.
 */
import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createReader, createStaff, htmlText, message, type Reader, selectedDialects, type ServerClient, useServer, withDb } from './harness';


const get = (server: ServerClient, path: string, who: Reader | null = null, site: 'en' | 'br' = 'en') =>
  server.request(path, { site, headers: who ? { cookie: who.cookie } : {} });

const FORM = 'application/x-www-form-urlencoded';

function post(server: ServerClient, path: string, who: Reader | null, body: string | URLSearchParams, opts: { site?: 'en' | 'br'; origin?: string; type?: string } = {}) {
  const site = opts.site ?? 'en';
  return server.request(path, {
    site, method: 'POST', body: body.toString(),
    headers: {
      'content-type': opts.type ?? FORM, accept: 'text/html',
      origin: opts.origin ?? server.origin(site), 'sec-fetch-site': opts.origin ? 'cross-site' : 'same-origin',
      ...(who ? { cookie: who.cookie } : {}),
    },
  });
}

/** A complete editor form: a series named `name`, with the given fields changed. */
function seriesForm(name: string, changes: Record<string, string | string[]> = {}): URLSearchParams {
  const fields: Record<string, string | string[]> = {
    state: 'DRAFT', languages: ['en'], slug: '', format: 'MANGA', update_status: 'WEEKLY', color: '#336699',
    'original.name': name, 'original.description': `The story of ${name}. It goes on.`, 'original.excerpt': `The story of ${name}.`,
    'original.update_text': '', 'original.chapter_name_format': '', alt: '',
    publisher: '', geoblocks: '', new_tags: '', authors: '', artists: '',
    starting_count: '0', catchup_count: '0', fpf: '', daily_pass_ttl: '72', daily_pass_recharge: '23', total_ads: '0', ads_ttl: '48', ads_hint: '',
    ...changes,
  };
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  return form;
}

const auditRows = (server: ServerClient, id: number) =>
  withDb(server, (db) => db.selectFrom('audit_log').select(['action', 'actor_id', 'capability', 'before_json', 'after_json']).where('object_table', '=', 'series').where('object_id', '=', String(id)).orderBy('id').execute());

const seriesRow = (server: ServerClient, id: number) =>
  withDb(server, (db) => db.selectFrom('series').selectAll().where('id', '=', id).executeTakeFirst());

/** A free English chapter 1 of series `id`, released an hour ago (chapters come from the chapter editor, tested elsewhere); its e4pid. */
async function releasedChapter(server: ServerClient, id: number): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const e4pid = `EPI-${crypto.randomBytes(4).toString('hex')}`;
  await withDb(server, (db) => db.insertInto('chapters').values({
    e4pid, series_id: id, language: 'en', number: 1, title: 'One', subtitle: null, released_at: now - 3600, sale_at: now - 3600, expired_at: null,
    original_price: 0, thumbnail: null, purchase_enabled: 1, purchase_many_enabled: 1, daily_pass_enabled: 0, ads_enabled: 0, rental_enabled: 0,
    subscription_enabled: 0, page_count: 0, created_at: now - 3600,
  }).execute());
  return e4pid;
}

const idFrom = (location: string | undefined) => Number(/^\/studio\/series\/(\d+)\/\?done=created$/.exec(location ?? '')?.[1]);

for (const dialect of selectedDialects()) {
  describe(`studio series editor (${dialect})`, () => {
    const server = useServer(dialect);

    it('a draft made in the studio is invisible to readers everywhere, and appears everywhere once published', async () => {
      const editor = await createStaff(server, 'content');
      const word = `zq${crypto.randomBytes(4).toString('hex')}`;
      const name = `Quiet ${word} Harbor`;
      const created = await post(server, '/studio/series/new/', editor, seriesForm(name));
      expect(created.status).toBe(303);
      const id = idFrom(created.headers.location);
      expect(id).toBeGreaterThan(0);
      const row = (await seriesRow(server, id))!;
      expect([row.state, row.slug, row.name, row.format, row.color]).toEqual(['DRAFT', `quiet-${word}-harbor`, name, 'MANGA', '#336699']);
      const page = await get(server, created.headers.location!, editor);
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toContain('no-store');
      expect(page.text).toContain('<meta name="robots" content="noindex"');
      expect(htmlText(page.text)).toContain(message('en', 'studio.series.done.created'));
      expect(page.text).toContain(`value="${name}"`);
      const created1 = await auditRows(server, id);
      expect(created1).toHaveLength(1);
      expect(created1[0]).toMatchObject({ action: 'series.create', actor_id: editor.id, capability: 'content', before_json: null });
      expect(JSON.parse(created1[0]!.after_json!)).toMatchObject({ name, slug: row.slug, state: 'DRAFT' });

      // A released chapter of the draft (chapters come from the chapter editor later).
      const e4pid = await releasedChapter(server, id);
      const { readerPath } = await import('~/lib/paths');
      const reader = readerPath({ slug: row.slug, format: 'MANGA' }, { e4pid, number: 1, language: 'en' });
      const visitor = await createReader(server);

      const surfaces = async () => ({
        series: (await get(server, `/comics/${row.slug}/`)).status,
        seriesSignedIn: (await get(server, `/comics/${row.slug}/`, visitor)).status,
        reader: (await get(server, reader)).status,
        feed: (await get(server, `/feeds/comics/${row.slug}.xml`)).status,
        sapi: (await get(server, `/sapi/comics/${row.e4pid}`)).status,
        api: (await get(server, `/api/comic.public/${row.e4pid}`)).status,
        apiById: (await get(server, `/api/comic.public/${id}`)).status,
        episodes: (await get(server, `/api/comic.public/${id}/episodes?language=en`)).status,
        listing: htmlText((await get(server, `/comics/?q=${word}`)).text).includes(name),
        suggest: (await get(server, `/search/suggest?q=${word}&site_id=1`)).text.includes(row.slug),
        sitemap: (await get(server, '/sitemap-series.xml')).text.includes(`/comics/${row.slug}/`),
        favorite: (await server.request(`/api/favorites/${row.e4pid}/`, { method: 'POST', headers: { cookie: visitor.cookie, origin: server.origin('en'), 'sec-fetch-site': 'same-origin' } })).status,
      });
      expect(await surfaces()).toEqual({
        series: 404, seriesSignedIn: 404, reader: 404, feed: 404, sapi: 404, api: 404, apiById: 404, episodes: 404,
        listing: false, suggest: false, sitemap: false, favorite: 404,
      });

      // The studio's home offers the series section to content staff; its list shows the draft.
      const home = await get(server, '/studio/', editor, 'br');
      expect(home.text).toContain('href="/studio/series/"');
      expect(htmlText(home.text)).toContain(message('pt-BR', 'studio.section.series'));
      const list = await get(server, `/studio/series/?q=${word}&state=DRAFT`, editor);
      expect(list.status).toBe(200);
      expect(list.text).toContain(`href="/studio/series/${id}/"`);
      expect((await get(server, `/studio/series/?q=${word}&state=ACTIVE`, editor)).text).not.toContain(`href="/studio/series/${id}/"`);

      // Published: everywhere at once (no restart, no wait for a cache).
      const published = await post(server, `/studio/series/${id}/`, editor, seriesForm(name, { state: 'ACTIVE', slug: row.slug }));
      expect([published.status, published.headers.location]).toEqual([303, `/studio/series/${id}/?done=saved`]);
      expect((await seriesRow(server, id))!.state).toBe('ACTIVE');
      const after = await surfaces();
      expect(after).toMatchObject({ series: 200, seriesSignedIn: 200, feed: 200, sapi: 200, api: 200, apiById: 200, episodes: 200, listing: true, suggest: true, sitemap: true });
      expect(after.reader).not.toBe(404);
      expect(after.favorite).toBeLessThan(300);
      const updates = await auditRows(server, id);
      expect(updates).toHaveLength(2);
      expect(updates[1]).toMatchObject({ action: 'series.update', actor_id: editor.id, capability: 'content' });
      expect(JSON.parse(updates[1]!.before_json!)).toEqual({ state: 'DRAFT' });
      expect(JSON.parse(updates[1]!.after_json!)).toEqual({ state: 'ACTIVE' });

      // Saving the same form again changes nothing and records nothing.
      const same = await post(server, `/studio/series/${id}/`, editor, seriesForm(name, { state: 'ACTIVE', slug: row.slug }));
      expect([same.status, same.headers.location]).toEqual([303, `/studio/series/${id}/?done=unchanged`]);
      expect(await auditRows(server, id)).toHaveLength(2);

      // Back to a draft: gone again at once.
      expect((await post(server, `/studio/series/${id}/`, editor, seriesForm(name, { state: 'DRAFT', slug: row.slug }))).status).toBe(303);
      expect(await surfaces()).toMatchObject({ series: 404, reader: 404, sapi: 404, listing: false, suggest: false, sitemap: false });
      expect(await auditRows(server, id)).toHaveLength(3);
    });

    it('translations show on their site, the original is the fallback, and removed shows the removed message', async () => {
      const editor = await createStaff(server, 'content');
      const word = `zt${crypto.randomBytes(4).toString('hex')}`;
      const form = seriesForm(`Iron ${word} Bell`, {
        state: 'ACTIVE', languages: ['en', 'pt-br'],
        'pt-br.name': `Sino ${word} de Ferro`, 'pt-br.description': 'Uma história de ferro.',
        'notes.en': `New chapters every Friday ${word}`, 'notes.pt-br': `Capítulos novos toda sexta ${word}`,
      });
      const created = await post(server, '/studio/series/new/', editor, form, { site: 'br' });
      expect(created.status).toBe(303);
      const id = idFrom(created.headers.location);
      const slug = `iron-${word}-bell`;
      const br = await get(server, `/comics/${slug}/`, null, 'br');
      expect(br.status).toBe(200);
      expect(htmlText(br.text)).toContain(`Sino ${word} de Ferro`);
      expect(htmlText(br.text)).toContain(`Capítulos novos toda sexta ${word}`);
      expect(htmlText(br.text)).not.toContain(`New chapters every Friday ${word}`);
      const en = await get(server, `/comics/${slug}/`);
      expect(htmlText(en.text)).toContain(`Iron ${word} Bell`);
      expect(htmlText(en.text)).toContain(`New chapters every Friday ${word}`);
      expect(htmlText(en.text)).not.toContain(`Capítulos novos toda sexta ${word}`);
      expect(JSON.parse((await seriesRow(server, id))!.hints)).toEqual([
        { text: `New chapters every Friday ${word}`, icon: 'NONE', language: 'en' },
        { text: `Capítulos novos toda sexta ${word}`, icon: 'NONE', language: 'pt-br' },
      ]);

      // The editor on the Brazilian host speaks Portuguese; an empty translation shows the original as its placeholder.
      const editorPage = await get(server, `/studio/series/${id}/`, editor, 'br');
      expect(editorPage.status).toBe(200);
      expect(htmlText(editorPage.text)).toContain(message('pt-BR', 'studio.series.original'));
      expect(editorPage.text).toMatch(new RegExp(`name="en\\.name" value maxlength="200" placeholder="Iron ${word} Bell"`));
      expect(editorPage.text).toContain(`value="Sino ${word} de Ferro"`);

      const removed = await post(server, `/studio/series/${id}/`, editor, seriesForm(`Iron ${word} Bell`, { state: 'REMOVED', languages: ['en', 'pt-br'], slug, 'pt-br.name': `Sino ${word} de Ferro` }));
      expect(removed.status).toBe(303);
      const gone = await get(server, `/comics/${slug}/`);
      expect(gone.status).toBe(200);
      expect(htmlText(gone.text)).toContain(message('en', 'series.removed'));
      // A translation emptied is removed: the original shows again.
      expect((await post(server, `/studio/series/${id}/`, editor, seriesForm(`Iron ${word} Bell`, { state: 'ACTIVE', languages: ['pt-br'], slug }))).status).toBe(303);
      expect(htmlText((await get(server, `/comics/${slug}/`, null, 'br')).text)).toContain(`Iron ${word} Bell`);
      expect(await withDb(server, (db) => db.selectFrom('series_texts').select('language').where('series_id', '=', id).execute())).toEqual([]);
      // Published only in Portuguese: the English site no longer lists it.
      expect((await get(server, '/sitemap-series.xml')).text).not.toContain(`/comics/${slug}/`);
      expect((await get(server, '/sitemap-series.xml', null, 'br')).text).toContain(`/comics/${slug}/`);
      expect(await auditRows(server, id)).toHaveLength(3);
    });

    it('tags (new ones too), people, publisher, country blocks and availability are saved in the shapes the pricing rule reads, shown by the API and found by search', async () => {
      const editor = await createStaff(server, 'content');
      const word = `zc${crypto.randomBytes(4).toString('hex')}`;
      const { tag, person, publisher } = await withDb(server, async (db) => ({
        tag: await db.selectFrom('tags').select(['id', 'slug']).orderBy('id').executeTakeFirstOrThrow(),
        person: await db.selectFrom('people').select(['id', 'name']).orderBy('id').executeTakeFirstOrThrow(),
        publisher: await db.selectFrom('publishers').select(['id']).orderBy('id').executeTakeFirstOrThrow(),
      }));
      const settings = {
        state: 'ACTIVE', tags: [String(tag.id)], new_tags: `Zed ${word} | Zê ${word}`,
        authors: `Ana ${word}\n${person.name.toUpperCase()}`, artists: `Bo ${word}`, publisher: String(publisher.id), geoblocks: 'pt, br BR',
        starting_count: '2', catchup_count: '1', simulpub: '1', fpf: 'paid', daily_pass_enabled: '1', daily_pass_ttl: '24', daily_pass_recharge: '12',
        ads_enabled: '1', total_ads: '3', ads_ttl: '6', ads_hint: 'Watch one',
      };
      const created = await post(server, '/studio/series/new/', editor, seriesForm(`Credits ${word}`, settings));
      expect(created.status).toBe(303);
      const id = idFrom(created.headers.location);
      const api = (await get(server, `/api/comic.public/${id}`)).json().comic;
      expect(api.author.map((p: { name: string }) => p.name)).toEqual([`Ana ${word}`, person.name]);
      expect(api.artist.map((p: { name: string }) => p.name)).toEqual([`Bo ${word}`]);
      expect(api.tags.map((t: { slug: string }) => t.slug)).toEqual([tag.slug, `zed-${word}`]);
      expect(api.publisher.id).toBe(Number(publisher.id));
      expect(api.geoblocks).toEqual(['BR', 'PT']);
      expect(api.availability_strategy).toEqual({
        starting_count: 2, simulpub: true, latest_only_free: false, fpf_becomes_paid: true, fpf_becomes_free: false, fpf_becomes_backlog: false,
        backlog_becomes_backlog: false, catchup_count: 1, latest_episode_double: false,
      });
      const br = (await get(server, `/api/comic.public/${id}`, null, 'br')).json().comic;
      expect(br.tags.map((t: { name: string }) => t.name)).toContain(`Zê ${word}`);
      const row = (await seriesRow(server, id))!;
      expect(JSON.parse(row.free_availability)).toEqual({
        daily_pass_enabled: true, daily_pass_ttl: 86400, daily_pass_recharge: 43200, ads_enabled: true, total_ads: 3, available_ads: 3, ads_ttl: 21600,
        subscribed: false, ads_hint: 'Watch one',
      });
      // The known person is reused (matched ignoring case), the new one made once.
      expect(await withDb(server, async (db) => (await db.selectFrom('people').select('id').where('name', '=', person.name).execute()).length)).toBe(1);
      // Search finds the series by its new author and its new tag.
      expect((await get(server, `/search/suggest?q=${encodeURIComponent(`Ana ${word}`)}&site_id=1`)).text).toContain(row.slug);
      expect((await get(server, `/search/suggest?q=${encodeURIComponent(`Zed ${word}`)}&site_id=1`)).text).toContain(row.slug);

      // The editor shows what is stored; saving it as shown changes nothing.
      const page = await get(server, `/studio/series/${id}/`, editor);
      const newTag = (api.tags as { id: number; slug: string }[]).find((t) => t.slug === `zed-${word}`)!;
      expect(page.text).toMatch(new RegExp(`name="tags" value="${newTag.id}" checked`));
      expect(htmlText(page.text)).toContain(`Ana ${word} ${person.name}`);
      const same = await post(server, `/studio/series/${id}/`, editor, seriesForm(`Credits ${word}`, {
        ...settings, slug: row.slug, tags: [String(tag.id), String(newTag.id)], new_tags: '', authors: `Ana ${word}\n${person.name}`, geoblocks: 'BR, PT',
      }));
      expect(same.headers.location).toBe(`/studio/series/${id}/?done=unchanged`);
      expect((await auditRows(server, id)).map((r) => r.action)).toEqual(['series.create']);

      // Bad settings: 422 on the field, nothing written.
      const bad: [Record<string, string | string[]>, string][] = [
        [{ geoblocks: 'XX, Brazil' }, 'studio.series.error.countries'],
        [{ starting_count: '-1' }, 'studio.series.error.count'],
        [{ catchup_count: '10001' }, 'studio.series.error.count'],
        [{ ads_enabled: '1', total_ads: '0' }, 'studio.series.error.adsNone'],
        [{ total_ads: '101' }, 'studio.series.error.ads'],
        [{ daily_pass_ttl: '0' }, 'studio.series.error.hours'],
        [{ ads_ttl: 'soon' }, 'studio.series.error.hours'],
        [{ tags: ['999999999'] }, 'studio.series.error.choice'],
        [{ publisher: '999999999' }, 'studio.series.error.choice'],
        [{ fpf: 'sometimes' }, 'studio.series.error.choice'],
        [{ new_tags: 'Only English' }, 'studio.series.error.newTags'],
        [{ authors: 'x'.repeat(121) }, 'studio.series.error.people'],
        [{ 'notes.pt-br': 'y'.repeat(201) }, 'studio.series.error.notes'],
      ];
      for (const [change, key] of bad) {
        const res = await post(server, `/studio/series/${id}/`, editor, seriesForm(`Credits ${word}`, { ...settings, new_tags: '', slug: row.slug, ...change }));
        expect([key, res.status]).toEqual([key, 422]);
        expect(htmlText(res.text)).toContain(message('en', key as never));
      }
      expect((await auditRows(server, id)).map((r) => r.action)).toEqual(['series.create']);
      expect((await seriesRow(server, id))!.geoblocks).toBe('["BR","PT"]');
    });

    it('refused forms answer 422 with the message beside the field and the values kept; nothing is written', async () => {
      const editor = await createStaff(server, 'content');
      const word = `zr${crypto.randomBytes(4).toString('hex')}`;
      const taken = await withDb(server, async (db) => (await db.selectFrom('series').select('slug').where('state', '=', 'ACTIVE').orderBy('id').executeTakeFirstOrThrow()).slug);
      const count = () => withDb(server, async (db) => Number((await db.selectFrom('audit_log').select((eb) => eb.fn.countAll().as('n')).where('action', 'like', 'series.%').executeTakeFirstOrThrow()).n));
      const before = await count();
      const cases: [Record<string, string | string[]>, string, 'en' | 'pt-BR'][] = [
        [{ 'original.name': '' }, 'studio.series.error.name', 'en'],
        [{ color: 'red' }, 'studio.series.error.color', 'en'],
        [{ slug: 'Not A Slug!' }, 'studio.series.error.slug', 'pt-BR'],
        [{ slug: taken }, 'studio.series.error.slugTaken', 'en'],
        [{ 'original.chapter_name_format': 'Part' }, 'studio.series.error.chapterFormat', 'en'],
        [{ state: 'PUBLISHED' }, 'studio.series.error.choice', 'en'],
        [{ format: 'NOVEL' }, 'studio.series.error.choice', 'en'],
        [{ languages: ['en', 'fr'] }, 'studio.series.error.choice', 'en'],
        [{ 'original.excerpt': 'x'.repeat(501) }, 'studio.series.error.tooLong', 'en'],
      ];
      for (const [change, key, locale] of cases) {
        const site = locale === 'en' ? 'en' : 'br';
        const res = await post(server, '/studio/series/new/', editor, seriesForm(`Kept ${word}`, change), { site });
        expect([key, res.status]).toEqual([key, 422]);
        expect(htmlText(res.text)).toContain(message(locale, key as never));
        expect(htmlText(res.text)).toContain(message(locale, 'studio.series.error.form'));
        if (change['original.name'] !== '') expect(res.text).toContain(`The story of Kept ${word}. It goes on.`);
      }
      expect(await count()).toBe(before);
      expect(await withDb(server, (db) => db.selectFrom('series').select('id').where('name', '=', `Kept ${word}`).execute())).toEqual([]);
    });

    it('bad ids are 404, bodies too large 413, garbage 400/415, strangers 303/403; nothing changes', async () => {
      const editor = await createStaff(server, 'content');
      const word = `zb${crypto.randomBytes(4).toString('hex')}`;
      const created = await post(server, '/studio/series/new/', editor, seriesForm(`Bad ${word}`));
      const id = idFrom(created.headers.location);
      for (const bad of ['0', '999999999', 'abc', '1e3', '-1', '99999999999999999999']) {
        expect([bad, (await get(server, `/studio/series/${bad}/`, editor)).status]).toEqual([bad, 404]);
        expect([bad, (await post(server, `/studio/series/${bad}/`, editor, seriesForm('X'))).status]).toEqual([bad, 404]);
      }
      const huge = seriesForm(`Bad ${word}`, { 'original.description': 'x'.repeat(70 * 1024) });
      expect((await post(server, `/studio/series/${id}/`, editor, huge)).status).toBe(413);
      expect((await post(server, '/studio/series/new/', editor, 'original.name=%E0%A4%A')).status).toBe(400);
      expect((await post(server, '/studio/series/new/', editor, 'original.name=a%00b')).status).toBe(400);
      expect((await post(server, '/studio/series/new/', editor, '{"name":"x"}', { type: 'application/json' })).status).toBe(415);
      // Strangers: signed out to the login page, a reader and staff without content 403, another origin 403.
      const reader = await createReader(server);
      const pricing = await createStaff(server, 'pricing');
      const anon = await post(server, `/studio/series/${id}/`, null, seriesForm('Hijack', { state: 'ACTIVE' }));
      expect([anon.status, anon.headers.location]).toEqual([303, `/auth/login/?next=${encodeURIComponent(`/studio/series/${id}/`)}`]);
      expect((await post(server, `/studio/series/${id}/`, reader, seriesForm('Hijack', { state: 'ACTIVE' }))).status).toBe(403);
      expect((await post(server, '/studio/series/new/', pricing, seriesForm('Hijack'))).status).toBe(403);
      expect((await get(server, '/studio/series/', pricing, 'br')).status).toBe(403);
      expect((await post(server, `/studio/series/${id}/`, editor, seriesForm('Hijack', { state: 'ACTIVE' }), { origin: 'https://evil.example' })).status).toBe(403);
      const row = (await seriesRow(server, id))!;
      expect([row.name, row.state]).toEqual([`Bad ${word}`, 'DRAFT']);
      expect(await auditRows(server, id)).toHaveLength(1);
      // The list's filters: malformed ones answer 400 with a message.
      for (const q of ['state=PUBLISHED', 'page=0', 'page=abc', `q=${'a'.repeat(101)}`]) {
        const res = await get(server, `/studio/series/?${q}`, editor);
        expect([q, res.status]).toEqual([q, 400]);
      }
      // An empty slug is made from the name, the first free one.
      const again = await post(server, '/studio/series/new/', editor, seriesForm(`Bad ${word}`));
      expect((await seriesRow(server, idFrom(again.headers.location)))!.slug).toBe(`bad-${word}-2`);
    });

    it("a series' creators, named by email in the editor, carry a Creator badge on its chapters' comments and nowhere else", async () => {
      const editor = await createStaff(server, 'content');
      const creator = await createReader(server, { name: 'Mira Ink' });
      const fan = await createReader(server, { name: 'Plain Fan' });
      const word = `zc${crypto.randomBytes(4).toString('hex')}`;

      // An email with no account is a message beside the field; nothing is created.
      const unknown = await post(server, '/studio/series/new/', editor, seriesForm(`Creator ${word}`, { state: 'ACTIVE', creators: `nobody-${word}@example.test` }));
      expect(unknown.status).toBe(422);
      expect(htmlText(unknown.text)).toContain(message('en', 'studio.series.error.creatorUnknown'));
      expect(unknown.text).toContain(`nobody-${word}@example.test`);
      const malformed = await post(server, '/studio/series/new/', editor, seriesForm(`Creator ${word}`, { state: 'ACTIVE', creators: 'not an email' }));
      expect(malformed.status).toBe(422);
      expect(htmlText(malformed.text)).toContain(message('en', 'studio.series.error.creators'));
      expect(await withDb(server, (db) => db.selectFrom('series').select('id').where('name', '=', `Creator ${word}`).execute())).toEqual([]);

      // Emails match ignoring case and spaces; the editor shows them back; the audit keeps them.
      const created = await post(server, '/studio/series/new/', editor, seriesForm(`Creator ${word}`, { state: 'ACTIVE', creators: `  ${creator.email.toUpperCase()}  ` }));
      expect(created.status).toBe(303);
      const id = idFrom(created.headers.location);
      const editorPage = await get(server, `/studio/series/${id}/`, editor);
      expect(editorPage.text).toMatch(new RegExp(`name="creators"[^>]*>${creator.email.replace(/[.]/g, '\\.')}</textarea>`));
      const [audit] = await auditRows(server, id);
      expect(JSON.parse(audit!.after_json!)).toMatchObject({ creators: creator.email });

      const row = (await seriesRow(server, id))!;
      const e4pid = await releasedChapter(server, id);
      // The no-JS form (the API's writes also want the app-check token).
      const comment = (who: Reader, body: string) => server.request(`/comments/${e4pid}/`, {
        method: 'POST', body: new URLSearchParams({ intent: 'post', body }).toString(),
        headers: { 'content-type': FORM, origin: server.origin('en'), 'sec-fetch-site': 'same-origin', cookie: who.cookie },
      });
      expect((await comment(creator, `Thanks for reading ${word}!`)).status).toBe(303);
      expect((await comment(fan, `Great start ${word}`)).status).toBe(303);

      /** The author names that carry the Creator badge on a page. */
      const badged = (html: string) => [...html.matchAll(/<strong class="(?:c|sc)-author"[^>]*>([^<]+)<\/strong>\s*<span class="(?:c|sc)-badge[^"]*">([^<]+)<\/span>/g)]
        .filter((m) => m[2] === message('en', 'comments.creator')).map((m) => m[1]);
      expect(badged((await get(server, `/comments/${e4pid}/`)).text)).toEqual(['Mira Ink']);
      expect(badged((await get(server, `/comics/${row.slug}/`)).text)).toEqual(['Mira Ink']);
      const api = JSON.parse((await get(server, `/api/comments/${e4pid}/`)).text);
      const byName = Object.fromEntries((api.comments as { author: { name: string }; creator: boolean; staff: boolean }[]).map((c) => [c.author.name, [c.creator, c.staff]]));
      expect(byName).toEqual({ 'Mira Ink': [true, false], 'Plain Fan': [false, false] });

      // Taken off the series: the badge goes at once (the series page's cache forgets too).
      const form = seriesForm(`Creator ${word}`, { state: 'ACTIVE', slug: row.slug, creators: '' });
      expect((await post(server, `/studio/series/${id}/`, editor, form)).status).toBe(303);
      expect(badged((await get(server, `/comments/${e4pid}/`)).text)).toEqual([]);
      expect(badged((await get(server, `/comics/${row.slug}/`)).text)).toEqual([]);
      // The creator of one series is a plain reader on another's chapters.
      expect(await withDb(server, (db) => db.selectFrom('series_creators').selectAll().execute())).toEqual([]);
    });
  });
}
