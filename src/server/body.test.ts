import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readFileUpload, type FileUploadOptions } from './body';
import { multipart } from '../../tests/support/uploads';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-body-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
let n = 0;

function options(extra: Partial<FileUploadOptions> = {}): FileUploadOptions {
  return { dir: path.join(root, `up-${++n}`), maxBytes: 10_000, maxFileBytes: (head) => (head[0] === 0x50 ? 8_000 : 1_000), maxFiles: 3, ...extra };
}

function post(body: Buffer | string, type: string, headers: Record<string, string> = {}): Request {
  return new Request('http://localhost/studio/chapters/new/', { method: 'POST', body: typeof body === 'string' ? body : new Uint8Array(body), headers: { 'content-type': type, ...headers } });
}

describe('readFileUpload (multipart streamed to files)', () => {
  it('writes each file to the folder and keeps the text fields; an empty file input is no file', async () => {
    const { body, type } = multipart([{ name: 'number', value: '12.5' }, { name: 'pages', file: { name: 'C:\\Users\\ana\\2.png', data: Buffer.from('two') } }, { name: 'pages', file: { name: '', data: Buffer.alloc(0) } }]);
    const opts = options();
    const got = await readFileUpload(post(body, type), opts);
    if (!got.ok) throw new Error(`refused: ${got.reason}`);
    expect(got.fields.get('number')).toBe('12.5');
    expect(got.files.map((f) => [f.field, f.name, f.size])).toEqual([['pages', '2.png', 3]]);
    expect(fs.readFileSync(got.files[0]!.path, 'utf8')).toBe('two');
    expect(path.dirname(got.files[0]!.path)).toBe(opts.dir);
  });

  it('stops a file at its limit (judged by its first bytes) and names it, with 413', async () => {
    const image = multipart([{ name: 'pages', file: { name: 'big.png', data: Buffer.alloc(1_500, 1) } }]);
    expect(await readFileUpload(post(image.body, image.type), options())).toMatchObject({ ok: false, status: 413, limit: 'file', file: 'big.png' });
    // An archive (first byte P) may be larger.
    const zip = multipart([{ name: 'pages', file: { name: 'c.cbz', data: Buffer.concat([Buffer.from('PK'), Buffer.alloc(1_500)]) } }]);
    expect((await readFileUpload(post(zip.body, zip.type), options())).ok).toBe(true);
  });

  it('refuses too many files, a body announced too large, a wrong type and a broken body', async () => {
    const many = multipart([1, 2, 3, 4].map((i) => ({ name: 'pages', file: { name: `${i}.png`, data: Buffer.from('x') } })));
    expect(await readFileUpload(post(many.body, many.type), options())).toMatchObject({ ok: false, status: 413, limit: 'files' });
    const one = multipart([{ name: 'pages', file: { name: '1.png', data: Buffer.from('x') } }]);
    expect(await readFileUpload(post(one.body, one.type, { 'content-length': '99999999' }), options())).toMatchObject({ ok: false, status: 413 });
    expect(await readFileUpload(post('a=1', 'application/x-www-form-urlencoded'), options())).toMatchObject({ ok: false, status: 415 });
    expect(await readFileUpload(post('--z\r\nbroken', 'multipart/form-data; boundary=z'), options())).toMatchObject({ ok: false, status: 400 });
    const nul = multipart([{ name: 'title', value: 'a\u0000b' }]);
    expect(await readFileUpload(post(nul.body, nul.type), options())).toMatchObject({ ok: false, status: 400 });
  });
});
