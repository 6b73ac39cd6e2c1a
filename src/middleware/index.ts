/**
 * Every request passes these steps, in this order (Astro's `sequence`: each step's code before
 * `next()` runs top-down, its code after `next()` bottom-up):
 *
 *   context      site, locale, messages, now, theme, country; starts the background release check
 *   compression  (on the way out, last) compresses text answers once
 *   headers      (on the way out) checked Location, default Cache-Control, security headers, CORS
 *   apiErrors    (on the way out) JSON {detail} errors under /api/, /sapi/, /relay/
 *   session      the signed-in reader, if the request carries a session cookie
 *   guard        405 for mutations outside the mutation paths, 403 for foreign origins
 *   limits       the one limiter: 429 past a route's limit (src/server/routes.ts)
 *   appCheck     the bot check: 403 without a valid, unused token where the route table asks for one
 *
 * One concern per step; none of them renders a page. Loading the middleware also tells /metrics
 * where its database figures come from (./figures.ts).
 */
import { sequence } from 'astro:middleware';
import { context } from './context';
import { compression } from './compression';
import { headers } from './headers';
import { apiErrors } from './api-errors';
import { session } from './session';
import { guard } from './guard';
import { limits } from './limits';
import { appCheck } from './app-check';
import './figures';

export const onRequest = sequence(context, compression, headers, apiErrors, session, guard, limits, appCheck);
