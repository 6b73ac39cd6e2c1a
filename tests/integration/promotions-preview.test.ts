/**
 * Issue 30, on both databases: promotional visuals (the spec's four visual types with fit,
 * coloring, label and button) in the comic APIs and the home hero, with every media URL
 * answering; and the chapter preview, a locked chapter's first pages through preview-scoped
 * signed URLs that open those pages and no other.
 */
import { describe, expect, it } from 'vitest';
import { readerPath } from '~/lib/paths';
import { createStaff, htmlText, message, selectedDialects, useServer, withDb, type Reader, type ServerClient } from './harness';

const day = 86_400;

/** The demo series with each visual type (db/seed/catalog.ts). */
const PROMOS = { VIDEO: 'level-zero-hunter', ANIMATION: 'the-last-cartographer', ANIMATED_IMAGE: 'stardust-courier', IMAGE: 'heir-of-the-frozen-throne' } as const;
/** Demo series with a chapter preview (preview_pages 3 and 2). */
const PREVIEW = 'the-last-cartographer';

async function e4pidOf(server: ServerClient, slug: string): Promise<string> {
  return withDb(server, async (db) => (await db.selectFrom('series').select('e4pid').where('slug', '=', slug).executeTakeFirstOrThrow()).e4pid);
}

/**
 * A released, paid chapter in `language` of a series picked by `which` that the reader page shows
 * locked to a stranger (the strategy may open some paid chapters: the page decides).
 */
async function lockedChapter(server: ServerClient, language: string, which: { slug: string } | { preview: 0 }) {
  const rows = await withDb(server, async (db) => {
    const t = Math.floor(Date.now() / 1000);
    let q = db.selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
      .select(['chapters.e4pid', 'chapters.number', 'chapters.language', 'series.slug', 'series.format', 'series.preview_pages'])
      .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', '']).where('series.adult', '=', 0).where('series.all_free', '=', 0)
      .where('chapters.language', '=', language).where('chapters.released_at', '<=', t - day).where('chapters.sale_at', '<=', t - day)
      .where('chapters.original_price', '>', 0).where('chapters.purchase_enabled', '=', 1).where('chapters.page_count', '>=', 8);
    q = 'slug' in which ? q.where('series.slug', '=', which.slug) : q.where('series.preview_pages', '=', 0);
    return q.orderBy('chapters.id').limit(40).execute();
  });
  const site = language === 'en' ? 'en' : 'br';
  for (const row of rows) {
    const path = readerPath({ slug: row.slug, format: row.format }, { e4pid: row.e4pid, number: Number(row.number), language: row.language });
    if ((await server.request(path, { site })).text.includes('data-state="locked"')) return { path, e4pid: row.e4pid, previewPages: Number(row.preview_pages) };
  }
  throw new Error(`no locked ${language} chapter found for ${JSON.stringify(which)}`);
}

/** The studio's series editor form (as tests/integration/studio-series.test.ts posts it), with `changes`. */
function seriesForm(name: string, changes: Record<string, string> = {}): URLSearchParams {
  const fields: Record<string, string> = {
    state: 'DRAFT', languages: 'en', slug: '', format: 'MANGA', update_status: 'WEEKLY', color: '#336699',
    'original.name': name, 'original.description': `The story of ${name}.`, 'original.excerpt': `The story of ${name}.`,
    'original.update_text': '', 'original.chapter_name_format': '', alt: '',
    publisher: '', geoblocks: '', new_tags: '', authors: '', artists: '',
    starting_count: '0', catchup_count: '0', fpf: '', daily_pass_ttl: '72', daily_pass_recharge: '23', total_ads: '0', ads_ttl: '48', ads_hint: '',
    ...changes,
  };
  return new URLSearchParams(fields);
}

