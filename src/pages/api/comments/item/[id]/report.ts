/**
 * POST /api/comments/item/{id}/report/: form `reason` (spoiler, spam, harassment, other). One
 * report per reader and comment: a second answers the same and counts nothing. At 3 open
 * reports the comment is held (only its author sees it), at 10 removed (docs/api.md, "Comments").
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { parseCommentId } from '~/features/comments';
import { refusalResponse, reportComment } from '~/features/comments/index.server';

export const POST: APIRoute = async ({ params, locals, request }) => {
  if (!locals.user) return jsonError(401, locals.t('comments.error.login'));
  const id = parseCommentId(params.id);
  if (id === null) return jsonError(404, locals.t('error.api.notFound'));
  const form = await readForm(request);
  if (!form.ok) return jsonError(form.status, locals.t(bodyErrorKey(form)));
  const result = await reportComment(await getDb(), id, field(form.value, 'reason', 32), locals);
  if (!result.ok) return refusalResponse(result);
  return json({ reported: true }, { cache: 'no-store' });
};
