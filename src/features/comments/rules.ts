/** Comments: pure rules (validation, markup, ranking, windows), shared by the server, pages and tests. */

/** At most this many characters (code points) in a comment, after trimming. */
export const COMMENT_MAX = 2000;
/** Top-level comments per page of the newest. */
export const COMMENTS_PAGE_SIZE = 20;
/** How many "best" comments lead the first page. */
export const BEST_COUNT = 3;
/** Replies shown before the rest are collapsed. */
export const REPLIES_SHOWN = 3;
/** An author may edit a comment this long after writing it (seconds). */
export const EDIT_WINDOW = 10 * 60;
/** An account younger than this (seconds) is a new account, with a tighter daily limit. */
export const NEW_ACCOUNT_AGE = 24 * 60 * 60;

export type BodyCheck = { ok: true; body: string } | { ok: false; reason: 'empty' | 'tooLong' };

// C0 and C1 control characters other than tab and line feed: nothing a reader types, and NUL
// breaks PostgreSQL text. Bidi controls are kept (they are text; the page isolates each comment).
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The body as stored: line ends unified, control characters removed, trimmed; empty or too long is refused. */
export function checkBody(raw: string): BodyCheck {
  const body = raw.replace(/\r\n?/g, '\n').replace(CONTROLS, '').trim();
  if (!body) return { ok: false, reason: 'empty' };
  if (codePoints(body) > COMMENT_MAX) return { ok: false, reason: 'tooLong' };
  return { ok: true, body };
}

function codePoints(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** The same text for the duplicate rule: case and runs of white space do not make a comment new. */
export function sameText(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/\s+/g, ' ').trim();
  return norm(a) === norm(b);
}

/** A piece of a comment's text: plain text or a link (http and https only), inside a spoiler or not. */
export type Segment = { kind: 'text'; text: string; spoiler: boolean } | { kind: 'link'; text: string; href: string; spoiler: boolean };

// A link is an http(s) URL up to white space or a character HTML treats specially; anything else
// (javascript:, data:, a bare domain) stays text.
const URL_RE = /https?:\/\/[^\s<>"'`]+/gi;
// Punctuation that usually ends the sentence rather than the URL.
const TRAILING = /[.,;:!?)\]}]+$/;

function linkify(text: string, spoiler: boolean, out: Segment[]): void {
  let last = 0;
  for (const m of text.matchAll(URL_RE)) {
    let raw = m[0];
    const trail = TRAILING.exec(raw);
    if (trail) raw = raw.slice(0, raw.length - trail[0].length);
    let href: string | null = null;
    try {
      const u = new URL(raw);
      if ((u.protocol === 'http:' || u.protocol === 'https:') && u.hostname) href = u.href;
    } catch {
      href = null;
    }
    if (!href) continue;
    const start = m.index;
    if (start > last) out.push({ kind: 'text', text: text.slice(last, start), spoiler });
    out.push({ kind: 'link', text: raw, href, spoiler });
    last = start + raw.length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last), spoiler });
}

/**
 * The comment's text in segments: `||hidden||` marks a spoiler (an unclosed `||` stays as
 * typed), and http(s) URLs become links. Everything else is text, whatever it looks like.
 */
export function parseBody(body: string): Segment[] {
  const parts = body.split('||');
  const out: Segment[] = [];
  // With an even number of parts the last `||` is unclosed: it is text.
  const closedParts = parts.length % 2 === 1 ? parts.length : parts.length - 1;
  for (let i = 0; i < closedParts; i++) {
    const part = parts[i]!;
    if (part) linkify(part, i % 2 === 1, out);
  }
  if (closedParts < parts.length) linkify(`||${parts[parts.length - 1]!}`, false, out);
  // Neighbouring text pieces of the same kind are merged (an unclosed `||` split them).
  return out.reduce<Segment[]>((acc, s) => {
    const prev = acc[acc.length - 1];
    if (prev && prev.kind === 'text' && s.kind === 'text' && prev.spoiler === s.spoiler) prev.text += s.text;
    else acc.push({ ...s });
    return acc;
  }, []);
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function pieceHtml(s: Segment): string {
  const text = escape(s.text).replace(/\n/g, '<br>');
  return s.kind === 'link' ? `<a href="${escape(s.href)}" rel="nofollow ugc noopener" target="_blank">${text}</a>` : text;
}

/**
 * The comment's body as HTML: every character of the reader's text escaped, links with
 * rel="nofollow ugc", each spoiler run in a <details> (works without JavaScript).
 */
export function bodyHtml(segments: readonly Segment[], spoilerLabel: string): string {
  let html = '';
  let i = 0;
  while (i < segments.length) {
    if (!segments[i]!.spoiler) {
      html += pieceHtml(segments[i]!);
      i++;
      continue;
    }
    let inner = '';
    while (i < segments.length && segments[i]!.spoiler) inner += pieceHtml(segments[i++]!);
    html += `<details class="c-spoiler"><summary>${escape(spoilerLabel)}</summary>${inner}</details>`;
  }
  return html;
}

/**
 * The lower bound of the Wilson score interval (docs/decisions.md, "Best comments"): the share of
 * `n` readers who liked the comment, as low as it plausibly is at 95 % confidence (z = 1.96).
 * `likes` above `n` counts as n (a like from a reader who left no view).
 */
export function wilsonLowerBound(likes: number, n: number, z = 1.96): number {
  const total = Math.max(n, likes);
  if (total <= 0) return 0;
  const p = likes / total;
  const z2 = z * z;
  return (p + z2 / (2 * total) - z * Math.sqrt((p * (1 - p) + z2 / (4 * total)) / total)) / (1 + z2 / total);
}

/** The best comments: at least one like, highest Wilson lower bound first, then the most liked, then the newest. */
export function pickBest<C extends { id: number; likes: number; createdAt: number }>(comments: readonly C[], views: number, count = BEST_COUNT): C[] {
  return comments
    .filter((c) => c.likes > 0)
    .map((c) => ({ c, score: wilsonLowerBound(c.likes, views) }))
    .sort((a, b) => b.score - a.score || b.c.likes - a.c.likes || b.c.createdAt - a.c.createdAt || b.c.id - a.c.id)
    .slice(0, count)
    .map((x) => x.c);
}

/** Whether its author may still edit a comment written at `createdAt`. */
export function editable(createdAt: number, now: number): boolean {
  return now - createdAt <= EDIT_WINDOW;
}

/** A comment id as the routes take it: a positive integer in range, or null. */
export function parseCommentId(raw: string | undefined): number | null {
  if (!raw || !/^[1-9][0-9]{0,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n <= 2_147_483_647 ? n : null;
}

/** The server-rendered comments page of a chapter (works without JavaScript). */
export function commentsPath(e4pid: string, page = 1): string {
  return `/comments/${encodeURIComponent(e4pid)}/${page > 1 ? `?page=${page}` : ''}`;
}
