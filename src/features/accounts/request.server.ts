import { countRefusal } from '~/server/observe.mjs';
import { retryMinutes } from '~/server/rate-limit';

/**
 * Marks an account-page response as rate limited (429 with Retry-After), counts it in
 * /metrics beside the route limiter's refusals, and returns the message key's minutes.
 */
export function markRateLimited(response: ResponseInit & { headers: Headers }, retryAfter: number, form: 'login' | 'signup' | 'confirm' | 'reset'): { minutes: number } {
  countRefusal(form);
  response.status = 429;
  response.headers.set('Retry-After', String(retryAfter));
  return { minutes: retryMinutes(retryAfter) };
}
