/**
 * The one rule for browser calls that carry the app token from /sapi/app/token (spec section 8):
 * the token is fetched once and reused; a 401 `token_expired` answer renews it once and the call
 * is tried again; any other answer, or a second expiry, goes back to the caller. Used by the
 * history's "Load more" and the series page's refresh.
 */
import { APP_TOKEN_PATH } from './paths';

/** The token itself could not be had (signed out, server down): the caller shows its load error. */
export class AppTokenError extends Error {
  constructor(readonly status: number) {
    super(`app token: ${status}`);
  }
}

export type AppTokenCall = (url: (token: string) => string) => Promise<Response>;

export function appTokenClient(fetcher: typeof fetch = (...args) => fetch(...args)): AppTokenCall {
  let token: string | null = null;
  const renew = async (): Promise<string> => {
    const r = await fetcher(APP_TOKEN_PATH, { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (!r.ok) throw new AppTokenError(r.status);
    const body = (await r.json().catch(() => null)) as { token?: unknown } | null;
    if (typeof body?.token !== 'string' || !body.token) throw new AppTokenError(r.status);
    return body.token;
  };
  return async (url) => {
    for (let attempt = 0; ; attempt++) {
      token ??= await renew();
      const r = await fetcher(url(token), { credentials: 'same-origin', headers: { Accept: 'application/json' } });
      if (r.status === 401 && attempt === 0) {
        const body = (await r.clone().json().catch(() => null)) as { code?: unknown } | null;
        if (body?.code === 'token_expired') {
          token = null;
          continue;
        }
      }
      return r;
    }
  };
}
