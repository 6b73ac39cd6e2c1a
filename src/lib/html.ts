/**
 * Escaping for markup built as strings, and helpers that keep a page's text inside Latin-1.
 *
 * V8 stores a string whose characters are all below U+0100 with one byte per character and any
 * other string with two. A rendered page is one string, so a single "…" in the shared header
 * doubles the memory of every page and slows its encoding and compression: about 3 % of the
 * series page's server time. Text that every page carries goes through these helpers, which
 * write characters above U+00FF as character references (HTML) or \u escapes (JSON); the
 * browser reads the same text.
 */

const ENTITY: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const SPECIAL = /[&<>"']/;
const WIDE = /[\u0100-\u{10FFFF}]/gu;

/** Escaped for HTML text or a quoted attribute value (the string itself when nothing needs it). */
export function escapeHtml(text: string): string {
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (c) => ENTITY[c]!) : text;
}

/** `escapeHtml`, with characters above U+00FF as `&#N;`. */
export function latin1Html(text: string): string {
  return escapeHtml(text).replace(WIDE, (c) => `&#${c.codePointAt(0)};`);
}

/**
 * JSON for a `<script type="application/json">` element: `<` and every character above U+00FF
 * as \u escapes (surrogate pairs for characters beyond U+FFFF), so it can neither close the
 * element nor widen the page.
 */
export function latin1Json(value: unknown): string {
  return JSON.stringify(value).replace(/[<\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
