/**
 * The chapter upload row of `npm run bench` (issue 27): a 60-page CBZ of about 30 MB (noise
 * JPEGs, which do not compress) posted to /studio/chapters/new/ by a member of staff with
 * `content`, timed until the draft's preview answers. Target: ready within 30 s.
 */
import http from 'node:http';
import crypto from 'node:crypto';
import sharp from 'sharp';
import { createDb } from '~/server/db';
import { changeCapability } from '~/features/accounts/index.server';
import { makeZip, multipart } from '../tests/support/uploads';
import { makeReaders } from './keys';

export const UPLOAD_TARGET_SECONDS = 30;

function request(port: number, path: string, method: string, headers: Record<string, string>, body?: Buffer): Promise<{ status: number; location?: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, path, method, headers: { host: `localhost:${port}`, ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, location: res.headers.location }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function benchUpload(databaseUrl: string, port: number): Promise<{ seconds: number; megabytes: number; pages: number }> {
  const { db } = await createDb(databaseUrl);
  let cookie: string;
  let seriesId: number;
  try {
    const [staff] = await makeReaders(db, 1, 1, 'upload');
    const user = await db.selectFrom('users').select('email').where('id', '=', staff!.id).executeTakeFirstOrThrow();
    await changeCapability(db, { email: user.email, capability: 'content', change: 'grant', actor: { userId: null, capability: 'admin', ip: null, userAgent: null } }, Math.floor(Date.now() / 1000));
    cookie = staff!.cookie;
    seriesId = Number((await db.selectFrom('series').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow()).id);
  } finally {
    await db.destroy();
  }
  const items = [];
  for (let i = 1; i <= 60; i++) {
    const raw = crypto.randomBytes(1000 * 800 * 3);
    items.push({ name: `chapter/${i}.jpg`, data: await sharp(raw, { raw: { width: 1000, height: 800, channels: 3 } }).jpeg({ quality: 82 }).toBuffer(), store: true });
  }
  const cbz = await makeZip(items);
  const { body, type } = multipart([{ name: 'series', value: String(seriesId) }, { name: 'number', value: `${90000 + Math.floor(Math.random() * 9000)}` }, { name: 'language', value: 'en' }, { name: 'pages', file: { name: 'chapter.cbz', data: cbz } }]);
  const t0 = performance.now();
  const created = await request(port, `/studio/chapters/new/?series=${seriesId}`, 'POST', { 'content-type': type, origin: `http://localhost:${port}`, cookie }, body);
  if (created.status !== 303 || !created.location) throw new Error(`the upload answered ${created.status}`);
  const preview = await request(port, created.location.replace(/\?.*$/, 'preview/'), 'GET', { cookie });
  if (preview.status !== 200) throw new Error(`the preview answered ${preview.status}`);
  const seconds = (performance.now() - t0) / 1000;
  return { seconds: Number(seconds.toFixed(2)), megabytes: Number((cbz.length / 1048576).toFixed(1)), pages: items.length };
}
