import type { APIRoute } from 'astro';
import { redirectTo } from '~/lib/redirect';
import { intParam } from '~/server/http';
import { keysPath } from '~/lib/paths';

/**
 * The spec's "credits" controller is the keys history Inkpass already has at /my/keys/ (the
 * balances and every movement of them): one page, so this address sends readers there for good
 * (docs/decisions.md, "Credits and the reading log").
 */
export const GET: APIRoute = ({ url }) => redirectTo(keysPath(intParam(url.searchParams.get('page'), 1, 1, 100_000)), 301);
