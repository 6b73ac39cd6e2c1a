/**
 * A local stand-in for Sentry's ingestion endpoint, for the error-reporting tests: an HTTP server
 * on a free port that takes POST /api/<project>/envelope/ (and the older /store/), decodes the
 * envelope (newline-delimited JSON: a header line, then an item header and payload per item;
 * gzip or deflate when Content-Encoding says so) and keeps what arrived. It can answer 429 with
 * Retry-After or X-Sentry-Rate-Limits on demand, to watch the SDK back off. It only reads what
 * the official SDK sends; it sends nothing.
 */
import http from 'node:http';
import zlib from 'node:zlib';
import type { AddressInfo } from 'node:net';

export interface EnvelopeItem {
  type: string;
  payload: Record<string, any>;
}
export interface ReceivedEnvelope {
  at: number;
  project: string;
  header: Record<string, any>;
  items: EnvelopeItem[];
  /** The raw text, for tests that look for a secret anywhere in what arrived. */
  raw: string;
  /** What the receiver answered. */
  status: number;
}

export interface SentryReceiver {
  port: number;
  /** A DSN for project 42 pointing here. */
  dsn: string;
  envelopes: ReceivedEnvelope[];
  /** Error events (`event` items), in arrival order. */
  events(): Record<string, any>[];
  /** Transaction items, in arrival order. */
  transactions(): Record<string, any>[];
  /** Everything that arrived, as one text. */
  rawText(): string;
  /** The next `count` envelopes are answered 429 with these headers (say { 'Retry-After': '5' }). */
  refuse(count: number, headers?: Record<string, string>): void;
  /** Waits until `test` holds, polling. */
  waitFor(test: () => boolean, timeoutMs?: number): Promise<void>;
  clear(): void;
  close(): Promise<void>;
}

function decode(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'gzip') return zlib.gunzipSync(body).toString('utf8');
  if (encoding === 'deflate') return zlib.inflateSync(body).toString('utf8');
  if (encoding === 'br') return zlib.brotliDecompressSync(body).toString('utf8');
  return body.toString('utf8');
}

/** Parses an envelope: header line, then per item a header line and a payload (by `length` when given, else one line). */
export function parseEnvelope(text: string): { header: Record<string, any>; items: EnvelopeItem[] } {
  let rest = text;
  const line = () => {
    const nl = rest.indexOf('\n');
    const out = nl < 0 ? rest : rest.slice(0, nl);
    rest = nl < 0 ? '' : rest.slice(nl + 1);
    return out;
  };
  const header = JSON.parse(line() || '{}');
  const items: EnvelopeItem[] = [];
  while (rest.trim()) {
    const itemHeader = JSON.parse(line());
    let payloadText: string;
    if (typeof itemHeader.length === 'number') {
      const bytes = Buffer.from(rest, 'utf8');
      payloadText = bytes.subarray(0, itemHeader.length).toString('utf8');
      rest = bytes.subarray(itemHeader.length).toString('utf8').replace(/^\n/, '');
    } else {
      payloadText = line();
    }
    let payload: Record<string, any>;
    try { payload = JSON.parse(payloadText); } catch { payload = { raw: payloadText }; }
    items.push({ type: String(itemHeader.type), payload });
  }
  return { header, items };
}

export async function startSentryReceiver(): Promise<SentryReceiver> {
  const envelopes: ReceivedEnvelope[] = [];
  let refusals = 0;
  let refusalHeaders: Record<string, string> = {};
  const server = http.createServer((req, res) => {
    const m = /^\/api\/([^/]+)\/(envelope|store)\/?(\?.*)?$/.exec(req.url ?? '');
    if (req.method !== 'POST' || !m) {
      res.writeHead(404).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let status = 200;
      let headers: Record<string, string> = { 'Content-Type': 'application/json' };
      if (refusals > 0) {
        refusals--;
        status = 429;
        headers = { ...headers, ...refusalHeaders };
      }
      try {
        const raw = decode(Buffer.concat(chunks), req.headers['content-encoding']);
        // The old store endpoint takes one event as plain JSON.
        const parsed = m[2] === 'store' ? { header: {}, items: [{ type: 'event', payload: JSON.parse(raw) }] } : parseEnvelope(raw);
        envelopes.push({ at: Date.now(), project: m[1]!, ...parsed, raw, status });
      } catch {
        status = 400;
      }
      res.writeHead(status, headers).end(status === 200 ? '{}' : '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const accepted = () => envelopes.filter((e) => e.status === 200);
  const itemsOf = (type: string) => accepted().flatMap((e) => e.items.filter((i) => i.type === type).map((i) => i.payload));
  return {
    port,
    dsn: `http://publickey@127.0.0.1:${port}/42`,
    envelopes,
    events: () => itemsOf('event'),
    transactions: () => itemsOf('transaction'),
    rawText: () => envelopes.map((e) => e.raw).join('\n'),
    refuse(count, headers = {}) {
      refusals = count;
      refusalHeaders = headers;
    },
    async waitFor(test, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (!test()) {
        if (Date.now() > deadline) throw new Error(`the receiver did not get what was expected within ${timeoutMs} ms (${envelopes.length} envelopes)`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    clear() {
      envelopes.length = 0;
    },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
