import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { altchaToken, APP_CHECK_TOKEN_MAX, fromBase64Url, splitToken, type AltchaPayload } from '~/lib/app-check';
import { migrateToLatest } from '@db/migrate';
import { ALTCHA_TTL_SECONDS, altchaProvider, turnstileProvider, type AppCheckProvider } from './app-check';
import { createDb, type DB } from './db';

let db: DB;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inkpass-app-check-'));
beforeAll(async () => {
  db = (await createDb(`file:${path.join(dir, 'test.db')}`)).db;
  await migrateToLatest(db);
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const now = () => Math.floor(Date.now() / 1000);
const ctx = () => ({ now: now(), ip: '127.0.0.1' });
const pow = altchaProvider({ difficulty: 8, signatureSecret: 'test-signature-secret-0123456789abcdef', keySecret: 'test-key-secret-0123456789abcdef' });

/** What the browser does: fetch a challenge, find its counter, send both back. */
async function solved(provider: AppCheckProvider = pow, at = now()): Promise<{ token: string; payload: AltchaPayload }> {
  const answer = await provider.challenge(at);
  if (answer.provider !== 'altcha') throw new Error('not a proof-of-work provider');
  const solution = await solveChallenge({ challenge: answer.challenge, deriveKey });
  if (!solution) throw new Error('no solution');
  const payload = { challenge: answer.challenge, solution };
  return { token: altchaToken(payload), payload };
}

function decode(token: string): AltchaPayload {
  return JSON.parse(fromBase64Url(splitToken(token)!.body)!) as AltchaPayload;
}

describe('the proof of work', () => {
  it('signs a challenge that expires and hides a counter within the difficulty', async () => {
    const at = now();
    const answer = await pow.challenge(at);
    expect(answer).toMatchObject({ provider: 'altcha', expires_in: ALTCHA_TTL_SECONDS });
    if (answer.provider !== 'altcha') return;
    expect(answer.challenge.parameters).toMatchObject({ algorithm: 'PBKDF2/SHA-256', cost: 5000, expiresAt: at + ALTCHA_TTL_SECONDS });
    expect(answer.challenge.signature).toMatch(/^[0-9a-f]{64}$/);
    const solution = await solveChallenge({ challenge: answer.challenge, deriveKey });
    expect(solution!.counter).toBeGreaterThanOrEqual(4);
    expect(solution!.counter).toBeLessThanOrEqual(8);
  });

  it('takes a solved token once', async () => {
    const { token } = await solved();
    expect(await pow.verify(db, token, ctx())).toEqual({ ok: true });
    expect(await pow.verify(db, token, ctx())).toEqual({ ok: false, reason: 'used' });
  });

  it('takes a token once when twenty requests bring it at the same moment', async () => {
    const { token } = await solved();
    const verdicts = await Promise.all(Array.from({ length: 20 }, () => pow.verify(db, token, ctx())));
    expect(verdicts.filter((v) => v.ok)).toHaveLength(1);
    expect(verdicts.filter((v) => !v.ok && v.reason === 'used')).toHaveLength(19);
  });

  it('refuses a token once its challenge has expired', async () => {
    const { token } = await solved();
    const at = now();
    expect(await pow.verify(db, token, { now: at + ALTCHA_TTL_SECONDS + 1, ip: '127.0.0.1' })).toEqual({ ok: false, reason: 'expired' });
    // The refusal did not use it up.
    expect(await pow.verify(db, token, ctx())).toEqual({ ok: true });
  });

  it('refuses forged tokens', async () => {
    const { payload } = await solved();
    const forge = (change: (p: AltchaPayload) => void) => {
      const copy = structuredClone(payload);
      change(copy);
      return altchaToken(copy);
    };
    const cases = {
      'a later expiry': forge((p) => (p.challenge.parameters.expiresAt = now() + 86_400)),
      'an easier cost': forge((p) => (p.challenge.parameters.cost = 1)),
      'another key prefix': forge((p) => (p.challenge.parameters.keyPrefix = '00')),
      'another derived key': forge((p) => (p.solution.derivedKey = 'ab'.repeat(32))),
      'no key signature': forge((p) => delete p.challenge.parameters.keySignature),
      'a bad signature': forge((p) => (p.challenge.signature = '0'.repeat(64))),
    };
    for (const [what, token] of Object.entries(cases)) expect(await pow.verify(db, token, ctx()), what).toEqual({ ok: false, reason: 'forged' });
    // Signed with another install's secret.
    const other = altchaProvider({ difficulty: 8, signatureSecret: 'another-install-signature-secret-xx', keySecret: 'another-install-key-secret-xxxxxxx' });
    expect(await pow.verify(db, (await solved(other)).token, ctx())).toEqual({ ok: false, reason: 'forged' });
    // None of them used the genuine one up.
    expect(await pow.verify(db, altchaToken(payload), ctx())).toEqual({ ok: true });
  });

  it('refuses garbage, oversized and other providers\' tokens without a 500', async () => {
    const b64 = (v: unknown) => `altcha.${Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url')}`;
    const malformed = [
      'nonsense', '.', 'altcha', 'altcha.', 'altcha.!!!', 'altcha.%00', b64('not json'), b64('[]'), b64({}), b64({ challenge: {}, solution: {} }),
      b64({ challenge: { parameters: { algorithm: 'SHA-256', nonce: '00'.repeat(16) }, signature: '0'.repeat(64) }, solution: { counter: 1, derivedKey: '00'.repeat(32) } }),
      b64({ challenge: { parameters: { algorithm: 'PBKDF2/SHA-256', nonce: 'x' }, signature: '0'.repeat(64) }, solution: { counter: 1, derivedKey: '00'.repeat(32) } }),
      b64({ challenge: { parameters: { algorithm: 'PBKDF2/SHA-256', nonce: '00'.repeat(16) }, signature: '0'.repeat(64) }, solution: { counter: -1, derivedKey: '00'.repeat(32) } }),
      Buffer.from([0xc3, 0x28]).toString('latin1'),
      `altcha.${'A'.repeat(APP_CHECK_TOKEN_MAX)}`,
      'x'.repeat(1_000_000),
    ];
    const started = performance.now();
    for (const token of malformed) expect(await pow.verify(db, token, ctx()), token.slice(0, 60)).toEqual({ ok: false, reason: 'malformed' });
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await pow.verify(db, '', ctx())).toEqual({ ok: false, reason: 'missing' });
    expect(await pow.verify(db, 'turnstile.XXXX.DUMMY.TOKEN', ctx())).toEqual({ ok: false, reason: 'wrong-provider' });
  });

  it('keeps the used marks of expired tokens only until a prune', async () => {
    const stale = Array.from({ length: 60 }, (_, i) => ({ id: `altcha:stale-${i}`, expires_at: now() - 10 }));
    await db.insertInto('app_check_uses').values(stale).execute();
    for (let i = 0; i < 50; i++) await pow.verify(db, (await solved()).token, ctx());
    const left = await db.selectFrom('app_check_uses').select('id').where('id', 'like', 'altcha:stale-%').execute();
    expect(left).toHaveLength(0);
  });
});

describe('Turnstile', () => {
  type Answer = { status?: number; body?: unknown; delayMs?: number };
  let server: http.Server;
  let url: string;
  const calls: URLSearchParams[] = [];
  const answers = new Map<string, Answer>();
  beforeAll(async () => {
    // A stand-in for Cloudflare's siteverify: answers per token as the test says.
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        const form = new URLSearchParams(body);
        calls.push(form);
        const a = answers.get(form.get('response') ?? '') ?? { body: { success: false, 'error-codes': ['invalid-input-response'] } };
        setTimeout(() => {
          res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
          res.end(typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
        }, a.delayMs ?? 0);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const provider = () => turnstileProvider({ siteKey: 'site-key', secretKey: 'secret-key', verifyUrl: url, timeoutMs: 300 });
  const callsFor = (token: string) => calls.filter((c) => c.get('response') === token).length;

  it('hands out its site key as the challenge', async () => {
    expect(await provider().challenge(now())).toEqual({ provider: 'turnstile', site_key: 'site-key', expires_in: 300 });
  });

  it('asks Cloudflare once per token, with the secret and the reader\'s address', async () => {
    answers.set('good-1', { body: { success: true, hostname: 'localhost' } });
    expect(await provider().verify(db, 'turnstile.good-1', { now: now(), ip: '203.0.113.9' })).toEqual({ ok: true });
    const sent = calls.find((c) => c.get('response') === 'good-1')!;
    expect(sent.get('secret')).toBe('secret-key');
    expect(sent.get('remoteip')).toBe('203.0.113.9');
    expect(await provider().verify(db, 'turnstile.good-1', ctx())).toEqual({ ok: false, reason: 'used' });
    expect(callsFor('good-1')).toBe(1);
  });

  it('reaches Cloudflare once when twenty requests bring one token at once', async () => {
    answers.set('good-2', { body: { success: true } });
    const verdicts = await Promise.all(Array.from({ length: 20 }, () => provider().verify(db, 'turnstile.good-2', ctx())));
    expect(verdicts.filter((v) => v.ok)).toHaveLength(1);
    expect(callsFor('good-2')).toBe(1);
  });

  it('says what Cloudflare refused, and 503 when it does not answer in time or properly', async () => {
    answers.set('dup', { body: { success: false, 'error-codes': ['timeout-or-duplicate'] } });
    answers.set('slow', { body: { success: true }, delayMs: 2_000 });
    answers.set('down', { status: 502, body: 'bad gateway' });
    answers.set('html', { body: '<html>' });
    expect(await provider().verify(db, 'turnstile.dup', ctx())).toEqual({ ok: false, reason: 'expired' });
    expect(await provider().verify(db, 'turnstile.forged', ctx())).toEqual({ ok: false, reason: 'forged' });
    const started = performance.now();
    expect(await provider().verify(db, 'turnstile.slow', ctx())).toEqual({ ok: false, reason: 'unavailable' });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(await provider().verify(db, 'turnstile.down', ctx())).toEqual({ ok: false, reason: 'unavailable' });
    expect(await provider().verify(db, 'turnstile.html', ctx())).toEqual({ ok: false, reason: 'unavailable' });
  });

  it('refuses garbage and proof-of-work tokens before asking Cloudflare', async () => {
    const before = calls.length;
    for (const token of ['turnstile.', 'turnstile.a b', `turnstile.${'a'.repeat(2049)}`, 'turnstile.<script>', 'nonsense']) {
      expect(await provider().verify(db, token, ctx()), token.slice(0, 40)).toEqual({ ok: false, reason: 'malformed' });
    }
    expect(await provider().verify(db, (await solved()).token, ctx())).toEqual({ ok: false, reason: 'wrong-provider' });
    expect(calls.length).toBe(before);
  });
});

describe('token spelling', () => {
  it('round-trips a payload through base64url', async () => {
    const { token, payload } = await solved();
    expect(token).toMatch(/^altcha\.[A-Za-z0-9_-]+$/);
    expect(decode(token)).toEqual(JSON.parse(JSON.stringify(payload)));
    expect(fromBase64Url('!!')).toBeNull();
  });
});
