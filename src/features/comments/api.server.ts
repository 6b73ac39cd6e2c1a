/** The comments API's JSON shapes and request handling shared by its routes (docs/api.md, "Comments"). */
import type { APIContext } from 'astro';
import { jsonError } from '~/server/http';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { COMMENT_MAX } from './rules';
import type { CommentsPage, CommentView, Refusal } from './comments.server';

/** One comment as the API gives it: the text as written (clients escape it), its segments, and what the viewer may do. */
export function commentJson(c: CommentView): Record<string, unknown> {
  return {
    id: c.id,
    parent: c.parent,
    author: c.deleted ? null : { name: c.author },
    body: c.body,
    segments: c.segments,
    spoiler: c.spoiler,
    created_at: new Date(c.createdAt * 1000).toISOString(),
    when: c.when,
    edited: c.edited,
    deleted: c.deleted,
    likes: c.likes,
    liked: c.liked,
    mine: c.mine,
    editable: c.editable,
    staff: c.staff,
    creator: c.creator,
    replies: c.replies.map(commentJson),
    held: c.held,
    pinned: c.pinned,
  };
}

export function commentsPageJson(p: CommentsPage, canComment: boolean): Record<string, unknown> {
  return {
    pinned: p.pinned ? commentJson(p.pinned) : null,
    best: p.best.map(commentJson),
    comments: p.comments.map(commentJson),
    can_comment: canComment,
    pagination: { page: p.page, last_page: p.lastPage, total: p.total },
  };
}

/** A refusal as the API answers it: {detail}, with Retry-After on 429. */
export function refusalResponse(r: Refusal): Response {
  const res = jsonError(r.status, r.detail);
  if (r.retryAfter) res.headers.set('Retry-After', String(r.retryAfter));
  return res;
}

/** The form of a write (body, parent, spoiler): the fields, or the answer to a broken body. */
export async function commentForm(ctx: APIContext): Promise<{ ok: true; body: string; parent: string | null; spoiler: boolean } | { ok: false; response: Response }> {
  const form = await readForm(ctx.request);
  if (!form.ok) return { ok: false, response: jsonError(form.status, ctx.locals.t(bodyErrorKey(form))) };
  const spoiler = ['1', 'true', 'on'].includes(field(form.value, 'spoiler', 8).toLowerCase());
  // Cut well above the limit (a longer body is still refused, with the limit in the message).
  return { ok: true, body: field(form.value, 'body', COMMENT_MAX * 2 + 1), parent: form.value.get('parent'), spoiler };
}
