import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renditionFile, renditionWidth } from './renditions.server';
import type { StoredMedia } from '~/server/media';
import { DiskMediaStore } from '~/server/media-store';

describe('renditionWidth', () => {
  it('is null without w (the original) and the width for a copy the server makes', () => {
    expect(renditionWidth(null)).toBeNull();
    expect(renditionWidth('480')).toBe(480);
    expect(renditionWidth('720')).toBe(720);
  });

  it('refuses any other width or form', () => {
    for (const w of ['', '0', '500', '7200', '0720', '720.0', ' 720', '720px', '-720', '1e3']) expect(renditionWidth(w), w).toBeUndefined();
  });
});

describe('renditionFile', () => {
  let root: string;
  let store: DiskMediaStore;
  let original: StoredMedia;
  const fileOf = (m: StoredMedia) => path.join(root, ...m.key.split('/'));
  const key = 'pool/manga/page-00.webp';

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-renditions-'));
    const file = path.join(root, ...key.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // A noisy page, so that a narrower copy is measurably smaller.
    const raw = Buffer.alloc(900 * 1350 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
    await sharp(raw, { raw: { width: 900, height: 1350, channels: 3 } }).webp({ quality: 80 }).toFile(file);
    const stat = fs.statSync(file);
    original = { key, size: stat.size, mtimeMs: stat.mtimeMs };
    store = new DiskMediaStore(root);
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('makes a copy as wide as asked, keeping the proportions, smaller than the original', async () => {
    const copy = (await renditionFile(original, 720, store))!;
    const meta = await sharp(fileOf(copy)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 720, 1080]);
    expect(copy.size).toBeLessThan(original.size);
    expect(copy.key).toBe(`.renditions/w720/${key}`);
  });

  it('makes it once, however many ask at the same time, and keeps it', async () => {
    const copies = await Promise.all(Array.from({ length: 8 }, () => renditionFile(original, 480, store)));
    expect(new Set(copies.map((c) => c!.key)).size).toBe(1);
    const before = fs.statSync(fileOf(copies[0]!)).mtimeMs;
    expect((await renditionFile(original, 480, store))!.mtimeMs).toBe(before);
    expect(fs.readdirSync(path.dirname(fileOf(copies[0]!))).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('makes it again when the original is newer', async () => {
    const copy = (await renditionFile(original, 480, store))!;
    const newer = { ...original, mtimeMs: copy.mtimeMs + 1000 };
    const again = (await renditionFile(newer, 480, store))!;
    expect(again.mtimeMs).toBeGreaterThanOrEqual(copy.mtimeMs);
    expect(fs.statSync(fileOf(again)).mtimeMs).toBeGreaterThanOrEqual(copy.mtimeMs);
  });

  it('gives null for an original that is not an image', async () => {
    const bad = path.join(root, 'pool', 'bad.webp');
    fs.writeFileSync(bad, 'not an image');
    const stat = fs.statSync(bad);
    expect(await renditionFile({ key: 'pool/bad.webp', size: stat.size, mtimeMs: stat.mtimeMs }, 720, store)).toBeNull();
  });
});
