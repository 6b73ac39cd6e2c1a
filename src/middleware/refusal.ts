import { escapeHtml } from '~/lib/html';
import { safeNext } from '~/lib/redirect';
import type { AnswerKind } from '~/server/routes';

/** Where a refusal page's "go back" link leads: the page the form was on when it is ours, else home. */
export function backPath(request: Request, url: URL): string {
  const referer = request.headers.get('referer');
  return referer && URL.canParse(referer) && new URL(referer).origin === url.origin ? safeNext(new URL(referer).pathname + new URL(referer).search, '/') : '/';
}

/**
 * A refusal the middleware writes before the route runs (405, 403, 429), in the shape the route's
 * callers read (src/server/routes.ts, `answer`): JSON for the API and the subscription calls,
 * plain text for the checkout island's calls, a small page in the site's language for forms that
 * work without JavaScript. Never cached.
 */
export function refusal(kind: AnswerKind, status: number, text: string, opts: { locale: string; back?: string; backLabel?: string; code?: string; headers?: Record<string, string> }): Response {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...opts.headers };
  if (kind === 'json') {
    // {detail} is the API's error shape; the subscription calls read success/error/message, and the
    // add-comic call shows `error` as it is, so it carries the words too (`code` says which refusal).
    const body = { detail: text, success: false, error: text, message: text, code: opts.code ?? 'refused' };
    return new Response(JSON.stringify(body), { status, headers: { ...headers, 'Content-Type': 'application/json; charset=utf-8' } });
  }
  if (kind === 'text') return new Response(text, { status, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' } });
  const back = opts.back && opts.backLabel ? `<p><a href="${escapeHtml(opts.back)}">${escapeHtml(opts.backLabel)}</a></p>` : '';
  const page = `<!doctype html><html lang="${escapeHtml(opts.locale)}"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><meta name="robots" content="noindex"><title>${status}</title><p>${escapeHtml(text)}</p>${back}</html>`;
  return new Response(page, { status, headers: { ...headers, 'Content-Type': 'text/html; charset=utf-8' } });
}
