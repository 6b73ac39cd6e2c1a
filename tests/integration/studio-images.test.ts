/**
 * The studio's series images (issue 27, docs/staff.md), on both databases: an upload is judged
 * by its content (JPEG, PNG, WebP, AVIF; at most 10,000 px a side and 20 MB), sharp makes every
 * size the site serves under new names, the row points at them with one audit record, the old
 * files go after the commit; every refusal is a localized 413/422 that writes nothing.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import crypto from 'node:crypto';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createReader, createStaff, htmlText, MEDIA_DIR, message, type Reader, selectedDialects, type ServerClient, useServer, withDb } from './harness';

/** A multipart body as a browser sends it: the kind and one file. */
async function multipart(kind: string, file: Uint8Array | null, name = 'image.bin'): Promise<{ body: Buffer; type: string }> {
  const form = new FormData();
  form.set('kind', kind);
  if (file) form.set('image', new Blob([new Uint8Array(file)]), name);
  const req = new Request('http://x/', { method: 'POST', body: form });
  return { body: Buffer.from(await req.arrayBuffer()), type: req.headers.get('content-type')! };
}

async function upload(server: ServerClient, id: number | string, who: Reader | null, kind: string, file: Uint8Array | null, opts: { site?: 'en' | 'br'; origin?: string } = {}) {
  const { body, type } = await multipart(kind, file);
  const site = opts.site ?? 'en';
  return server.request(`/studio/series/${id}/images/`, {
    site, method: 'POST', body,
    headers: { 'content-type': type, origin: opts.origin ?? server.origin(site), 'sec-fetch-site': opts.origin ? 'cross-site' : 'same-origin', ...(who ? { cookie: who.cookie } : {}) },
  });
}

/** The status answered to a POST that announces `length` bytes and sends only a few (the answer must not wait for the rest). */
function announced(port: number, target: string, who: Reader, type: string, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let data = '';
    const done = () => {
      socket.destroy();
      resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0));
    };
    socket.setTimeout(5_000, done);
    socket.on('data', (c) => {
      data += c.toString('latin1');
      if (data.includes('\r\n\r\n')) done();
    });
    socket.on('end', done);
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' ? done() : reject(e)));
    socket.write(`POST ${target} HTTP/1.1\r\nHost: localhost:${port}\r\nOrigin: http://localhost:${port}\r\nCookie: ${who.cookie}\r\nContent-Type: ${type}\r\nContent-Length: ${length}\r\n\r\n--x`);
  });
}

const picture = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 40, b: 90 } } });
const imagesOf = async (server: ServerClient, id: number) => JSON.parse((await withDb(server, (db) => db.selectFrom('series').select('images').where('id', '=', id).executeTakeFirstOrThrow())).images) as Record<string, string>;
const auditCount = (server: ServerClient, id: number) => withDb(server, async (db) => (await db.selectFrom('audit_log').select('id').where('object_table', '=', 'series').where('object_id', '=', String(id)).where('action', '=', 'series.images').execute()).length);
const filesOf = (id: number) => { const dir = path.join(MEDIA_DIR, 'series', String(id)); return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : []; };

