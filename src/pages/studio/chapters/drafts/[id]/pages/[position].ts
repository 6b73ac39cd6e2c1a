/**
 * /studio/chapters/drafts/{id}/pages/{position}/: one page of a draft, for staff with `content`
 * only: staging files are never under a public media prefix (src/server/media.ts), so this
 * route is their only way out. Never cached anywhere but the staff member's browser session.
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { requireCapability } from '~/server/staff';
import { parseId } from '~/lib/params';
import { imageType, mediaNotFound, storedResponse } from '~/server/media';
import { draftPageFile } from '~/features/studio/index.server';

export const GET: APIRoute = async (ctx) => {
  const check = requireCapability(ctx, 'content', 'page');
  if (!check.ok) return check.response;
  const id = parseId(ctx.params.id);
  const position = parseId(ctx.params.position);
  const file = id === null || position === null ? null : await draftPageFile(await getDb(), id, position);
  if (!file) return mediaNotFound();
  const headers = new Headers({ 'Content-Type': imageType(file.key) ?? 'application/octet-stream', 'Cache-Control': 'private, no-store', 'X-Content-Type-Options': 'nosniff' });
  return (await storedResponse(file.key, headers, ctx.request.method)) ?? mediaNotFound();
};
