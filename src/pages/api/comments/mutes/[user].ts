/** POST mutes, DELETE unmutes a reader by account id: /api/comments/mutes/{user id}/ (the muted list's id). Answers `{ muted, user: { id, name } }`. */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { parseId } from '~/lib/params';
import { muteReader, refusalResponse } from '~/features/comments/index.server';

const handle = (on: boolean): APIRoute => async ({ params, locals }) => {
  if (!locals.user) return jsonError(401, locals.t('comments.error.login'));
  const id = parseId(params.user);
  if (id === null) return jsonError(404, locals.t('error.api.notFound'));
  const result = await muteReader(await getDb(), id, on, locals);
  if (!result.ok) return refusalResponse(result);
  return json({ muted: on, user: { id: result.userId, name: result.name } }, { cache: 'no-store' });
};

export const POST = handle(true);
export const DELETE = handle(false);
