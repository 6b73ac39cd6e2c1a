/**
 * Media in an S3-compatible bucket (issue 29, docs/operations.md "Media"), on both databases,
 * against a local S3 server (s3rver, docs/decisions.md): `npm run media -- copy` moves a disk
 * install into the bucket; two server processes with different, empty MEDIA_DIRs then serve
 * the same paid page from it, to its owner only; a cover size on the allow-list is made on
 * demand once and read back from the bucket by the other process; any other size makes nothing;
 * a chapter uploaded to one process is staged, previewed and published from the bucket by the other.
 * On a database of its own: the chapter it publishes has its pages and thumbnail in a bucket that
 * is gone after this file, so on the shared database it broke other files' tests of that series.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readerPath } from '~/lib/paths';
import { S3MediaStore } from '~/server/media-store';
import { makeImage, multipart } from '../support/uploads';
import { anySeries, appCheckHeader, createReader, createStaff, MEDIA_DIR, npmRun, preparedDatabase, selectedDialects, startExtraServer, withDb, type Reader, type ServerClient } from './harness';

const now = () => Math.floor(Date.now() / 1000);
const mediaUrls = (html: string) => [...new Set([...html.matchAll(/\/media\/p\/[^"'\s<>]+/g)].map((m) => m[0].replace(/&amp;|&#38;/g, '&')))];
const isWebp = (body: Buffer) => body.subarray(8, 12).toString('latin1') === 'WEBP';

for (const dialect of selectedDialects()) {
  describe(`media in a bucket (${dialect})`, () => {
    let own: Awaited<ReturnType<typeof preparedDatabase>> | undefined;
    let main: Awaited<ReturnType<typeof startExtraServer>> | undefined;
    /** The disk-backed server on this file's own database (the two on the bucket come later). */
    let server: ServerClient;
    const temp = fs.mkdtempSync(path.join(os.tmpdir(), `inkpass-s3-${dialect}-`));
    let s3: S3rver;
    let s3env: Record<string, string>;
    let bucket: S3MediaStore;
    let chapter: { id: number; e4pid: string; path: string; keys: string[] };
    let thumbnail: string;
    const servers: Awaited<ReturnType<typeof startExtraServer>>[] = [];

    beforeAll(async () => {
      own = await preparedDatabase(dialect, {});
      main = await startExtraServer({ dialect, databaseUrl: own.url });
      server = main;
      s3 = new S3rver({ port: 0, address: '127.0.0.1', directory: path.join(temp, 's3'), silent: true, configureBuckets: [{ name: 'inkpass-media', configs: [] }] });
      const { port } = await s3.run();
      s3env = { S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: '1' };
      bucket = new S3MediaStore({ kind: 's3', bucket: 'inkpass-media', prefix: 'site', endpoint: s3env.S3_ENDPOINT!, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true });
      // A paid English chapter sold for keys now (not free for anyone), and a series' thumbnail.
      ({ chapter, thumbnail } = await withDb(server, async (db) => {
        const { pricingContext, accessIn } = await import('~/features/catalog/index.server');
        const t = now();
        const rows = await db
          .selectFrom('chapters').innerJoin('series', 'series.id', 'chapters.series_id')
          .select(['chapters.id', 'chapters.e4pid', 'chapters.number', 'chapters.language', 'series.slug', 'series.format', 'series.images'])
          .where('series.state', '=', 'ACTIVE').where('series.geoblocks', 'in', ['[]', '']).where('chapters.language', '=', 'en')
          .where('chapters.original_price', '>', 0).where('chapters.released_at', '<=', t - 86400).where('chapters.sale_at', '<=', t - 86400)
          .orderBy('chapters.id').limit(300).execute();
        const rich = { owned: false, rentals: [], balances: { keys: 1e6, xtra: 0 }, dailyPassUsedAt: null, adsWatched: 0, subscription: null };
        for (const r of rows) {
          const ctx = await pricingContext(db, r.e4pid, t);
          if (!ctx || accessIn(ctx, null, null, t).readable) continue;
          const access = accessIn(ctx, rich, null, t);
          if (!access.unlockMethods.keys.open || access.finalPrice <= 0 || access.readableUntil !== null) continue;
          const pages = await db.selectFrom('chapter_pages').select('media_key').where('chapter_id', '=', r.id).orderBy('position').execute();
          const images = JSON.parse(r.images) as Record<string, string>;
          return {
            chapter: { id: Number(r.id), e4pid: r.e4pid, path: readerPath({ slug: r.slug, format: r.format }, { e4pid: r.e4pid, number: Number(r.number), language: r.language }), keys: pages.map((p) => p.media_key) },
            thumbnail: images.full_cover ?? images.cover!,
          };
        }
        throw new Error('no paid chapter to test with');
      }));
    }, 180_000);

    afterAll(async () => {
      await Promise.all([...servers, ...(main ? [main] : [])].map((s) => s.stop()));
      await own?.drop();
      bucket?.client.destroy();
      await s3?.close();
      fs.rmSync(temp, { recursive: true, force: true });
    });

    const twoServers = (): [ServerClient, ServerClient] => {
      if (servers.length !== 2) throw new Error('the two servers on the bucket did not start');
      return [servers[0]!, servers[1]!];
    };
    const get = (on: ServerClient, url: string, who: Reader | null) => on.request(url, { headers: who ? { cookie: who.cookie } : {} });
    const inBucket = async (prefix: string) => {
      const keys: string[] = [];
      for await (const o of bucket.list(prefix)) keys.push(o.key);
      return keys.sort();
    };

    it('npm run media -- copy moves a disk install into the bucket, and a second run copies nothing again', { timeout: 120_000 }, async () => {
      // A small install: the chapter's pages and the series' cover, as MEDIA_DIR holds them.
      const install = path.join(temp, 'install');
      const keys = [...new Set([...chapter.keys, thumbnail])];
      for (const key of keys) {
        const file = path.join(install, ...key.split('/'));
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.copyFileSync(path.join(MEDIA_DIR, ...key.split('/')), file);
      }
      fs.mkdirSync(path.join(install, '.staging', 'work-abandoned'), { recursive: true });
      fs.writeFileSync(path.join(install, '.staging', 'work-abandoned', 'upload.bin'), 'scratch');
      const first = await npmRun(server.databaseUrl, 'media', ['copy', '--to', 's3://inkpass-media/site'], { ...s3env, MEDIA_DIR: install });
      expect([first.code, first.stderr]).toEqual([0, '']);
      expect(first.stdout).toMatch(new RegExp(`Copied ${keys.length} file\\(s\\) .* to s3://inkpass-media/site; 0 already there were skipped`));
      expect(await inBucket('')).toEqual(keys.sort());
      const again = await npmRun(server.databaseUrl, 'media', ['copy', '--to', 's3://inkpass-media/site', '--from', install], s3env);
      expect([again.code, again.stderr]).toEqual([0, '']);
      expect(again.stdout).toContain(`Copied 0 file(s) (0.0 MB)`);
      expect(again.stdout).toContain(`; ${keys.length} already there were skipped`);
      const refused = await npmRun(server.databaseUrl, 'media', ['copy', '--to', 'gs://elsewhere'], s3env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('MEDIA_STORE must be s3://bucket/prefix');

      // Two processes on the bucket, each with an empty media folder of its own.
      for (const name of ['a', 'b']) {
        const dir = path.join(temp, `media-${name}`);
        fs.mkdirSync(dir, { recursive: true });
        servers.push(await startExtraServer(server, { ...s3env, MEDIA_DIR: dir, MEDIA_STORE: 's3://inkpass-media/site' }));
      }
    });

    it('npm run doctor reads the bucket: it says the images are there, and says NO when the keys are wrong', { timeout: 60_000 }, async () => {
      const there = await npmRun(server.databaseUrl, 'doctor', [], { ...s3env, MEDIA_STORE: 's3://inkpass-media/site' });
      expect(there.stdout).toContain('ok    the bucket s3://inkpass-media/site answers and holds images');
      const wrong = await npmRun(server.databaseUrl, 'doctor', [], { ...s3env, S3_SECRET_ACCESS_KEY: 'not-the-secret', MEDIA_STORE: 's3://inkpass-media/site' });
      expect(wrong.stdout).toMatch(/NO {4}media: the bucket cannot be read or written: \S/);
    });

    it('two processes with different MEDIA_DIRs serve the same paid page from the bucket, to its owner only', { timeout: 60_000 }, async () => {
      const [a, b] = twoServers();
      const owner = await createReader(server);
      const other = await createReader(server);
      await withDb(server, async (db) => {
        const { grantKeys } = await import('~/features/wallet/index.server');
        await grantKeys(db, { userId: owner.id, keys: 100, xtra: 0, reason: 'test', key: `media-s3:${owner.id}`, now: now() });
      });
      const redeem = await server.request('/api/redeem/', {
        method: 'POST', body: new URLSearchParams({ content: chapter.e4pid }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.origin(), cookie: owner.cookie, ...(await appCheckHeader(server, owner)) },
      });
      expect(redeem.status).toBe(200);
      const url = mediaUrls((await get(a, chapter.path, owner)).text)[0]!;
      expect(url).toContain(`u=${owner.id}`);
      const original = fs.readFileSync(path.join(MEDIA_DIR, ...chapter.keys[0]!.split('/')));
      for (const on of [a, b]) {
        const mine = await get(on, url, owner);
        expect(mine.status).toBe(200);
        expect(mine.headers['cache-control']).toBe('private, max-age=600');
        expect(mine.body.equals(original)).toBe(true);
        for (const who of [null, other]) {
          const refused = await get(on, url, who);
          expect(refused.status).toBe(403);
          expect(isWebp(refused.body)).toBe(false);
        }
      }
      // A phone's copy is made once, into the bucket, and the other process serves that one.
      const made = await get(a, `${url}&w=480`, owner);
      expect(made.status).toBe(200);
      expect((await sharp(made.body).metadata()).width).toBe(480);
      expect(await inBucket('.renditions/w480/')).toEqual([`.renditions/w480/${chapter.keys[0]}`]);
      expect((await get(b, `${url}&w=480`, owner)).body.equals(made.body)).toBe(true);
      expect((await get(b, `${url}&w=480`, other)).status).toBe(403);
      expect(fs.readdirSync(path.join(temp, 'media-a')).filter((f) => f !== '.staging')).toEqual([]);
    });

    it('makes a cover at a size the site shows on demand, once, and refuses every other size', { timeout: 60_000 }, async () => {
      const [a, b] = twoServers();
      const plain = await get(b, `/media/${thumbnail}`, null);
      expect(plain.status).toBe(200);
      expect(plain.body.equals(fs.readFileSync(path.join(MEDIA_DIR, ...thumbnail.split('/'))))).toBe(true);
      const sized = await get(a, `/media/${thumbnail}?s=140x200`, null);
      expect(sized.status).toBe(200);
      expect(sized.headers['content-type']).toBe('image/webp');
      expect(sized.headers['cache-control']).toMatch(/^public, max-age=86400/);
      const meta = await sharp(sized.body).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 140, 200]);
      expect(await inBucket('.renditions/140x200/')).toEqual([`.renditions/140x200/${thumbnail}`]);
      // The other process reads it from the bucket: the same bytes and ETag, and a 304 on revalidation.
      const fromB = await get(b, `/media/${thumbnail}?s=140x200`, null);
      expect(fromB.body.equals(sized.body)).toBe(true);
      expect(fromB.headers.etag).toBe(sized.headers.etag);
      expect((await b.request(`/media/${thumbnail}?s=140x200`, { headers: { 'if-none-match': String(sized.headers.etag) } })).status).toBe(304);
      const before = await inBucket('');
      for (const s of ['141x200', '140x201', '1400x2000', '140', '140X200', '0140x200', '', '9999x9999']) {
        const res = await get(a, `/media/${thumbnail}?s=${encodeURIComponent(s)}`, null);
        expect(res.status, `s=${s}`).toBe(404);
        expect(isWebp(res.body)).toBe(false);
      }
      // Sizes never reach a chapter page through the public route, nor the renditions by name.
      expect((await get(a, `/media/${chapter.keys[0]}?s=140x200`, null)).status).toBe(404);
      expect((await get(a, `/media/.renditions/140x200/${thumbnail}`, null)).status).toBe(404);
      expect(await inBucket('')).toEqual(before);
    });

    it('stages a chapter upload in the bucket, and the other process previews and publishes it from there', { timeout: 60_000 }, async () => {
      const [a, b] = twoServers();
      const editor = await createStaff(server, 'content');
      const seriesId = (await anySeries(server, 1))[0]!.id;
      const images = await Promise.all([1, 2].map((i) => makeImage('png', i, 40 + i, 60)));
      const send = (on: ServerClient, target: string, body: Buffer, type: string) =>
        on.request(target, { method: 'POST', body, headers: { 'content-type': type, origin: on.origin('en'), 'sec-fetch-site': 'same-origin', cookie: editor.cookie } });
      const { body, type } = multipart([{ name: 'series', value: String(seriesId) }, { name: 'number', value: '9301.5' }, { name: 'language', value: 'en' }, ...images.map((data, i) => ({ name: 'pages', file: { name: `${i + 1}.png`, data } }))]);
      const created = await send(a, `/studio/chapters/new/?series=${seriesId}`, body, type);
      expect(created.status).toBe(303);
      const id = Number(/drafts\/(\d+)\//.exec(created.headers.location ?? '')?.[1]);
      expect((await inBucket(`.staging/${id}/`)).length).toBe(2);
      expect(fs.readdirSync(path.join(temp, 'media-a', '.staging'))).toEqual([]);
      const preview = await get(b, `/studio/chapters/drafts/${id}/pages/2/`, editor);
      expect(preview.status).toBe(200);
      expect(preview.body.equals(images[1]!)).toBe(true);

      const published = await b.request(`/studio/chapters/drafts/${id}/`, {
        method: 'POST', body: new URLSearchParams({ action: 'publish', price: '0', purchase: '1', zone: 'UTC', release: 'now' }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: b.origin('en'), 'sec-fetch-site': 'same-origin', cookie: editor.cookie },
      });
      expect(published.status).toBe(303);
      const e4pid = await withDb(server, async (db) => (await db.selectFrom('chapters').select('e4pid').where('series_id', '=', seriesId).where('number', '=', 9301.5).executeTakeFirstOrThrow()).e4pid);
      expect(await inBucket(`.staging/${id}/`)).toEqual([]);
      expect((await inBucket(`chapters/${e4pid.toLowerCase()}/`)).length).toBe(2);
      const thumb = await get(a, `/media/pool/thumbs/${e4pid.toLowerCase()}.webp`, null);
      expect(thumb.status).toBe(200);
      expect((await sharp(thumb.body).metadata()).width).toBe(175);
    });

    it('drafts cleanup removes a staging folder in the bucket that no draft owns, after its hour of grace', { timeout: 60_000 }, async () => {
      const { cleanupDrafts } = await import('~/features/studio/index.server');
      await bucket.put('.staging/987654321/1.png', await makeImage('png', 1, 20, 30), 'image/png');
      const emptyDir = fs.mkdtempSync(path.join(temp, 'cleanup-'));
      // Young: it may belong to an upload under way.
      await withDb(server, (db) => cleanupDrafts(db, now(), emptyDir, bucket));
      expect(await inBucket('.staging/987654321/')).toEqual(['.staging/987654321/1.png']);
      const later = await withDb(server, (db) => cleanupDrafts(db, now() + 2 * 3600, emptyDir, bucket));
      expect(later.folders).toBeGreaterThanOrEqual(1);
      expect(await inBucket('.staging/987654321/')).toEqual([]);
    });
  });
}
