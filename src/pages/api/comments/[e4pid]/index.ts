/**
 * A chapter's comments (docs/api.md, "Comments"):
 *   GET  /api/comments/{chapter e4pid}/?page=N  the best three (page 1), then the newest, 20 a page, with replies;
 *   POST /api/comments/{chapter e4pid}/         form body, parent?, spoiler?; 201 with the comment.
 */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { intParam, json, jsonError } from '~/server/http';
import { chapterForComments, commentForm, commentJson, commentsPageJson, listComments, postComment, refusalResponse } from '~/features/comments/index.server';

export const GET: APIRoute = async ({ params, url, locals }) => {
  const db = await getDb();
  const chapter = await chapterForComments(db, params.e4pid ?? '', locals);
  if (!chapter) return jsonError(404, locals.t('error.api.notFound'));
  const page = await listComments(db, chapter.chapterId, intParam(url.searchParams.get('page'), 1, 1, 100_000), locals);
  // Per reader (liked, mine, editable): never shared.
  return json(commentsPageJson(page, chapter.closed === null), { cache: 'private, no-store' });
};

export const POST: APIRoute = async (ctx) => {
  const { params, locals } = ctx;
  if (!locals.user) return jsonError(401, locals.t('comments.error.login'));
  const form = await commentForm(ctx);
  if (!form.ok) return form.response;
  const result = await postComment(await getDb(), params.e4pid ?? '', form, locals);
  if (!result.ok) return refusalResponse(result);
  return json(commentJson(result.comment), { status: 201, cache: 'no-store' });
};
