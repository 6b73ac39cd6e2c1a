/** GET /api/comments/mutes/: the readers the signed-in reader muted, `{ muted: [{ id, name }] }` (docs/api.md, "Comments"). */
import type { APIRoute } from 'astro';
import { getDb } from '~/server/db';
import { json, jsonError } from '~/server/http';
import { mutedReaders } from '~/features/comments/index.server';

export const GET: APIRoute = async ({ locals }) => {
  if (!locals.user) return jsonError(401, locals.t('comments.error.login'));
  const muted = await mutedReaders(await getDb(), locals.user.id);
  return json({ muted: muted.map((m) => ({ id: m.id, name: m.name })) }, { cache: 'private, no-store' });
};