function postForm(server: ServerClient, path: string, who: Reader, body: URLSearchParams) {
  return server.request(path, { method: 'POST', body: body.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/html', origin: server.origin('en'), 'sec-fetch-site': 'same-origin', cookie: who.cookie } });
}

const decode = (s: string) => s.replace(/&amp;/g, '&');
/** The src of every preview page image in a page, in order. */
const previewSrcs = (html: string, cls: string) => [...html.matchAll(new RegExp(`<img[^>]*class="${cls}"[^>]*>`, 'g'))].map((m) => decode(/ src="([^"]+)"/.exec(m[0])![1]!));

for (const dialect of selectedDialects()) {
  describe(`promotional visuals (${dialect})`, () => {
    const server = useServer(dialect);

    it('the comic APIs return each visual type in the spec shape, and every media URL answers with its type', async () => {
      for (const [type, slug] of Object.entries(PROMOS)) {
        const e4pid = await e4pidOf(server, slug);
        const sapi = await server.request(`/sapi/comics/${e4pid}/`);
        expect(sapi.status, slug).toBe(200);
        const [visual, ...more] = sapi.json().promotional_visuals;
        expect(more).toEqual([]);
        expect(visual, slug).toMatchObject({ visual_type: type, fit: expect.stringMatching(/^(COVER|CONTAIN|FILL|FIT_WIDTH|FIT_HEIGHT|NONE|SCALE_DOWN)$/), coloring: { background: expect.stringMatching(/^#[0-9a-f]{6}$/i), text: expect.stringMatching(/^#[0-9a-f]{6}$/i) } });
        expect(visual.width).toBeGreaterThan(0);
        expect(visual.height).toBeGreaterThan(0);
        expect(visual.button.link).toBe(`${server.origin('en')}/comics/${slug}/`);
        expect(typeof visual.label).toBe('string');
        // The v2 comic response carries the same.
        const v2 = (await server.request(`/api/comic.public/${e4pid}`)).json().comic;
        expect(v2.promotional_visuals).toEqual([visual]);
        const expected = type === 'ANIMATION' || type === 'VIDEO' ? /^video\/webm$/ : /^image\/(webp|gif)$/;
        const media = await server.request(new URL(visual.url).pathname);
        expect(media.status, visual.url).toBe(200);
        expect(media.headers['content-type'], visual.url).toMatch(expected);
        if (type === 'ANIMATION' || type === 'VIDEO') {
          expect(visual.poster, slug).toMatch(/\/media\/series\/.+\.webp$/);
          const poster = await server.request(new URL(visual.poster).pathname);
          expect([poster.status, poster.headers['content-type']]).toEqual([200, 'image/webp']);
          // Players ask for ranges (Safari plays nothing from a server that ignores them).
          const part = await server.request(new URL(visual.url).pathname, { headers: { range: 'bytes=0-99' } });
          expect([part.status, part.headers['content-range'], part.body.length]).toEqual([206, `bytes 0-99/${media.body.length}`, 100]);
          // No made-up sizes of a video.
          expect((await server.request(`${new URL(visual.url).pathname}?s=175x250`)).status).toBe(404);
        } else {
          expect(visual.poster).toBeNull();
        }
      }
    });

    it('labels and buttons are in the site language; a series without its own visual offers its showcase as an IMAGE', async () => {
      const video = await e4pidOf(server, PROMOS.VIDEO);
      const en = (await server.request(`/sapi/comics/${video}/`, { site: 'en' })).json().promotional_visuals[0];
      const br = (await server.request(`/sapi/comics/${video}/`, { site: 'br' })).json().promotional_visuals[0];
      expect([en.label, en.button.text]).toEqual(['Watch the level-down trailer', 'Start hunting']);
      expect([br.label, br.button.text]).toEqual(['Assista ao trailer do rebaixamento', 'Comece a caçada']);
      expect(br.url).toBe(en.url.replace(server.origin('en'), server.origin('br')));

      const plain = await e4pidOf(server, 'harbor-lights');
      const [image] = (await server.request(`/sapi/comics/${plain}/`)).json().promotional_visuals;
      expect(image).toMatchObject({ visual_type: 'IMAGE', fit: 'COVER', poster: null, label: null, button: { text: null } });
      expect(image.url).toMatch(/\/media\/series\/harbor-lights\/showcase\.webp$/);
      expect((await server.request(new URL(image.url).pathname)).status).toBe(200);
    });

    it('the home hero draws a video with a poster and no autoplay attribute, an animated image, labels, buttons and coloring, within its budgets', async () => {
      for (const site of ['en', 'br'] as const) {
        const home = await server.request('/', { site });
        expect(home.status).toBe(200);
        const html = home.text;
        const video = /<video[^>]*data-promo-video[^>]*>/.exec(html)?.[0];
        expect(video, `${site}: a promotional video in the hero`).toBeDefined();
        for (const attr of ['muted', 'loop', 'playsinline', 'preload="none"', 'poster="/media/series/', 'width="640"', 'height="360"', 'aria-label=']) expect(video, `${site}: ${attr}`).toContain(attr);
        expect(video).not.toMatch(/\sautoplay/);
        expect(html).toMatch(/<source src="\/media\/series\/level-zero-hunter\/promo-video\.webm" type="video\/webm"/);
        // The pause/play control the script reveals, named in the site's language.
        const locale = site === 'en' ? 'en' : 'pt-BR';
        expect(html).toContain(`aria-label="${message(locale, 'home.promo.play')}"`);
        expect(htmlText(html)).toContain(site === 'en' ? 'Watch the level-down trailer' : 'Assista ao trailer do rebaixamento');
        expect(htmlText(html)).toContain(site === 'en' ? 'Start hunting' : 'Comece a caçada');
        expect(html).toMatch(/--promo-bg:#0b1a3a;--promo-fg:#ffffff/);
        // The page's JSON lists the hero's visuals in the API's shape.
        const json = JSON.parse(/<script type="application\/json" id="home-data">([\s\S]*?)<\/script>/.exec(html)![1]!);
        expect(json.promotions.some((p: { visual_type: string; poster: string }) => p.visual_type === 'VIDEO' && p.poster.endsWith('/promo-poster.webp'))).toBe(true);
        // Budgets: the first document and its images.
        expect(home.body.length, `${site}: HTML bytes`).toBeLessThanOrEqual(60 * 1024);
        expect((html.match(/<img\s/g) ?? []).length, `${site}: images`).toBeLessThanOrEqual(40);
      }
      const en = (await server.request('/', { site: 'en' })).text;
      expect(en).toMatch(/<img class="hero-img" src="\/media\/series\/stardust-courier\/promo-anim\.webp" alt="" width="640" height="360" style="object-fit:contain"/);
    });
  });

  describe(`chapter preview (${dialect})`, () => {
    const server = useServer(dialect);

    it('a locked chapter of a preview series shows its first pages, then the offer; each preview URL answers', async () => {
      for (const [site, language] of [['en', 'en'], ['br', 'pt-br']] as const) {
        const { path, previewPages } = await lockedChapter(server, language, { slug: PREVIEW });
        expect(previewPages).toBe(3);
        const page = await server.request(path, { site });
        expect(page.status).toBe(200);
        const srcs = previewSrcs(page.text, 'reader-preview-page');
        expect(srcs.length, `${site}: preview pages`).toBe(3);
        srcs.forEach((src, i) => expect(src).toMatch(new RegExp(`^/media/p/EPI-[^/]+/${i}\\.webp\\?exp=\\d+&pv=1&sig=[0-9a-f]{32}$`)));
        // The teaser comes first, then the locked notice and the way to the paywall.
        expect(page.text.indexOf('class="reader-preview-page')).toBeLessThan(page.text.indexOf('id="reader-notice-title'));
        expect(page.text).toContain(`href="${path}paywall/"`);
        expect(htmlText(page.text)).toContain(message(site === 'en' ? 'en' : 'pt-BR', 'reader.preview.end'));
        for (const src of srcs) {
          const img = await server.request(src, { site });
          expect([img.status, img.headers['content-type']], src).toEqual([200, 'image/webp']);
        }
        // A narrower copy of a preview page is the same page.
        expect((await server.request(`${srcs[0]}&w=720`, { site })).status).toBe(200);
        // The paywall shows the same teaser before its ways in.
        const paywall = await server.request(`${path}paywall/`, { site });
        expect(previewSrcs(paywall.text, 'paywall-preview-page')).toEqual(srcs);
      }
    });

    it('a preview signature opens its own page only: not page N+1, not as a reading URL, not bound to a reader', async () => {
      const { path } = await lockedChapter(server, 'en', { slug: PREVIEW });
      const srcs = previewSrcs((await server.request(path)).text, 'reader-preview-page');
      const last = srcs[srcs.length - 1]!;
      // The next page with the last preview page's signature, and with the first's.
      const next = last.replace(/\/(\d+)\.webp\?/, (_, n) => `/${Number(n) + 1}.webp?`);
      expect((await server.request(next)).status, next).toBe(403);
      expect((await server.request(srcs[0]!.replace('/0.webp?', `/${srcs.length}.webp?`))).status).toBe(403);
      // The same signature out of its scope: a reading URL for anyone, or for a reader.
      expect((await server.request(srcs[0]!.replace('&pv=1', ''))).status).toBe(403);
      expect((await server.request(srcs[0]!.replace('&pv=1', '&pv=1&u=1'))).status).toBe(403);
      expect((await server.request(srcs[0]!.replace('&pv=1', '&pv=2'))).status).toBe(403);
      // A tampered signature or expiry.
      expect((await server.request(srcs[0]!.replace(/sig=([0-9a-f])/, (_, c) => `sig=${c === '0' ? '1' : '0'}`))).status).toBe(403);
      expect((await server.request(srcs[0]!.replace(/exp=(\d+)/, (_, e) => `exp=${Number(e) + 600}`))).status).toBe(403);
    });

    it('a series without a preview shows no pages of a locked chapter, on the reader and the paywall', async () => {
      const { path, previewPages } = await lockedChapter(server, 'en', { preview: 0 });
      expect(previewPages).toBe(0);
      const page = await server.request(path);
      expect(page.status).toBe(200);
      expect(page.text).toContain('reader-notice-title');
      expect(page.text).not.toContain('class="reader-preview');
      expect(page.text).not.toContain('pv=1');
      expect(page.text).not.toContain('/media/p/');
      const paywall = await server.request(`${path}paywall/`);
      expect(paywall.status).toBe(200);
      expect(paywall.text).not.toContain('/media/p/');
    });
  });

  describe(`chapter preview setting in the studio (${dialect})`, () => {
    const server = useServer(dialect);

    it('staff set a series\' preview pages, with its audit record; a value out of range is refused and nothing is made', async () => {
      const editor = await createStaff(server, 'content');
      const name = `Preview ${Date.now().toString(36)} Lighthouse`;
      const created = await postForm(server, '/studio/series/new/', editor, seriesForm(name, { preview_pages: '2' }));
      expect(created.status).toBe(303);
      const id = Number(/^\/studio\/series\/(\d+)\//.exec(created.headers.location ?? '')?.[1]);
      const row = await withDb(server, (db) => db.selectFrom('series').select(['preview_pages']).where('id', '=', id).executeTakeFirstOrThrow());
      expect(Number(row.preview_pages)).toBe(2);
      const audit = await withDb(server, (db) => db.selectFrom('audit_log').select(['action', 'after_json']).where('object_table', '=', 'series').where('object_id', '=', String(id)).execute());
      expect(audit).toHaveLength(1);
      expect(JSON.parse(audit[0]!.after_json!)).toMatchObject({ preview_pages: 2 });
      const editorPage = await server.request(created.headers.location!, { headers: { cookie: editor.cookie } });
      expect(editorPage.text).toMatch(/name="preview_pages"[^>]*value="2"/);

      const other = `Preview ${Date.now().toString(36)} Refused`;
      for (const bad of ['11', '-1', '2.5', 'many']) {
        const refused = await postForm(server, '/studio/series/new/', editor, seriesForm(other, { preview_pages: bad }));
        expect(refused.status, bad).toBe(422);
        expect(htmlText(refused.text)).toContain(message('en', 'studio.series.error.previewPages'));
      }
      const made = await withDb(server, (db) => db.selectFrom('series').select('id').where('name', '=', other).execute());
      expect(made).toEqual([]);
    });
  });
}
