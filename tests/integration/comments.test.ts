/**
 * Comments over real HTTP on both dialects (issue 31, docs/api.md "Comments"): posting and reading
 * back, replies, the answers a caller can get (401, 403, 404, 422, 429), likes that count once
 * however many arrive at once, edits within the window, deletes, and hostile text that must come
 * back as text.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { appCheckHeader, createReader, htmlText, selectedDialects, useServer, withDb, type Reader } from './harness';

const XSS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)><b>bold</b>',
  'javascript:alert(document.cookie)',
  'evil \u202Egnp.exe\u202C and \u2066isolated\u2069',
  'W'.repeat(500),
].join('\n');

for (const dialect of selectedDialects()) {
  describe(`comments (${dialect})`, () => {
    const server = useServer(dialect);
    let free: string;
    let locked: string;
    let a: Reader;
    let b: Reader;

    const base = (cookie?: string) => ({ origin: server.origin(), 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}) });
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    // The per-reader comment limits (one per 20 s, a few a day for new accounts) are forgotten
    // between posts that are not about them.
    const forget = (r: Reader) => withDb(server, (db) => db.deleteFrom('rate_limits').where((eb) => eb.or([eb('bucket', 'like', `comments:%:${r.id}`), eb('bucket', 'like', `route:%:reader:${r.id}`)])).execute());
    const post = async (e4pid: string, fields: Record<string, string>, r?: Reader, keepLimits = false) => {
      if (r && !keepLimits) await forget(r);
      return server.request(`/api/comments/${e4pid}/`, {
        method: 'POST', body: form(fields),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...base(r?.cookie), ...(r ? await appCheckHeader(server, r) : {}) },
      });
    };
    const list = (e4pid: string, r?: Reader, page = 1) => server.request(`/api/comments/${e4pid}/?page=${page}`, { headers: r ? { cookie: r.cookie } : {} });
    const item = (method: 'POST' | 'PATCH' | 'DELETE', path: string, r?: Reader, fields?: Record<string, string>) =>
      server.request(`/api/comments/item/${path}`, {
        method, ...(fields ? { body: form(fields) } : {}),
        headers: { ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...base(r?.cookie) },
      });

    beforeAll(async () => {
      // A free and a locked English chapter, as the reader's own manifest answers a visitor.
      const now = Math.floor(Date.now() / 1000);
      const rows = await withDb(server, (db) => db.selectFrom('chapters').select('e4pid').where('language', '=', 'en').where('released_at', '<=', now - 3600).orderBy('id').limit(80).execute());
      for (const { e4pid } of rows) {
        if (free && locked) break;
        const status = (await server.request(`/api/reader/${e4pid}/manifest/`)).status;
        if (status === 200 && !free) free = e4pid;
        if (status === 403 && !locked) locked = e4pid;
      }
      expect(free).toBeTruthy();
      expect(locked).toBeTruthy();
      a = await createReader(server, { name: 'Ana' });
      b = await createReader(server, { name: 'Bruno' });
    });

    it('posts a comment and a reply, and reads them back', async () => {
      const res = await post(free, { body: '  First!  ', spoiler: '1' }, a);
      expect(res.status).toBe(201);
      const c = res.json();
      expect(c).toMatchObject({ body: 'First!', spoiler: true, author: { name: 'Ana' }, likes: 0, mine: true, editable: true, edited: false, parent: null });
      const reply = await post(free, { body: 'Agreed', parent: String(c.id) }, b);
      expect(reply.status).toBe(201);
      expect(reply.json().parent).toBe(c.id);
      const got = await list(free, b);
      expect(got.status).toBe(200);
      expect(got.headers['cache-control']).toMatch(/no-store/);
      const shown = got.json().comments.find((x: { id: number }) => x.id === c.id);
      expect(shown).toMatchObject({ body: 'First!', mine: false, replies: [{ body: 'Agreed', author: { name: 'Bruno' }, mine: true }] });
      // A reply to a reply is refused: one level only.
      const deeper = await post(free, { body: 'Deeper', parent: String(reply.json().id) }, a);
      expect(deeper.status).toBe(422);
      expect(deeper.json().detail).toBeTruthy();
    });

    it('answers 401 signed out, 403 without the right to read, 404 for unknown chapters and comments', async () => {
      const anon = await post(free, { body: 'hello' });
      expect(anon.status).toBe(401);
      expect(anon.json().detail).toBeTruthy();
      // Reading is open to visitors, who are told they cannot comment.
      const read = await list(free);
      expect(read.status).toBe(200);
      expect(read.json().can_comment).toBe(false);
      const forbidden = await post(locked, { body: 'let me in' }, a);
      expect(forbidden.status).toBe(403);
      expect(forbidden.json().detail).toBeTruthy();
      expect((await list(locked, a)).json().can_comment).toBe(false);
      expect((await post('EPI-doesnotexist', { body: 'x' }, a)).status).toBe(404);
      expect((await list('EPI-doesnotexist')).status).toBe(404);
      expect((await item('POST', '999999999/like/', a)).status).toBe(404);
      expect((await item('POST', 'abc/like/', a)).status).toBe(404);
      expect((await item('DELETE', '999999999/', a)).status).toBe(404);
      expect((await item('POST', '1/like/')).status).toBe(401);
    });

    it('answers 422 with a localized detail for an empty or too long body', async () => {
      const empty = await post(free, { body: '   ' }, a);
      expect(empty.status).toBe(422);
      expect(empty.json().detail).toBe('Write something before posting.');
      const long = await post(free, { body: 'x'.repeat(2001) }, a);
      expect(long.status).toBe(422);
      expect(long.json().detail).toContain('2,000');
      const br = await server.request(`/api/comments/${free}/`, {
        site: 'br', method: 'POST', body: form({ body: '' }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('br'), 'sec-fetch-site': 'same-origin', cookie: a.cookie, ...(await appCheckHeader(server, a, 'br')) },
      });
      // The detail is in the site's language.
      expect(br.status).toBe(422);
      expect(br.json().detail).toBe('Escreva alguma coisa antes de publicar.');
    });

    it('answers 429 with Retry-After: a second comment within 20 s, repeated text, a new account past its day', async () => {
      const r = await createReader(server, { name: 'Quick' });
      expect((await post(free, { body: 'one' }, r)).status).toBe(201);
      const soon = await post(free, { body: 'two' }, r, true);
      expect(soon.status).toBe(429);
      expect(Number(soon.headers['retry-after'])).toBeGreaterThan(0);
      expect(soon.json().detail).toMatch(/second/);
      const forgetBurst = () => withDb(server, (db) => db.deleteFrom('rate_limits').where('bucket', '=', `comments:burst:${r.id}`).execute());
      await forgetBurst();
      const again = await post(free, { body: 'ONE ' }, r, true);
      expect(again.status).toBe(429);
      expect(again.json().detail).toBe('You already posted this comment.');
      // Five a day for an account less than a day old (the burst limit forgotten, the daily one kept).
      for (let i = 0; i < 4; i++) {
        await forgetBurst();
        expect((await post(free, { body: `more ${i}` }, r, true)).status).toBe(201);
      }
      await forgetBurst();
      const sixth = await post(free, { body: 'sixth' }, r, true);
      expect(sixth.status).toBe(429);
      expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(3600);
    });

    it('counts 50 simultaneous likes by one reader once, and unlikes idempotently', async () => {
      const c = (await post(free, { body: 'Like me' }, a)).json();
      const answers = await Promise.all(Array.from({ length: 50 }, () => item('POST', `${c.id}/like/`, b)));
      expect(answers.map((x) => x.status)).toEqual(Array(50).fill(200));
      const stored = await withDb(server, (db) => db.selectFrom('comments').select('like_count').where('id', '=', c.id).executeTakeFirstOrThrow());
      expect(Number(stored.like_count)).toBe(1);
      const likes = await withDb(server, (db) => db.selectFrom('comment_likes').select('user_id').where('comment_id', '=', c.id).execute());
      expect(likes).toHaveLength(1);
      const mine = (await list(free, b)).json();
      const shown = [...mine.best, ...mine.comments].find((x: { id: number }) => x.id === c.id);
      expect(shown).toMatchObject({ likes: 1, liked: true });
      // The most liked comment leads as one of the best.
      expect(mine.best.map((x: { id: number }) => x.id)).toContain(c.id);
      expect((await item('DELETE', `${c.id}/like/`, b)).json()).toEqual({ liked: false, likes: 0 });
      expect((await item('DELETE', `${c.id}/like/`, b)).json()).toEqual({ liked: false, likes: 0 });
    });

    it('lets the author edit within 10 minutes only, and delete; a deleted comment with replies stays as "deleted"', async () => {
      const c = (await post(free, { body: 'Tpyo' }, a)).json();
      expect((await item('PATCH', `${c.id}/`, b, { body: 'not yours' })).status).toBe(404);
      const edited = await item('PATCH', `${c.id}/`, a, { body: 'Typo' });
      expect(edited.status).toBe(200);
      expect(edited.json()).toMatchObject({ body: 'Typo', edited: true });
      await withDb(server, (db) => db.updateTable('comments').set({ created_at: Math.floor(Date.now() / 1000) - 11 * 60 }).where('id', '=', c.id).execute());
      const late = await item('PATCH', `${c.id}/`, a, { body: 'Too late' });
      expect(late.status).toBe(403);
      expect(late.json().detail).toMatch(/10 minutes/);
      expect((await post(free, { body: 'A reply', parent: String(c.id) }, b)).status).toBe(201);
      expect((await item('DELETE', `${c.id}/`, b)).status).toBe(404);
      expect((await item('DELETE', `${c.id}/`, a)).status).toBe(200);
      const after = (await list(free)).json().comments.find((x: { id: number }) => x.id === c.id);
      expect(after).toMatchObject({ deleted: true, body: '', replies: [{ body: 'A reply' }] });
      // Nothing of its author stays: no name, no badge, in the API or on the page.
      expect(after.author).toBeNull();
      expect([after.staff, after.creator, after.segments]).toEqual([false, false, []]);
      const html = (await server.request(`/comments/${free}/`)).text;
      const article = html.slice(html.indexOf(`id="c-${c.id}"`));
      const head = article.slice(0, article.indexOf('c-replies'));
      expect(head).toContain('class="c-deleted');
      expect(head).not.toContain('Ana');
      const solo = (await post(free, { body: 'Gone soon' }, a)).json();
      expect((await item('DELETE', `${solo.id}/`, a)).status).toBe(200);
      expect((await list(free)).json().comments.some((x: { id: number }) => x.id === solo.id)).toBe(false);
    });

    it('gives hostile text back as the text it is', async () => {
      const res = await post(free, { body: XSS }, a);
      expect(res.status).toBe(201);
      const c = res.json();
      expect(c.body).toBe(XSS);
      // No segment is a link: javascript: is text, and there is no URL.
      expect(c.segments.every((s: { kind: string }) => s.kind === 'text')).toBe(true);
      const linked = (await post(free, { body: 'see https://example.com/x' }, a)).json();
      expect(linked.segments).toContainEqual({ kind: 'link', text: 'https://example.com/x', href: 'https://example.com/x', spoiler: false });
    });

    it('the comments page escapes hostile text, posts without JavaScript and says why a visitor cannot comment', async () => {
      await forget(a);
      const posted = await server.request(`/comments/${free}/`, {
        method: 'POST', body: form({ body: `${XSS}\n||hidden twist|| https://example.com/x` }),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...base(a.cookie) },
      });
      expect(posted.status).toBe(303);
      const id = /#c-(\d+)$/.exec(posted.headers.location ?? '')?.[1];
      expect(posted.headers.location).toMatch(new RegExp(`^/comments/${free}/#c-\\d+$`));
      const page = await server.request(`/comments/${free}/`, { headers: { cookie: a.cookie } });
      expect(page.status).toBe(200);
      const article = page.text.slice(page.text.indexOf(`id="c-${id}"`));
      const own = article.slice(0, article.indexOf('</article>'));
      expect(own).not.toMatch(/<script|<img|<b>|href="javascript/i);
      expect(own).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(own).toContain('\u202Egnp.exe');
      expect(own).toContain('dir="auto"');
      expect(own).toMatch(/<details class="c-spoiler"><summary>Show spoiler<\/summary>hidden twist<\/details>/);
      expect(own).toContain('<a href="https://example.com/x" rel="nofollow ugc noopener" target="_blank">');
      expect(page.text).toContain('id="comment-form"');
      // An invalid body comes back to the page with the reason, the status a caller can read.
      await forget(a);
      const empty = await server.request(`/comments/${free}/`, { method: 'POST', body: form({ body: ' ' }), headers: { 'content-type': 'application/x-www-form-urlencoded', ...base(a.cookie) } });
      expect(empty.status).toBe(422);
      expect(htmlText(empty.text)).toContain('Write something before posting.');
      // Without access: the reason and the way to read the chapter; signed out: log in.
      const lockedPage = await server.request(`/comments/${locked}/`, { headers: { cookie: a.cookie } });
      expect(lockedPage.status).toBe(200);
      expect(lockedPage.text).not.toContain('id="comment-form"');
      expect(htmlText(lockedPage.text)).toContain('Why you cannot comment');
      expect(htmlText(lockedPage.text)).toContain('Read the chapter');
      const anonPage = await server.request(`/comments/${free}/`, { site: 'br' });
      expect(htmlText(anonPage.text)).toContain('Entre para comentar os capítulos que você pode ler.');
      expect((await server.request('/comments/EPI-doesnotexist/')).status).toBe(404);
      // The reader links to it after the end card: a link, no comments in the reader's own page.
      const readerPath = await withDb(server, async (db) => {
        const { readerPath: pathOf } = await import('~/lib/paths');
        const row = await db.selectFrom('chapters as c').innerJoin('series as s', 's.id', 'c.series_id').select(['s.slug', 's.format', 'c.e4pid', 'c.number', 'c.language']).where('c.e4pid', '=', free).executeTakeFirstOrThrow();
        return pathOf({ slug: row.slug, format: row.format }, { e4pid: row.e4pid, number: Number(row.number), language: row.language });
      });
      const reader = await server.request(readerPath, { headers: { cookie: a.cookie } });
      expect(reader.status).toBe(200);
      expect(reader.text).toContain(`href="/comments/${free}/"`);
      expect(reader.text).not.toContain('hidden twist');
    });
  });
}
