/**
 * Comment moderation over real HTTP on both dialects (issue 31, docs/staff.md "Moderation",
 * docs/api.md "Comments"): reports hold at 3 and remove at 10, once per reader; a held comment
 * reaches only its author; a muted author never reaches the muter; a blocked word holds a
 * comment for review; a ban refuses writing with its reason (403); the studio's actions need
 * the moderation capability and write the audit trail; one pinned comment per chapter, first.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { appCheckHeader, createReader, createStaff, htmlText, message, selectedDialects, useServer, withDb, type Reader } from './harness';

for (const dialect of selectedDialects()) {
  describe(`comment moderation (${dialect})`, () => {
    const server = useServer(dialect);
    let chapter: string;
    let author: Reader;
    let other: Reader;
    let moderator: Reader;
    const reporters: Reader[] = [];

    const base = (cookie?: string) => ({ origin: server.origin(), 'sec-fetch-site': 'same-origin', ...(cookie ? { cookie } : {}) });
    const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
    const forget = (r: Reader) => withDb(server, (db) => db.deleteFrom('rate_limits').where((eb) => eb.or([eb('bucket', 'like', `comments:%:${r.id}`), eb('bucket', 'like', `route:%:reader:${r.id}`)])).execute());
    const post = async (r: Reader, fields: Record<string, string>) => {
      await forget(r);
      return server.request(`/api/comments/${chapter}/`, {
        method: 'POST', body: form(fields),
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...base(r.cookie), ...(await appCheckHeader(server, r)) },
      });
    };
    const list = (r?: Reader) => server.request(`/api/comments/${chapter}/`, { headers: r ? { cookie: r.cookie } : {} });
    type C = { id: number; replies: C[]; held: boolean; pinned: boolean; body: string };
    const idsIn = (json: { pinned: C | null; best: C[]; comments: C[] }) => [json.pinned, ...json.best, ...json.comments].filter((c): c is C => c !== null).flatMap((c) => [c.id, ...c.replies.map((r) => r.id)]);
    const call = (method: 'POST' | 'DELETE' | 'PATCH', path: string, r?: Reader, fields?: Record<string, string>) =>
      server.request(path, {
        method, ...(fields ? { body: form(fields) } : {}),
        headers: { ...(fields ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...base(r?.cookie) },
      });
    const report = (id: number, r: Reader, reason = 'spam') => call('POST', `/api/comments/item/${id}/report/`, r, { reason });
    const studio = (path: string, r: Reader, fields: Record<string, string>) => call('POST', path, r, fields);
    const audits = (action: string, objectId: number) =>
      withDb(server, (db) => db.selectFrom('audit_log').selectAll().where('action', '=', action).where('object_id', '=', String(objectId)).execute());

    beforeAll(async () => {
      // A free English chapter (the reader's manifest answers a visitor), not the one comments.test.ts uses first.
      const now = Math.floor(Date.now() / 1000);
      const rows = await withDb(server, (db) => db.selectFrom('chapters').select('e4pid').where('language', '=', 'en').where('released_at', '<=', now - 3600).orderBy('id', 'desc').limit(80).execute());
      for (const { e4pid } of rows) {
        if ((await server.request(`/api/reader/${e4pid}/manifest/`)).status === 200) {
          chapter = e4pid;
          break;
        }
      }
      expect(chapter).toBeTruthy();
      author = await createReader(server, { name: 'Author' });
      other = await createReader(server, { name: 'Other' });
      moderator = await createStaff(server, 'moderation');
      for (let i = 0; i < 10; i++) reporters.push(await createReader(server, { name: `Reporter ${i}` }));
    });

    it('3 reports hold a comment (only its author sees it), 10 remove it; a reader reports once', async () => {
      const c = (await post(author, { body: 'A comment some find annoying' })).json() as C;
      // The reporter cannot report twice: the second answers the same and counts nothing.
      expect((await report(c.id, reporters[0]!)).status).toBe(200);
      expect((await report(c.id, reporters[0]!, 'other')).json()).toEqual({ reported: true });
      expect((await report(c.id, reporters[1]!)).status).toBe(200);
      expect(idsIn((await list(other)).json())).toContain(c.id);
      // A reason off the list, one's own comment, an unknown comment.
      expect((await report(c.id, reporters[2]!, 'boring')).status).toBe(422);
      expect((await report(c.id, author)).status).toBe(422);
      expect((await report(999_999_999, reporters[2]!)).status).toBe(404);
      expect((await call('POST', `/api/comments/item/${c.id}/report/`, undefined, { reason: 'spam' })).status).toBe(401);

      expect((await report(c.id, reporters[2]!, 'harassment')).status).toBe(200);
      // Held: gone for everyone else (API, page, signed out), still there for its author, marked.
      expect(idsIn((await list(other)).json())).not.toContain(c.id);
      expect(idsIn((await list()).json())).not.toContain(c.id);
      expect((await server.request(`/comments/${chapter}/`, { headers: { cookie: other.cookie } })).text).not.toContain(`id="c-${c.id}"`);
      const mine = (await list(author)).json();
      expect(idsIn(mine)).toContain(c.id);
      expect(mine.comments.find((x: C) => x.id === c.id).held).toBe(true);
      expect(htmlText((await server.request(`/comments/${chapter}/`, { headers: { cookie: author.cookie } })).text)).toContain(message('en', 'moderation.held'));
      // Others cannot like it either (it does not exist for them).
      expect((await call('POST', `/api/comments/item/${c.id}/like/`, other)).status).toBe(404);

      // Readers who had it open can still report it: at 10 it is removed, from its author too.
      for (const r of reporters.slice(3, 9)) expect((await report(c.id, r)).status).toBe(200);
      expect(idsIn((await list(author)).json())).toContain(c.id);
      expect((await report(c.id, reporters[9]!)).status).toBe(200);
      expect(idsIn((await list(author)).json())).not.toContain(c.id);
      const row = await withDb(server, (db) => db.selectFrom('comments').select(['state', 'report_count', 'state_reason']).where('id', '=', c.id).executeTakeFirstOrThrow());
      expect(row).toMatchObject({ state: 'REMOVED', state_reason: 'reports_limit' });
      expect(Number(row.report_count)).toBe(10);
    });

    it('reports arriving at once count once per reader, and exactly: the tenth removes the comment', async () => {
      const c = (await post(author, { body: 'Reported by a crowd at once' })).json() as C;
      const answers = await Promise.all([...reporters.slice(0, 9).map((r) => report(c.id, r)), ...Array.from({ length: 5 }, () => report(c.id, reporters[0]!, 'other'))]);
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
      const state = () => withDb(server, (db) => db.selectFrom('comments').select(['state', 'report_count']).where('id', '=', c.id).executeTakeFirstOrThrow());
      expect(await state()).toMatchObject({ state: 'HELD' });
      expect(Number((await state()).report_count)).toBe(9);
      expect((await report(c.id, reporters[9]!)).status).toBe(200);
      expect(await state()).toMatchObject({ state: 'REMOVED' });
      expect(Number((await state()).report_count)).toBe(10);
      // Removed: a further report finds nothing.
      expect((await report(c.id, reporters[0]!)).status).toBe(404);
      expect(await withDb(server, (db) => db.selectFrom('comment_reports').select('user_id').where('comment_id', '=', c.id).execute())).toHaveLength(10);
    });

    it('a moderator restores a held comment from the queue, with its audit record; reports start again', async () => {
      const c = (await post(author, { body: 'Held then restored' })).json() as C;
      for (const r of reporters.slice(0, 3)) await report(c.id, r, 'spoiler');
      expect(idsIn((await list(other)).json())).not.toContain(c.id);
      const queue = await server.request('/studio/moderation/', { headers: { cookie: moderator.cookie } });
      expect(queue.status).toBe(200);
      const item = queue.text.slice(queue.text.indexOf(`data-id="${c.id}"`));
      expect(htmlText(item.slice(0, item.indexOf('</li>\n')))).toContain('Held then restored');
      expect(htmlText(queue.text)).toContain(`${message('en', 'moderation.reason.spoiler')}: 3`);

      const restored = await studio('/studio/moderation/', moderator, { comment: String(c.id), action: 'restore' });
      expect(restored.status).toBe(303);
      expect(idsIn((await list(other)).json())).toContain(c.id);
      const rows = await audits('comment.restore', c.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ actor_id: moderator.id, capability: 'moderation', object_table: 'comments' });
      expect(JSON.parse(rows[0]!.before_json!)).toMatchObject({ state: 'HELD', reports: 3 });
      // Its reports were reviewed: the same readers cannot hold it again; three new ones can.
      for (const r of reporters.slice(0, 3)) await report(c.id, r);
      expect(idsIn((await list(other)).json())).toContain(c.id);
      // Remove: gone for its author too, with its own record.
      expect((await studio('/studio/moderation/', moderator, { comment: String(c.id), action: 'remove' })).status).toBe(303);
      expect(idsIn((await list(author)).json())).not.toContain(c.id);
      expect(await audits('comment.remove', c.id)).toHaveLength(1);
    });

    it('staff without the moderation capability and readers get 403; nothing changes, nothing is recorded', async () => {
      const c = (await post(author, { body: 'Not theirs to remove' })).json() as C;
      const content = await createStaff(server, 'content');
      for (const who of [content, other]) {
        for (const [path, fields] of [
          ['/studio/moderation/', { comment: String(c.id), action: 'remove' }],
          ['/studio/moderation/bans/', { user: String(author.id), length: 'forever', reason: 'no' }],
          ['/studio/moderation/words/', { word: 'anything' }],
        ] as const) {
          const res = await studio(path, who, fields);
          expect(res.status).toBe(403);
          expect(res.text).toBe(message('en', 'staff.error.forbidden'));
        }
        expect((await server.request('/studio/moderation/', { headers: { cookie: who.cookie } })).status).toBe(403);
      }
      expect(idsIn((await list(other)).json())).toContain(c.id);
      expect(await audits('comment.remove', c.id)).toHaveLength(0);
      expect(await audits('comment_ban.create', author.id)).toHaveLength(0);
    });

    it('a blocked word holds a comment for review (not dropped); its author still sees it', async () => {
      const added = await studio('/studio/moderation/words/', moderator, { word: '  Zorblax  Fnord!' });
      expect(added.status).toBe(303);
      const word = await withDb(server, (db) => db.selectFrom('blocked_words').select(['id', 'word']).where('site_id', '=', 1).where('word', '=', 'zorblax fnord').executeTakeFirstOrThrow());
      expect(await audits('blocked_word.add', Number(word.id))).toHaveLength(1);
      try {
        const res = await post(author, { body: 'You ZORBLAX fnord, really.' });
        expect(res.status).toBe(201);
        const c = res.json() as C;
        expect(c.held).toBe(true);
        expect(idsIn((await list(author)).json())).toContain(c.id);
        expect(idsIn((await list(other)).json())).not.toContain(c.id);
        const queue = await server.request(`/studio/moderation/?comment=${c.id}`, { headers: { cookie: moderator.cookie } });
        expect(htmlText(queue.text)).toContain(message('en', 'studio.moderation.why.words'));
        // Whole words only: a longer word that contains it passes.
        const fine = (await post(author, { body: 'zorblaxes fnordish' })).json() as C;
        expect(fine.held).toBe(false);
        expect(idsIn((await list(other)).json())).toContain(fine.id);
      } finally {
        expect((await studio('/studio/moderation/words/', moderator, { remove: String(word.id) })).status).toBe(303);
        expect(await audits('blocked_word.remove', Number(word.id))).toHaveLength(1);
      }
    });

    it('no comment of a muted author reaches the muter, in the API or on the page; unmuting brings them back', async () => {
      const c = (await post(author, { body: 'Muted soon' })).json() as C;
      const reply = (await post(other, { body: 'A reply by the other', parent: String(c.id) })).json() as C;
      const muter = reporters[5]!;
      const muted = await call('POST', `/api/comments/item/${c.id}/mute/`, muter);
      expect(muted.status).toBe(200);
      expect(muted.json()).toEqual({ muted: true, user: { id: author.id, name: 'Author' } });
      const ids = idsIn((await list(muter)).json());
      expect(ids).not.toContain(c.id);
      expect(ids).not.toContain(reply.id);
      expect((await server.request(`/comments/${chapter}/`, { headers: { cookie: muter.cookie } })).text).not.toContain(`id="c-${c.id}"`);
      // Everybody else still sees it; the muter cannot reach it by id either.
      expect(idsIn((await list(other)).json())).toContain(c.id);
      expect((await call('POST', `/api/comments/item/${c.id}/like/`, muter)).status).toBe(404);
      expect((await call('POST', `/api/comments/item/${c.id}/mute/`, author)).status).toBe(422);
      expect((await server.request('/api/comments/mutes/', { headers: { cookie: muter.cookie } })).json()).toEqual({ muted: [{ id: author.id, name: 'Author' }] });
      // Without JavaScript: the mute button, and the list's unmute button.
      const page = await call('POST', `/comments/item/${reply.id}/mute/`, muter);
      expect(page.status).toBe(303);
      expect(page.headers.location).toBe(`/comments/${chapter}/?done=muted`);
      expect(idsIn((await list(muter)).json())).not.toContain(reply.id);
      expect((await call('POST', '/comments/muted/', muter, { user: String(author.id) })).status).toBe(303);
      expect((await call('DELETE', `/api/comments/mutes/${other.id}/`, muter)).status).toBe(200);
      expect(idsIn((await list(muter)).json())).toEqual(expect.arrayContaining([c.id, reply.id]));
    });

    it('a banned reader is refused (403) with the ban\'s reason and end, on the API and the page; lifting it lets them write', async () => {
      const banned = await studio('/studio/moderation/bans/', moderator, { user: String(author.id), length: '7', reason: 'Spoilers posted on purpose' });
      expect(banned.status).toBe(303);
      const rows = await audits('comment_ban.create', author.id);
      expect(rows).toHaveLength(1);
      expect(JSON.parse(rows[0]!.after_json!)).toMatchObject({ reason: 'Spoilers posted on purpose' });
      const refused = await post(author, { body: 'Let me speak' });
      expect(refused.status).toBe(403);
      expect(refused.json().detail).toContain('Spoilers posted on purpose');
      expect(refused.json().detail).toMatch(/^You cannot comment until .+\d{4}/);
      const page = await server.request(`/comments/${chapter}/`, { headers: { cookie: author.cookie } });
      expect(htmlText(page.text)).toContain('Spoilers posted on purpose');
      expect(page.text).not.toContain('id="comment-form"');
      const formPost = await call('POST', `/comments/${chapter}/`, author, { body: 'Via the form' });
      expect(formPost.status).toBe(403);
      expect(htmlText(formPost.text)).toContain('Spoilers posted on purpose');
      // Editing is writing too.
      const earlier = (await withDb(server, (db) => db.selectFrom('comments').select('id').where('user_id', '=', author.id).where('state', '=', 'VISIBLE').orderBy('id', 'desc').executeTakeFirstOrThrow())).id;
      const edit = await call('PATCH', `/api/comments/item/${earlier}/`, author, { body: 'Edited while banned' });
      expect(edit.status).toBe(403);
      expect(edit.json().detail).toContain('Spoilers posted on purpose');
      // Bad input: an unknown length, no reason, an unknown reader.
      expect((await studio('/studio/moderation/bans/', moderator, { user: String(other.id), length: '9', reason: 'x' })).status).toBe(422);
      expect((await studio('/studio/moderation/bans/', moderator, { user: String(other.id), length: '1', reason: '  ' })).status).toBe(422);
      expect((await studio('/studio/moderation/bans/', moderator, { user: '999999999', length: '1', reason: 'x' })).status).toBe(404);
      expect((await studio('/studio/moderation/bans/', moderator, { lift: String(author.id) })).status).toBe(303);
      expect(await audits('comment_ban.lift', author.id)).toHaveLength(1);
      expect((await post(author, { body: 'Back again' })).status).toBe(201);
    });

    it('pins one comment per chapter, shown first; a reply cannot be pinned', async () => {
      const first = (await post(author, { body: 'Pin me first' })).json() as C;
      const second = (await post(other, { body: 'Then pin me' })).json() as C;
      const reply = (await post(other, { body: 'A reply', parent: String(first.id) })).json() as C;
      expect((await studio('/studio/moderation/', moderator, { comment: String(first.id), action: 'pin' })).status).toBe(303);
      expect((await list(other)).json().pinned.id).toBe(first.id);
      expect((await studio('/studio/moderation/', moderator, { comment: String(second.id), action: 'pin' })).status).toBe(303);
      const json = (await list(other)).json();
      expect(json.pinned).toMatchObject({ id: second.id, pinned: true });
      expect(json.comments.map((c: C) => c.id)).not.toContain(second.id);
      const pins = await withDb(server, async (db) => {
        const ch = await db.selectFrom('chapters').select('id').where('e4pid', '=', chapter).executeTakeFirstOrThrow();
        return db.selectFrom('comment_pins').select('comment_id').where('chapter_id', '=', ch.id).execute();
      });
      expect(pins.map((p) => Number(p.comment_id))).toEqual([second.id]);
      expect(await audits('comment.pin', second.id)).toHaveLength(1);
      const page = (await server.request(`/comments/${chapter}/`, { headers: { cookie: other.cookie } })).text;
      expect(page.indexOf(`id="c-${second.id}"`)).toBeLessThan(page.indexOf(`id="c-${first.id}"`));
      expect(page.indexOf('id="c-pinned"')).toBeLessThan(page.indexOf(`id="c-${second.id}"`));
      expect((await studio('/studio/moderation/', moderator, { comment: String(reply.id), action: 'pin' })).status).toBe(409);
      expect((await studio('/studio/moderation/', moderator, { comment: String(second.id), action: 'unpin' })).status).toBe(303);
      expect((await list(other)).json().pinned).toBeNull();
    });
  });
}
