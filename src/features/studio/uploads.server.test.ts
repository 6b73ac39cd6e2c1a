import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { stageUpload, type IncomingFile } from './uploads.server';
import { UploadError, UPLOAD_LIMITS, type UploadErrorCode } from './uploads';
import { COMIC_INFO, declareSize, makeImage, makeZip, pngDeclaring, renameInZip } from '../../../tests/support/uploads';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-uploads-'));
let workDir: string;
let n = 0;

beforeEach(() => {
  workDir = path.join(root, `work-${++n}`);
  fs.mkdirSync(workDir);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function put(name: string, data: Buffer): IncomingFile {
  fs.mkdirSync(workDir, { recursive: true });
  const file = path.join(workDir, `in-${fs.readdirSync(workDir).length}`);
  fs.writeFileSync(file, data);
  return { path: file, name, size: data.length };
}

/** The refusal, after checking that the work directory (and everything staged) is gone. */
async function refusal(files: IncomingFile[], existing?: { pages: number; bytes: number }, limits = UPLOAD_LIMITS): Promise<UploadError> {
  const error = await stageUpload(files, workDir, existing, limits).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UploadError);
  expect(fs.existsSync(workDir)).toBe(false);
  return error as UploadError;
}

function expectRefused(error: UploadError, code: UploadErrorCode, status: number, page: number | null = null, file: string | null = null) {
  expect({ code: error.code, status: error.status, page: error.page, file: error.file }).toEqual({ code, status, page, file });
}

describe('stageUpload: image files', () => {
  it('stages every accepted format, judged by content, in natural name order', async () => {
    const files = [
      put('10.png', await makeImage('png', 1)),
      put('2.jpg', await makeImage('jpeg', 2, 40, 60)),
      put('1.webp', await makeImage('webp', 3)),
      put('3.gif', await makeImage('gif', 4)),
      put('4.avif', await makeImage('avif', 5)),
      // A PNG named .jpg is a PNG: the name decides nothing.
      put('5.jpg', await makeImage('png', 6)),
    ];
    const staged = await stageUpload(files, workDir);
    expect(staged.pages.map((p) => [p.name, p.format, p.ext])).toEqual([
      ['1.webp', 'webp', 'webp'],
      ['2.jpg', 'jpeg', 'jpg'],
      ['3.gif', 'gif', 'gif'],
      ['4.avif', 'avif', 'avif'],
      ['5.jpg', 'png', 'png'],
      ['10.png', 'png', 'png'],
    ]);
    expect(staged.pages[1]).toMatchObject({ width: 40, height: 60 });
    for (const p of staged.pages) expect(fs.statSync(p.file).size).toBe(p.bytes);
  });

  it('refuses a .png that is text, naming the page and the file (415)', async () => {
    const error = await refusal([put('1.png', await makeImage()), put('2.png', Buffer.from('hello, I am not an image at all'))]);
    expectRefused(error, 'notImage', 415, 2, '2.png');
  });

  it('refuses an empty file', async () => {
    expectRefused(await refusal([put('007.png', Buffer.alloc(0))], { pages: 6, bytes: 10 }), 'empty', 422, 7, '007.png');
  });

  it('refuses a file over 20 MB before reading it (413)', async () => {
    const big = Buffer.concat([await makeImage(), Buffer.alloc(UPLOAD_LIMITS.fileBytes)]);
    expectRefused(await refusal([put('1.png', big)]), 'fileTooLarge', 413, 1, '1.png');
  });

  it('refuses a corrupted image whose first bytes are right (truncated)', async () => {
    const good = await makeImage('png', 1, 300, 300);
    expectRefused(await refusal([put('1.png', good.subarray(0, Math.floor(good.length / 2)))]), 'corrupt', 422, 1, '1.png');
    const jpeg = await makeImage('jpeg', 1, 300, 300);
    expectRefused(await refusal([put('2.jpg', jpeg.subarray(0, 40))]), 'corrupt', 422, 1, '2.jpg');
  });

  it('refuses a PNG declaring 20000 × 20000 pixels from its header, without decoding it', async () => {
    expectRefused(await refusal([put('huge.png', pngDeclaring(20_000, 20_000))]), 'tooWide', 422, 1, 'huge.png');
    // 10,000 px per side is allowed: the limit is on each side.
    const meta = await sharp(pngDeclaring(10_000, 1)).metadata();
    expect([meta.width, meta.height]).toEqual([10_000, 1]);
    const ok = await stageUpload([put('wide.png', pngDeclaring(10_000, 1))], workDir);
    expect(ok.pages[0]).toMatchObject({ width: 10_000, height: 1 });
  });

  it('counts pages and bytes with what the draft already has', async () => {
    expectRefused(await refusal([put('1.png', await makeImage())], { pages: 500, bytes: 0 }), 'tooManyPages', 413);
    expectRefused(await refusal([put('1.png', await makeImage())], { pages: 3, bytes: UPLOAD_LIMITS.chapterBytes - 10 }), 'chapterTooLarge', 413);
  });

  it('refuses nothing uploaded, and a ZIP among images', async () => {
    expectRefused(await refusal([]), 'noFiles', 422);
    const zip = await makeZip([{ name: '1.png', data: await makeImage() }]);
    expectRefused(await refusal([put('1.png', await makeImage()), put('pages.cbz', zip)]), 'oneArchive', 422, null, 'pages.cbz');
  });
});

describe('stageUpload: ZIP and CBZ archives', () => {
  it('stages the images in natural order, ignoring directories, __MACOSX and dotfiles', async () => {
    const items = [];
    for (const i of [10, 2, 1, 33, 3]) items.push({ name: `ch/${i}.png`, data: await makeImage('png', i) });
    items.push({ name: 'ch/', directory: true });
    items.push({ name: '__MACOSX/ch/._1.png', data: Buffer.from('resource fork') });
    items.push({ name: 'ch/.DS_Store', data: Buffer.from('junk') });
    items.push({ name: 'ch/4.jpg', data: await makeImage('jpeg', 4), store: true });
    const staged = await stageUpload([put('chapter.cbz', await makeZip(items))], workDir, { pages: 2, bytes: 0 });
    expect(staged.pages.map((p) => p.name)).toEqual(['1.png', '2.png', '3.png', '4.jpg', '10.png', '33.png']);
    expect(staged.comicInfo).toBeNull();
    for (const p of staged.pages) expect(fs.readFileSync(p.file).length).toBe(p.bytes);
    // Page numbers in a refusal count the pages already there.
    const bad = await makeZip([{ name: '1.png', data: await makeImage() }, { name: '2.png', data: Buffer.from('text') }]);
    expectRefused(await refusal([put('bad.zip', bad)], { pages: 5, bytes: 0 }), 'notImage', 415, 7, '2.png');
  });

  it('reads ComicInfo.xml: title, number, summary and the page order', async () => {
    const items = [0, 1, 2].map(async (i) => ({ name: `p${i}.png`, data: await makeImage('png', i, 10 + i, 10) }));
    const zip = await makeZip([...(await Promise.all(items)), { name: 'ComicInfo.xml', data: Buffer.from(COMIC_INFO) }]);
    const staged = await stageUpload([put('c.cbz', zip)], workDir);
    expect(staged.comicInfo).toMatchObject({ title: 'The Tower & the Sea', number: 12.5, summary: 'A storm <arrives>.' });
    expect(staged.pages.map((p) => [p.name, p.width])).toEqual([['p2.png', 12], ['p0.png', 10], ['p1.png', 11]]);
  });

  it.each([
    ['../x.png', 'aa/x.png'],
    ['/abs.png', 'xabs.png'],
    ['a\\..\\b.png', 'a_xx_b.png'],
    ['C:/x.png', 'Cx/x.png'],
  ])('refuses an entry named %s (it climbs out), before writing anything', async (bad, placeholder) => {
    const zip = renameInZip(await makeZip([{ name: '1.png', data: await makeImage() }, { name: placeholder, data: await makeImage() }]), placeholder, bad);
    const error = await refusal([put('evil.zip', zip)]);
    expectRefused(error, 'zipPath', 422, null, bad);
  });

  it('refuses a symlink entry', async () => {
    const zip = await makeZip([{ name: '1.png', data: await makeImage() }, { name: '2.png', data: Buffer.from('/etc/passwd'), mode: 0o120777 }]);
    expectRefused(await refusal([put('links.zip', zip)]), 'zipLink', 422, null, '2.png');
  });

  it('refuses a bomb that declares its size, before inflating it', async () => {
    const zip = await makeZip([{ name: '1.png', data: Buffer.concat([await makeImage(), Buffer.alloc(5 * 1024 * 1024)]) }]);
    expect(zip.length).toBeLessThan(50 * 1024);
    expectRefused(await refusal([put('bomb.zip', zip)]), 'zipBomb', 413, 1, '1.png');
  });

  it('stops a bomb that lies about its size at the first byte past what it declared', async () => {
    // 30 MB of zeros behind a PNG signature, declared as 1,000 bytes: ratio and size look fine.
    const zip = declareSize(await makeZip([{ name: '1.png', data: Buffer.concat([await makeImage(), Buffer.alloc(30 * 1024 * 1024)]) }]), 1000);
    const error = await refusal([put('liar.zip', zip)]);
    expectRefused(error, 'zipBomb', 413, 1, '1.png');
  });

  it('refuses an archive whose pages add up past the chapter limit, and one over the page count', async () => {
    const limits = { ...UPLOAD_LIMITS, chapterBytes: 1000 };
    const zip = await makeZip([{ name: '1.png', data: await makeImage() }, { name: '2.png', data: Buffer.concat([await makeImage(), Buffer.alloc(900)]) }]);
    expectRefused(await refusal([put('big.zip', zip)], undefined, limits), 'chapterTooLarge', 413);
    const few = await makeZip([{ name: '1.png', data: await makeImage() }, { name: '2.png', data: await makeImage() }]);
    expectRefused(await refusal([put('many.zip', few)], undefined, { ...UPLOAD_LIMITS, pages: 1 }), 'tooManyPages', 413);
  });

  it('refuses an empty entry, a corrupted page and an archive that is no ZIP at all', async () => {
    expectRefused(await refusal([put('e.zip', await makeZip([{ name: '001.png', data: Buffer.alloc(0) }]))]), 'empty', 422, 1, '001.png');
    const good = await makeImage('png', 1, 300, 300);
    expectRefused(await refusal([put('c.zip', await makeZip([{ name: 'x/1.png', data: good.subarray(0, 200) }]))]), 'corrupt', 422, 1, '1.png');
    const broken = (await makeZip([{ name: '1.png', data: good }])).subarray(0, 100);
    expect((await refusal([put('broken.zip', broken)])).code).toBe('zipUnreadable');
    expectRefused(await refusal([put('none.zip', await makeZip([{ name: 'notes/', directory: true }]))]), 'noFiles', 422);
  });

  it('removes what it inflated when a later page is refused', async () => {
    const zip = await makeZip([{ name: '1.png', data: await makeImage() }, { name: '2.png', data: await makeImage() }, { name: '3.png', data: Buffer.from('nope') }]);
    await refusal([put('late.zip', zip)]);
    await expect(fsp.readdir(workDir)).rejects.toThrow();
  });
});
