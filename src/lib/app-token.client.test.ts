import { describe, expect, it } from 'vitest';
import { AppTokenError, appTokenClient } from './app-token.client';

/** A fake server: token answers in turn, and the API answers per call. */
function fake(api: Response[], tokens: Response[] = []) {
  const calls: string[] = [];
  let n = 0;
  const fetcher = (async (input: RequestInfo | URL) => {
    const url = String(input);
    calls.push(url);
    if (url.startsWith('/sapi/app/token')) return tokens.shift() ?? Response.json({ token: `t${++n}` });
    return api.shift() ?? Response.json({ ok: true });
  }) as typeof fetch;
  return { fetcher, calls };
}
const expired = () => Response.json({ detail: 'The token has expired.', code: 'token_expired' }, { status: 401 });

describe('appTokenClient', () => {
  it('fetches a token once and reuses it', async () => {
    const { fetcher, calls } = fake([]);
    const call = appTokenClient(fetcher);
    await call((t) => `/api/a?token=${t}`);
    await call((t) => `/api/b?token=${t}`);
    expect(calls).toEqual(['/sapi/app/token?ttl=3600', '/api/a?token=t1', '/api/b?token=t1']);
  });

  it('renews an expired token once and retries the call', async () => {
    const { fetcher, calls } = fake([expired(), Response.json({ ok: true })]);
    const r = await appTokenClient(fetcher)((t) => `/api/a?token=${t}`);
    expect(r.status).toBe(200);
    expect(calls).toEqual(['/sapi/app/token?ttl=3600', '/api/a?token=t1', '/sapi/app/token?ttl=3600', '/api/a?token=t2']);
  });

  it('gives a second expiry, or another 401, back to the caller without more renewals', async () => {
    const twice = fake([expired(), expired()]);
    expect((await appTokenClient(twice.fetcher)((t) => `/api/a?token=${t}`)).status).toBe(401);
    expect(twice.calls.filter((c) => c.startsWith('/sapi/'))).toHaveLength(2);
    const invalid = fake([Response.json({ code: 'token_invalid' }, { status: 401 })]);
    expect((await appTokenClient(invalid.fetcher)((t) => `/api/a?token=${t}`)).status).toBe(401);
    expect(invalid.calls).toHaveLength(2);
  });

  it('fails with AppTokenError when no token can be had', async () => {
    const { fetcher } = fake([], [new Response('', { status: 401 })]);
    await expect(appTokenClient(fetcher)((t) => `/api/a?token=${t}`)).rejects.toBeInstanceOf(AppTokenError);
  });
});
