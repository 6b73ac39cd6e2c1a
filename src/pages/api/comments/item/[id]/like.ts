/**
 * POST likes a comment, DELETE takes the like back: /api/comments/item/{id}/like/
 * Idempotent and race-safe (one row per reader and comment); answers `{ liked, likes }`.
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { parseCommentId } from '~/features/comments';
import { likeComment, refusalResponse } from '~/features/comments/index.server';

const handle = (on: boolean): APIRoute => async ({ params, locals }) => {
  if (!locals.user) return jsonError(401, locals.t('comments.error.login'));
  const id = parseCommentId(params.id);
  if (id === null) return jsonError(404, locals.t('error.api.notFound'));
  const result = await likeComment(await getDb(), id, on, locals);
  if (!result.ok) return refusalResponse(result);
  return json({ liked: result.liked, likes: result.likes }, { cache: 'no-store' });
};

export const POST = handle(true);
export const DELETE = handle(false);
