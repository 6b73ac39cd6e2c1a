/**
 * JSON shape of the user progress history and the bearer-or-session
 * resolution shared by the token-authenticated APIs.
 */
import type { DB } from '~/server/db';
import { json } from '~/server/http';
import type { HistoryPage } from './progress.server';
import { verifyAppToken } from './tokens.server';
import { isSessionAlive } from '~/features/accounts/index.server';
import { parseJsonObject } from '~/lib/json';
import { type AbsoluteUrl } from '~/lib/paths';
import { cardImage } from '~/features/catalog';



/** `{ history: [...], pagination: { limit, skip, last_page } }` */
export function historyJson(page: HistoryPage, abs: AbsoluteUrl) {
  return {
    history: page.entries.map((e) => ({
      comic: {
        id: e.series.id,
        e4pid: e.series.e4pid,
        name: e.series.name,
        uslug: e.series.slug,
        link: abs(e.series.href),
        cover: abs(cardImage(e.series, 175)),
        format: e.series.format,
      },
      progress: {
        e4pid: e.chapter.e4pid,
        progress: e.completion,
        completed: e.completed,
        completion: e.completion,
        lastRead: new Date(e.lastRead * 1000).toISOString(),
      },
      free_availability: parseJsonObject(e.series.freeAvailability),
      content_url: abs(e.chapter.href),
      /** Where to go on, by the one continue rule (docs/library-progress.md): the chapter's name and the rule's own button text. */
      continue_reading: e.next ? { e4pid: e.next.e4pid, number: e.next.number, kind: e.next.kind, name: e.next.name, text: e.next.label, url: abs(e.next.href) } : null,
    })),
    pagination: { limit: page.limit, skip: page.skip, last_page: page.lastPage },
  };
}

export type Caller = { ok: true; userId: number } | { ok: false; response: Response };

/**
 * The reader behind an API request: a `token` query value (from /sapi/app/token) when present,
 * else the session. A bad or expired token, or one whose session has ended (logout), is a 401
 * with a distinct `code`, so the client knows to fetch a new token and retry.
 */
export async function apiCaller(db: DB, url: URL, sessionUserId: number | null, now: number, messages: { expired: string; invalid: string; login: string }): Promise<Caller> {
  const token = url.searchParams.get('token');
  if (token !== null && token !== '') {
    const v = verifyAppToken(token, now);
    if (v.ok && (await isSessionAlive(db, v.sessionId, v.userId, now))) return { ok: true, userId: v.userId };
    const code = v.ok ? 'token_invalid' : v.code;
    return { ok: false, response: json({ detail: code === 'token_expired' ? messages.expired : messages.invalid, code }, { status: 401, cache: 'no-store' }) };
  }
  if (sessionUserId !== null) return { ok: true, userId: sessionUserId };
  return { ok: false, response: json({ detail: messages.login, code: 'not_authenticated' }, { status: 401, cache: 'no-store' }) };
}
