import { retryMinutes } from '~/server/rate-limit';

/** Marks an account-page response as rate limited (429 with Retry-After) and returns the message key's minutes. */
export function markRateLimited(response: ResponseInit & { headers: Headers }, retryAfter: number): { minutes: number } {
  response.status = 429;
  response.headers.set('Retry-After', String(retryAfter));
  return { minutes: retryMinutes(retryAfter) };
}
