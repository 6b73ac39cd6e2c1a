import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { bufferedBytes, compress, SINK_HEADER, type BodySink } from './http';

const page = '<!DOCTYPE html><html><body>' + '<p>Capítulo … página</p>'.repeat(400) + '</body></html>';
const html = (body: BodyInit) => new Response(body, { headers: { 'Content-Type': 'text/html' } });

describe('bufferedBytes', () => {
  it('gives the bytes a Response was made from, the same as reading its body', async () => {
    const bytes = new TextEncoder().encode(page);
    const fast = bufferedBytes(html(bytes));
    // Node 20's bundled fetch keeps the bytes where the fast path looks; elsewhere it must step aside, not guess.
    if (process.versions.node.startsWith('20.')) expect(fast).toBeDefined();
    if (fast) expect(Buffer.compare(fast, Buffer.from(bytes))).toBe(0);
    expect(Buffer.from(await html(bytes).arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
  });

  it('steps aside for string and stream bodies and for a body already read', async () => {
    expect(bufferedBytes(html(page))).toBeUndefined();
    expect(bufferedBytes(html(new Blob([page]).stream()))).toBeUndefined();
    const used = html(new TextEncoder().encode(page));
    await used.text();
    expect(bufferedBytes(used)).toBeUndefined();
  });
});

describe('compress', () => {
  for (const [name, make] of [
    ['bytes', () => html(new TextEncoder().encode(page))],
    ['a string', () => html(page)],
    ['a stream', () => html(new Blob([page]).stream())],
  ] as const) {
    it(`compresses a page made from ${name} to the same text`, async () => {
      const br = await compress(make(), 'gzip, br');
      expect(br.headers.get('Content-Encoding')).toBe('br');
      expect(zlib.brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(page);
      const gz = await compress(make(), 'gzip');
      expect(gz.headers.get('Content-Encoding')).toBe('gzip');
      expect(zlib.gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(page);
    });
  }

  it('leaves a compressed 200 in the sink, marked, with its length, and the Response empty', async () => {
    const sink: BodySink = {};
    const res = await compress(html(new TextEncoder().encode(page)), 'br', undefined, sink);
    expect(res.body).toBeNull();
    expect(res.headers.get(SINK_HEADER)).toBe('1');
    expect(Number(res.headers.get('Content-Length'))).toBe(sink.body!.length);
    expect(zlib.brotliDecompressSync(sink.body!).toString()).toBe(page);
  });

  it('keeps other statuses and uncompressed answers in the Response', async () => {
    const sink: BodySink = {};
    const notFound = await compress(new Response(page, { status: 404, headers: { 'Content-Type': 'text/html' } }), 'br', undefined, sink);
    expect(sink.body).toBeUndefined();
    expect(notFound.headers.has(SINK_HEADER)).toBe(false);
    expect(zlib.brotliDecompressSync(Buffer.from(await notFound.arrayBuffer())).toString()).toBe(page);
    const plain = await compress(html(page), 'identity', undefined, sink);
    expect(sink.body).toBeUndefined();
    expect(await plain.text()).toBe(page);
  });
});
