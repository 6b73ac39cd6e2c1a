import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskMediaStore, isMediaKey, MediaKeyError, S3MediaStore } from './media-store';

/** Keys that could name something outside MEDIA_DIR or the bucket's prefix, or are not keys at all. */
const BAD = ['', '/etc/passwd', '../secret.webp', 'series/../../secret.webp', 'series/..', 'a//b.webp', 'a/./b.webp', './a.webp', 'series/', 'a\\..\\b.webp', 'a\0.webp', `${'a/'.repeat(256)}b`];

describe('media keys', () => {
  it('takes relative, slash-separated keys', () => {
    for (const k of ['series/1/cover.webp', 'pool/thumbs/t-01.webp', '.staging/12/abc.png', '.renditions/w720/pool/manga/page-00.webp', 'chapters/epi-x/001-ab.webp']) expect(isMediaKey(k), k).toBe(true);
  });

  it('refuses absolute paths, `..`, `.` and empty parts, backslashes, NUL and over-long keys', () => {
    for (const k of BAD) expect(isMediaKey(k), JSON.stringify(k)).toBe(false);
    expect(isMediaKey('a'.repeat(512))).toBe(true);
    expect(isMediaKey('a'.repeat(513))).toBe(false);
  });
});

describe('the disk store', () => {
  let root: string;
  let outside: string;
  let store: DiskMediaStore;
  beforeAll(() => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-store-'));
    root = path.join(base, 'media');
    outside = path.join(base, 'secret.webp');
    fs.mkdirSync(path.join(root, 'series'), { recursive: true });
    fs.writeFileSync(outside, 'secret');
    fs.writeFileSync(path.join(root, 'series', 'a.webp'), 'image');
    fs.symlinkSync(outside, path.join(root, 'series', 'link.webp'));
    fs.symlinkSync(path.dirname(outside), path.join(root, 'up'));
  });
  afterAll(() => fs.rmSync(path.dirname(root), { recursive: true, force: true }));

  it('reads only regular files inside its folder: no bad key, symlink out or folder', async () => {
    expect((await store.stat('series/a.webp'))?.size).toBe(5);
    for (const k of [...BAD, 'series/link.webp', 'up/secret.webp', 'series', '../secret.webp']) {
      expect(await store.stat(k), k).toBeNull();
      expect(await store.get(k), k).toBeNull();
      expect(await store.bytes(k), k).toBeNull();
    }
  });

  it('writes nothing for a bad key, and removes nothing outside', async () => {
    for (const k of BAD) {
      await expect(store.put(k, Buffer.from('x')), JSON.stringify(k)).rejects.toBeInstanceOf(MediaKeyError);
      await store.remove(k);
    }
    await store.remove('series/link.webp');
    await store.remove('../secret.webp');
    expect(fs.readFileSync(outside, 'utf8')).toBe('secret');
    await expect(store.removeFolder('../')).rejects.toBeInstanceOf(MediaKeyError);
    await expect(store.removeFolder('series')).rejects.toBeInstanceOf(MediaKeyError);
  });

  it('writes whole files and lists them, without scratch files', async () => {
    await store.put('series/2/b.webp', Buffer.from('bb'));
    fs.mkdirSync(path.join(root, '.staging', 'work-1'), { recursive: true });
    fs.writeFileSync(path.join(root, '.staging', 'work-1', 'upload'), 'x');
    fs.writeFileSync(path.join(root, 'series', 'c.webp.1.tmp'), 'x');
    const keys: string[] = [];
    for await (const o of store.list('')) keys.push(o.key);
    expect(keys.sort()).toEqual(['series/2/b.webp', 'series/a.webp']);
    const under: string[] = [];
    for await (const o of store.list('series/2/')) under.push(o.key);
    expect(under).toEqual(['series/2/b.webp']);
  });

  beforeAll(() => {
    store = new DiskMediaStore(root);
  });
});

describe('the S3 store', () => {
  // Nothing listens here: a refused key must fail before any request is made.
  const store = new S3MediaStore({ kind: 's3', bucket: 'inkpass', prefix: 'media', endpoint: 'http://127.0.0.1:9', region: 'us-east-1', accessKeyId: 'a', secretAccessKey: 'b', forcePathStyle: true });
  afterAll(() => store.client.destroy());

  it('refuses the same keys as the disk store, before asking the bucket', async () => {
    for (const k of BAD) {
      expect(await store.stat(k), JSON.stringify(k)).toBeNull();
      expect(await store.get(k)).toBeNull();
      await expect(store.put(k, Buffer.from('x'))).rejects.toBeInstanceOf(MediaKeyError);
      await expect(store.copy('series/a.webp', k)).rejects.toBeInstanceOf(MediaKeyError);
      await store.remove(k);
    }
    await expect(store.removeFolder('../')).rejects.toBeInstanceOf(MediaKeyError);
    expect(store.location).toBe('s3://inkpass/media');
  });
});