for (const dialect of selectedDialects()) {
  describe(`studio series images (${dialect})`, () => {
    const server = useServer(dialect);

    async function newSeries(editor: Reader): Promise<number> {
      const word = `zi${crypto.randomBytes(4).toString('hex')}`;
      const form = new URLSearchParams({ state: 'ACTIVE', languages: 'en', format: 'COMIC', update_status: 'WEEKLY', color: '#112233', 'original.name': `Pictures ${word}`,
        starting_count: '0', catchup_count: '0', daily_pass_ttl: '72', daily_pass_recharge: '23', total_ads: '0', ads_ttl: '48' });
      const res = await server.request('/studio/series/new/', { method: 'POST', body: form.toString(), headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('en'), 'sec-fetch-site': 'same-origin', cookie: editor.cookie } });
      expect(res.status).toBe(303);
      return Number(/\/studio\/series\/(\d+)\//.exec(res.headers.location!)![1]);
    }

    it('a cover is made in every size the site serves, under new names; a new one replaces it and the old files go', async () => {
      const editor = await createStaff(server, 'content');
      const id = await newSeries(editor);
      // Both databases' servers share the media folder, and their series ids can be equal.
      const before = filesOf(id);
      const jpeg = await picture(1200, 1700).jpeg().toBuffer();
      const res = await upload(server, id, editor, 'cover', jpeg);
      expect([res.status, res.headers.location]).toEqual([303, `/studio/series/${id}/images/?done=cover`]);
      const first = await imagesOf(server, id);
      const sizes: Record<string, [number, number]> = { full_cover: [700, 1000], zoom_cover: [700, 1000], cover: [350, 500], thumbnail: [175, 250], thumbnail_140: [140, 200], thumbnail_70: [70, 100] };
      for (const [kind, [w, h]] of Object.entries(sizes)) {
        expect(first[kind], kind).toMatch(new RegExp(`^series/${id}/cover-${w}x${h}-[0-9a-f]{12}\\.webp$`));
        const meta = await sharp(path.join(MEDIA_DIR, first[kind]!)).metadata();
        expect([kind, meta.format, meta.width, meta.height]).toEqual([kind, 'webp', w, h]);
      }
      const served = await server.request(`/media/${first.cover}`);
      expect([served.status, served.headers['content-type']]).toEqual([200, 'image/webp']);
      // The series page and the API show the new cover at once.
      const slug = (await withDb(server, (db) => db.selectFrom('series').select('slug').where('id', '=', id).executeTakeFirstOrThrow())).slug;
      expect((await server.request(`/comics/${slug}/`)).text).toContain(`/media/${first.cover}`);
      expect(await auditCount(server, id)).toBe(1);
      const page = await server.request(`/studio/series/${id}/images/`, { site: 'br', headers: { cookie: editor.cookie } });
      expect(page.status).toBe(200);
      expect(page.headers['cache-control']).toContain('no-store');
      expect(htmlText(page.text)).toContain(message('pt-BR', 'studio.images.rules'));

      // A PNG replaces it: new names, the old files removed, nothing else left behind.
      const again = await upload(server, id, editor, 'cover', await picture(900, 1200).png().toBuffer());
      expect(again.status).toBe(303);
      const second = await imagesOf(server, id);
      expect(second.cover).not.toBe(first.cover);
      expect(fs.existsSync(path.join(MEDIA_DIR, first.cover!))).toBe(false);
      expect(filesOf(id).filter((f) => !before.includes(f))).toEqual([...new Set(Object.values(second))].map((k) => path.basename(k)).sort());

      // The other kinds: an AVIF banner and a WebP logo, at the seed's sizes.
      expect((await upload(server, id, editor, 'banner', await picture(2000, 600).avif().toBuffer())).status).toBe(303);
      expect((await upload(server, id, editor, 'logo', await picture(800, 800).webp().toBuffer())).status).toBe(303);
      const third = await imagesOf(server, id);
      expect((await sharp(path.join(MEDIA_DIR, third.banner!)).metadata()).width).toBe(363);
      expect((await sharp(path.join(MEDIA_DIR, third.logo!)).metadata()).height).toBe(120);
      expect(third.cover).toBe(second.cover);
      expect(await auditCount(server, id)).toBe(4);
    });

    it('refuses what is not a JPEG, PNG, WebP or AVIF by content, huge dimensions, corrupt and empty files, and too large bodies, writing nothing', async () => {
      const editor = await createStaff(server, 'content');
      const id = await newSeries(editor);
      const before = filesOf(id);
      const jpeg = await picture(400, 600).jpeg().toBuffer();
      const cases: [string, Uint8Array | null, number, string][] = [
        ['cover', await picture(40, 40).gif().toBuffer(), 422, 'studio.images.error.type'],
        ['cover', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>'), 422, 'studio.images.error.type'],
        ['cover', Buffer.from('just some text, named cover.jpg'), 422, 'studio.images.error.type'],
        ['cover', await picture(10_001, 8).png().toBuffer(), 422, 'studio.images.error.dimensions'],
        ['cover', jpeg.subarray(0, Math.floor(jpeg.length / 2)), 422, 'studio.images.error.corrupt'],
        ['cover', new Uint8Array(0), 422, 'studio.images.error.empty'],
        ['cover', null, 422, 'studio.images.error.empty'],
        ['poster', jpeg, 422, 'studio.images.error.kind'],
        ['__proto__', jpeg, 422, 'studio.images.error.kind'],
      ];
      for (const [kind, file, status, key] of cases) {
        for (const site of ['en', 'br'] as const) {
          const res = await upload(server, id, editor, kind, file, { site });
          expect([key, site, res.status]).toEqual([key, site, status]);
          expect(htmlText(res.text)).toContain(message(site === 'en' ? 'en' : 'pt-BR', key as never));
        }
      }
      // Larger than 20 MB (and its envelope): the edge answers 413 on the announced length, before reading the body.
      const { type } = await multipart('cover', jpeg);
      const big = await announced(server.port, `/studio/series/${id}/images/`, editor, type, 21 * 1024 * 1024 + 1);
      expect(big).toBe(413);
      // A plain form, or garbage: 415 / 400.
      const plain = await server.request(`/studio/series/${id}/images/`, { method: 'POST', body: 'kind=cover', headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin('en'), cookie: editor.cookie } });
      expect(plain.status).toBe(415);
      const garbage = await server.request(`/studio/series/${id}/images/`, { method: 'POST', body: 'not multipart at all', headers: { 'content-type': 'multipart/form-data; boundary=xyz', origin: server.origin('en'), cookie: editor.cookie } });
      expect(garbage.status).toBe(400);
      expect(await imagesOf(server, id)).toEqual({});
      expect(filesOf(id)).toEqual(before);
      expect(await auditCount(server, id)).toBe(0);

      // Strangers and bad ids.
      const reader = await createReader(server);
      const pricing = await createStaff(server, 'pricing');
      const anon = await upload(server, id, null, 'cover', jpeg);
      expect([anon.status, anon.headers.location]).toEqual([303, `/auth/login/?next=${encodeURIComponent(`/studio/series/${id}/images/`)}`]);
      expect((await upload(server, id, reader, 'cover', jpeg)).status).toBe(403);
      expect((await upload(server, id, pricing, 'cover', jpeg)).status).toBe(403);
      expect((await upload(server, id, editor, 'cover', jpeg, { origin: 'https://evil.example' })).status).toBe(403);
      for (const bad of ['999999999', 'abc', '0']) {
        expect([bad, (await upload(server, bad, editor, 'cover', jpeg)).status]).toEqual([bad, 404]);
        expect([bad, (await server.request(`/studio/series/${bad}/images/`, { headers: { cookie: editor.cookie } })).status]).toEqual([bad, 404]);
      }
      expect(filesOf(id)).toEqual(before);
      expect(await auditCount(server, id)).toBe(0);
    });
  });
}
