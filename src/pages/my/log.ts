import type { APIRoute } from 'astro';
import { redirectTo } from '~/lib/redirect';
import { historyPath } from '~/lib/paths';

/**
 * The spec's reading "log" is the reading history at /my/history/ (every series read, newest
 * first, with where to continue): folded into it, so this address sends readers there for good
 * (docs/decisions.md, "Credits and the reading log").
 */
export const GET: APIRoute = () => redirectTo(historyPath(), 301);
