/**
 * POST mutes the author of comment {id} for the signed-in reader, DELETE unmutes them:
 * /api/comments/item/{id}/mute/. No comment of a muted author reaches the reader after, on the
 * comments page or in the API. Idempotent; answers `{ muted, user: { id, name } }`.
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { parseCommentId } from '~/features/comments';
import { muteAuthorOf, refusalResponse } from '~/features/comments/index.server';

const handle = (on: boolean): APIRoute => async ({ params, locals }) => {
  if (!locals.user) return jsonError(401, locals.t('comments.error.login'));
  const id = parseCommentId(params.id);
  if (id === null) return jsonError(404, locals.t('error.api.notFound'));
  const result = await muteAuthorOf(await getDb(), id, on, locals);
  if (!result.ok) return refusalResponse(result);
  return json({ muted: on, user: { id: result.userId, name: result.name } }, { cache: 'no-store' });
};

export const POST = handle(true);
export const DELETE = handle(false);
