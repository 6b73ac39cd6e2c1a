/**
 * The comments page without JavaScript, over real HTTP on both dialects (issue 31): every action
 * is a form that posts and comes back to the same place (303 to the page with the comment's
 * anchor): write, reply (collapsed after three, opened by a link), like and unlike, edit within
 * the window (the form only while editable), delete (leaving "deleted" while it has replies);
 * refusals come back as a localized message on the page; hostile text is shown as text and wraps.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createReader, htmlText, listOnPortugueseSite, selectedDialects, useServer, withDb, type Reader } from './harness';

const LONG_WORD = 'W'.repeat(2000);
const XSS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)><b>bold</b>',
  '[click](javascript:alert(1)) javascript:alert(document.cookie)',
  'evil \u202Egnp.exe\u202C',
].join('\n');

for (const dialect of selectedDialects()) {
  describe(`comments page without JavaScript (${dialect})`, () => {
    const server = useServer(dialect);
    let free: string;
    let quiet: string;
    let a: Reader;
    let b: Reader;

    const forget = (r: Reader) => withDb(server, (db) => db.deleteFrom('rate_limits').where((eb) => eb.or([eb('bucket', 'like', `comments:%:${r.id}`), eb('bucket', 'like', `route:%:reader:${r.id}`)])).execute());
    const send = async (r: Reader, fields: Record<string, string>, path = `/comments/${free}/`, site: 'en' | 'br' = 'en') => {
      await forget(r);
      return server.request(path, {
        site, method: 'POST', body: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(site), 'sec-fetch-site': 'same-origin', cookie: r.cookie },
      });
    };
    const page = (r: Reader | null, path = `/comments/${free}/`) => server.request(path, { headers: r ? { cookie: r.cookie } : {} });
    const idFrom = (location: string | undefined) => Number(/#c-(\d+)$/.exec(location ?? '')?.[1]);
    /** The comment's own article (up to its replies, forms included). */
    const articleOf = (html: string, id: number) => {
      const from = html.indexOf(`<article class="c-item" id="c-${id}"`);
      if (from < 0) return '';
      const rest = html.slice(from);
      const replies = rest.indexOf('<section class="c-replies"');
      const end = rest.indexOf('</article>');
      return rest.slice(0, replies >= 0 && replies < end ? replies : end);
    };

    beforeAll(async () => {
      const now = Math.floor(Date.now() / 1000);
      // Chapters no other file has commented on (files run in any order).
      const rows = await withDb(server, (db) => db.selectFrom('chapters').select('e4pid').where('language', '=', 'en').where('released_at', '<=', now - 3600)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('comments').select('comments.id').whereRef('comments.chapter_id', '=', 'chapters.id'))))
        .orderBy('id', 'desc').limit(80).execute());
      for (const { e4pid } of rows) {
        if (free && quiet) break;
        if ((await server.request(`/api/reader/${e4pid}/manifest/`)).status !== 200) continue;
        if (!free) free = e4pid;
        else quiet = e4pid;
      }
      expect(free).toBeTruthy();
      expect(quiet).toBeTruthy();
      a = await createReader(server, { name: 'Alice' });
      b = await createReader(server, { name: 'Bob' });
    });

    it('shows one "no comments" message on an empty chapter', async () => {
      const res = await page(null, `/comments/${quiet}/`);
      expect(res.status).toBe(200);
      const text = htmlText(res.text);
      expect(text).toContain('No comments yet. Be the first.');
      expect(text).not.toMatch(/\b0 comments\b/);
    });

    it('posts, replies, opens collapsed replies with a link, and comes back to the comment each time', async () => {
      const posted = await send(a, { intent: 'post', body: 'Loved the ending', spoiler: '1' });
      expect(posted.status).toBe(303);
      expect(posted.headers.location).toMatch(new RegExp(`^/comments/${free}/#c-\\d+$`));
      const id = idFrom(posted.headers.location);
      const replyIds: number[] = [];
      for (let i = 0; i < 5; i++) {
        const reply = await send(b, { intent: 'post', parent: String(id), body: `Reply number ${i}` });
        expect(reply.status).toBe(303);
        expect(reply.headers.location).toMatch(new RegExp(`^/comments/${free}/\\?replies=${id}#c-\\d+$`));
        replyIds.push(idFrom(reply.headers.location));
      }
      const html = (await page(a)).text;
      const own = articleOf(html, id);
      expect(htmlText(own)).toContain('Alice');
      expect(own).toContain('<details class="c-spoiler c-whole"><summary>This comment contains spoilers. Show it</summary>');
      // Three replies shown, the other two behind a link that works without JavaScript.
      expect(html).toContain(`id="c-${replyIds[2]}"`);
      expect(html).not.toContain(`id="c-${replyIds[3]}"`);
      const more = new RegExp(`<a class="c-more" href="/comments/${free}/\\?replies=${id}#c-${id}">Show 2 more replies</a>`);
      expect(html).toMatch(more);
      const opened = (await page(a, `/comments/${free}/?replies=${id}`)).text;
      expect(opened).toContain(`id="c-${replyIds[4]}"`);
      expect(opened).not.toMatch(more);
      // A reply to a reply is refused on the page, in words, with the status a caller can read.
      const deeper = await send(a, { intent: 'post', parent: String(replyIds[0]), body: 'Deeper' });
      expect(deeper.status).toBe(422);
      expect(htmlText(deeper.text)).toContain('That comment cannot take a reply.');
    });

    it('likes once however often the form is sent, and unlikes', async () => {
      const id = idFrom((await send(a, { body: 'Like this one' })).headers.location);
      await forget(b);
      const likes = await Promise.all(Array.from({ length: 10 }, () => server.request(`/comments/${free}/?page=1`, {
        method: 'POST', body: new URLSearchParams({ intent: 'like', id: String(id) }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), 'sec-fetch-site': 'same-origin', cookie: b.cookie },
      })));
      expect(likes.map((r) => r.status)).toEqual(Array(10).fill(303));
      expect(likes[0]!.headers.location).toBe(`/comments/${free}/#c-${id}`);
      const again = await send(b, { intent: 'like', id: String(id) });
      expect(again.status).toBe(303);
      const liked = articleOf((await page(b)).text, id);
      expect(liked).toContain('aria-pressed="true"');
      expect(htmlText(liked)).toContain('1 like');
      expect(liked).toContain('name="intent" value="unlike"');
      expect((await send(b, { intent: 'unlike', id: String(id) })).status).toBe(303);
      expect((await send(b, { intent: 'unlike', id: String(id) })).status).toBe(303);
      const after = articleOf((await page(b)).text, id);
      expect(htmlText(after)).toContain('0 likes');
      expect(after).toContain('aria-pressed="false"');
      // An unknown comment: a message on the page, not an error page.
      const unknown = await send(b, { intent: 'like', id: '999999999' });
      expect(unknown.status).toBe(404);
      expect(htmlText(unknown.text)).toContain('Your comment');
    });

    it('edits within 10 minutes only, the form shown only while editable', async () => {
      const id = idFrom((await send(a, { body: 'Tpyo here' })).headers.location);
      expect(articleOf((await page(a)).text, id)).toContain('name="intent" value="edit"');
      // Another reader sees no edit form and cannot edit it.
      expect(articleOf((await page(b)).text, id)).not.toContain('name="intent" value="edit"');
      expect((await send(b, { intent: 'edit', id: String(id), body: 'Hijacked' })).status).toBe(404);
      const edited = await send(a, { intent: 'edit', id: String(id), body: 'Typo here' });
      expect(edited.status).toBe(303);
      expect(edited.headers.location).toBe(`/comments/${free}/#c-${id}`);
      const shown = htmlText(articleOf((await page(b)).text, id));
      expect(shown).toContain('Typo here');
      expect(shown).toContain('edited');
      // Eleven minutes later (the clock moved back on the row): no form, and the form's post is refused in words.
      await withDb(server, (db) => db.updateTable('comments').set({ created_at: Math.floor(Date.now() / 1000) - 11 * 60 }).where('id', '=', id).execute());
      expect(articleOf((await page(a)).text, id)).not.toContain('name="intent" value="edit"');
      const late = await send(a, { intent: 'edit', id: String(id), body: 'Too late' });
      expect(late.status).toBe(403);
      expect(htmlText(late.text)).toContain('A comment can be edited for 10 minutes after it is posted.');
      expect(htmlText(articleOf((await page(a)).text, id))).toContain('Typo here');
    });

    it('deletes one\'s own comment: "deleted" stays while it has replies, otherwise it goes', async () => {
      const id = idFrom((await send(a, { body: 'Regret this' })).headers.location);
      expect((await send(b, { intent: 'post', parent: String(id), body: 'Too late, I saw it' })).status).toBe(303);
      expect(articleOf((await page(b)).text, id)).not.toContain('name="intent" value="delete"');
      expect((await send(b, { intent: 'delete', id: String(id) })).status).toBe(404);
      const gone = await send(a, { intent: 'delete', id: String(id) });
      expect(gone.status).toBe(303);
      expect(gone.headers.location).toBe(`/comments/${free}/#comments`);
      const html = (await page(b)).text;
      const left = htmlText(articleOf(html, id));
      expect(left).toContain('Comment deleted.');
      expect(left).not.toContain('Regret this');
      expect(left).not.toContain('Alice');
      expect(htmlText(html)).toContain('Too late, I saw it');
      const solo = idFrom((await send(a, { body: 'Nobody saw this' })).headers.location);
      expect((await send(a, { intent: 'delete', id: String(solo) })).status).toBe(303);
      expect((await page(a)).text).not.toContain(`id="c-${solo}"`);
    });

    it('shows hostile text as text that wraps: scripts, HTML, javascript: links, bidi overrides, a 2,000-character word', async () => {
      const id = idFrom((await send(a, { body: `${XSS}\n||a hidden twist||` })).headers.location);
      const word = idFrom((await send(a, { body: LONG_WORD })).headers.location);
      const html = (await page(b)).text;
      const own = articleOf(html, id);
      expect(own).not.toMatch(/<script|<img|<b>|href="javascript/i);
      expect(own).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(own).toContain('&lt;img src=x onerror=alert(1)&gt;&lt;b&gt;bold&lt;/b&gt;');
      expect(own).toContain('\u202Egnp.exe');
      expect(own).toMatch(/<div class="c-body" dir="auto"/);
      expect(own).toContain('<details class="c-spoiler"><summary>Show spoiler</summary>a hidden twist</details>');
      expect(articleOf(html, word)).toContain(LONG_WORD);
      // The text wraps: the page's CSS breaks long words and isolates bidi text.
      const css = await pageCss(html);
      expect(css).toMatch(/\.c-body[^{]*\{[^}]*overflow-wrap:\s*anywhere/);
      expect(css).toMatch(/\.c-body[^{]*\{[^}]*unicode-bidi:\s*isolate/);
    });

    it('counts comments on the series page\'s chapter rows and shows its latest comments, linking to the chapter\'s comments', async () => {
      const slug = await withDb(server, async (db) => (await db.selectFrom('chapters as c').innerJoin('series as s', 's.id', 'c.series_id').select('s.slug').where('c.e4pid', '=', free).executeTakeFirstOrThrow()).slug);
      const count = await withDb(server, async (db) => Number((await db.selectFrom('comments as c').innerJoin('chapters as ch', 'ch.id', 'c.chapter_id').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('ch.e4pid', '=', free).where('c.site_id', '=', 1).where('c.parent_id', 'is', null).where('c.state', '=', 'VISIBLE')
        .where((eb) => eb.or([eb('c.deleted_at', 'is', null), eb('c.reply_count', '>', 0)])).executeTakeFirstOrThrow()).n));
      expect(count).toBeGreaterThan(1);
      const latest = idFrom((await send(b, { body: 'Newest words on this series' })).headers.location);
      const res = await server.request(`/comics/${slug}/`);
      expect(res.status).toBe(200);
      expect(res.text).toContain(`<a class="chapter-comments" href="/comments/${free}/">${count + 1} comments</a>`);
      const section = res.text.slice(res.text.indexOf('id="series-comments-heading"'));
      expect(htmlText(section.slice(0, section.indexOf('</section>')))).toContain('Newest words on this series');
      expect(section).toContain(`href="/comments/${free}/#c-${latest}"`);
      expect((section.match(/class="sc-item"/g) ?? []).length).toBe(5);
      // The Portuguese site has its own threads: none of these.
      await listOnPortugueseSite(server, slug);
      const br = await server.request(`/comics/${slug}/`, { site: 'br' });
      expect(br.text).not.toContain(`href="/comments/${free}/">`);
      expect(br.text).not.toContain('Newest words on this series');
    });

    it('the reader loads its comments block as a fragment, none of it in the reader\'s own page', async () => {
      const id = idFrom((await send(a, { body: 'Fragment <b>words</b> ||twist||' })).headers.location);
      const readerPath = await withDb(server, async (db) => {
        const { readerPath: pathOf } = await import('~/lib/paths');
        const row = await db.selectFrom('chapters as c').innerJoin('series as s', 's.id', 'c.series_id').select(['s.slug', 's.format', 'c.e4pid', 'c.number', 'c.language']).where('c.e4pid', '=', free).executeTakeFirstOrThrow();
        return pathOf({ slug: row.slug, format: row.format }, { e4pid: row.e4pid, number: Number(row.number), language: row.language });
      });
      const reader = await server.request(readerPath, { headers: { cookie: a.cookie } });
      expect(reader.status).toBe(200);
      expect(reader.text).toContain(`data-comments-src="/comments/${free}/fragment/"`);
      expect(reader.text).toContain(`href="/comments/${free}/"`);
      expect(reader.text).not.toContain('Fragment');
      const fragment = await server.request(`/comments/${free}/fragment/`, { headers: { cookie: b.cookie } });
      expect(fragment.status).toBe(200);
      expect(fragment.headers['cache-control']).toMatch(/private/);
      expect(fragment.text).not.toMatch(/<html|<body/);
      expect(fragment.text).toContain(`id="c-${id}"`);
      expect(fragment.text).toContain('Fragment &lt;b&gt;words&lt;/b&gt;');
      expect(fragment.text).toContain('<details class="c-spoiler"><summary>Show spoiler</summary>twist</details>');
      expect(fragment.text).toContain(`href="/comments/${free}/"`);
      // Read-only: writing, liking and answering happen on the comments page.
      expect(fragment.text).not.toContain('<form');
      const br = await server.request(`/comments/${quiet}/fragment/`, { site: 'br' });
      expect([200, 404]).toContain(br.status);
      expect((await server.request('/comments/EPI-doesnotexist/fragment/')).status).toBe(404);
      const empty = await server.request(`/comments/${quiet}/fragment/`);
      expect(htmlText(empty.text)).toContain('No comments yet. Be the first.');
    });

    /** The page's styles: inline <style> and its same-site stylesheets. */
    async function pageCss(html: string): Promise<string> {
      let css = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
      for (const m of html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)) css += (await server.request(m[1]!)).text;
      for (const m of html.matchAll(/<link[^>]+href="([^"]+\.css)"[^>]*rel="stylesheet"/g)) css += (await server.request(m[1]!)).text;
      return css;
    }
  });
}
