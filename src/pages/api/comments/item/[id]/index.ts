/**
 * One comment, by its author (docs/api.md, "Comments"):
 *   PATCH  /api/comments/item/{id}/  form body, spoiler?; within 10 minutes of posting it;
 *   DELETE /api/comments/item/{id}/  leaves "deleted" while it has replies.
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { parseCommentId } from '~/features/comments';
import { commentForm, commentJson, deleteOwnComment, editOwnComment, refusalResponse } from '~/features/comments/index.server';

export const PATCH: APIRoute = async (ctx) => {
  const { params, locals } = ctx;
  if (!locals.user) return jsonError(401, locals.t('comments.error.login'));
  const id = parseCommentId(params.id);
  if (id === null) return jsonError(404, locals.t('error.api.notFound'));
  const form = await commentForm(ctx);
  if (!form.ok) return form.response;
  const result = await editOwnComment(await getDb(), id, form, locals);
  if (!result.ok) return refusalResponse(result);
  return json(commentJson(result.comment), { cache: 'no-store' });
};

export const DELETE: APIRoute = async ({ params, locals }) => {
  if (!locals.user) return jsonError(401, locals.t('comments.error.login'));
  const id = parseCommentId(params.id);
  if (id === null) return jsonError(404, locals.t('error.api.notFound'));
  const result = await deleteOwnComment(await getDb(), id, locals);
  if (!result.ok) return refusalResponse(result);
  return json({ deleted: true }, { cache: 'no-store' });
};
