/**
 * The comments page's forms (works without JavaScript): one POST to /comments/{e4pid}/ with an
 * `intent` (post, like, unlike, edit, delete) that comes back to the same place (PRG: 303 to the
 * page, its page and open replies kept, with the comment's anchor), or a refusal shown on the page
 * in the site's language (never a 500). The cases themselves are comments.server.ts's, shared with the API.
 */
import type { DB } from '~/server/db';
import { bodyErrorKey, field, readForm } from '~/server/body';
import { COMMENT_MAX, commentsPath, parseCommentId } from './rules';
import { deleteOwnComment, editOwnComment, likeComment, postComment, type CommentsCtx } from './comments.server';

export const INTENTS = ['post', 'like', 'unlike', 'edit', 'delete'] as const;
export type Intent = (typeof INTENTS)[number];

/** Where the page is: its page of comments and the comment whose replies are all shown. */
export interface PagePlace {
  page: number;
  replies: number | null;
}

/** The page's place from its query string (only whole numbers are kept: nothing else goes back into a URL). */
export function placeOf(search: URLSearchParams): PagePlace {
  const page = Number(search.get('page'));
  return { page: Number.isInteger(page) && page > 1 && page <= 100_000 ? page : 1, replies: parseCommentId(search.get('replies') ?? undefined) };
}

/** The page's URL at a place, with an anchor. */
export function placeUrl(e4pid: string, place: PagePlace, anchor?: string): string {
  const q = new URLSearchParams();
  if (place.page > 1) q.set('page', String(place.page));
  if (place.replies !== null) q.set('replies', String(place.replies));
  const search = q.toString();
  return `${commentsPath(e4pid)}${search ? `?${search}` : ''}${anchor ? `#${anchor}` : ''}`;
}

export type FormOutcome =
  | { kind: 'redirect'; location: string }
  | { kind: 'refused'; status: number; detail: string; retryAfter?: number; draft: string; intent: Intent; id: number | null };

/** Handles one form post of the comments page (the visitor is signed in; the route checked origin and limits). */
export async function handleCommentsForm(db: DB, request: Request, e4pid: string, place: PagePlace, ctx: CommentsCtx): Promise<FormOutcome> {
  const form = await readForm(request);
  if (!form.ok) return { kind: 'refused', status: form.status, detail: ctx.t(bodyErrorKey(form)), draft: '', intent: 'post', id: null };
  const f = form.value;
  const raw = field(f, 'intent', 16);
  const intent: Intent = (INTENTS as readonly string[]).includes(raw) ? (raw as Intent) : 'post';
  const body = field(f, 'body', COMMENT_MAX * 2 + 1);
  const spoiler = ['1', 'true', 'on'].includes(field(f, 'spoiler', 8).toLowerCase());
  const id = parseCommentId(field(f, 'id', 16) || undefined);
  const refused = (r: { status: number; detail: string; retryAfter?: number }): FormOutcome =>
    ({ kind: 'refused', status: r.status, detail: r.detail, ...(r.retryAfter ? { retryAfter: r.retryAfter } : {}), draft: intent === 'post' && !f.get('parent') ? body : '', intent, id });

  if (intent === 'post') {
    const parent = f.get('parent');
    const result = await postComment(db, e4pid, { body, parent, spoiler }, ctx);
    if (!result.ok) return refused(result);
    // A new comment is the newest (page 1); a reply opens its thread so it shows even past the first three.
    const at: PagePlace = result.comment.parent !== null ? { page: place.page, replies: result.comment.parent } : { page: 1, replies: null };
    return { kind: 'redirect', location: placeUrl(e4pid, at, `c-${result.comment.id}`) };
  }
  if (id === null) return refused({ status: 404, detail: ctx.t('error.api.notFound') });
  if (intent === 'like' || intent === 'unlike') {
    const result = await likeComment(db, id, intent === 'like', ctx);
    return result.ok ? { kind: 'redirect', location: placeUrl(e4pid, place, `c-${id}`) } : refused(result);
  }
  if (intent === 'edit') {
    const result = await editOwnComment(db, id, { body, spoiler }, ctx);
    return result.ok ? { kind: 'redirect', location: placeUrl(e4pid, place, `c-${id}`) } : refused(result);
  }
  const result = await deleteOwnComment(db, id, ctx);
  return result.ok ? { kind: 'redirect', location: placeUrl(e4pid, place, 'comments') } : refused(result);
}
