import { describe, expect, it } from 'vitest';
import zlib from 'node:zlib';
import { compress, methodNotAllowed, SINK_HEADER, type BodySink } from './http';

const page = '<!DOCTYPE html><html><body>' + '<p>Capítulo … página</p>'.repeat(400) + '</body></html>';
const html = (body: BodyInit) => new Response(body, { headers: { 'Content-Type': 'text/html' } });

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

describe('methodNotAllowed', () => {
  it('lets the allowed methods through (HEAD with GET) and answers 405 naming them otherwise', () => {
    expect(methodNotAllowed('GET', 'GET')).toBeNull();
    expect(methodNotAllowed('HEAD', 'GET, POST')).toBeNull();
    expect(methodNotAllowed('POST', 'POST')).toBeNull();
    const refused = methodNotAllowed('POST', 'GET')!;
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD');
    expect(methodNotAllowed('DELETE', 'GET, POST')!.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(methodNotAllowed('GET', 'POST')!.headers.get('allow')).toBe('POST');
  });
});
