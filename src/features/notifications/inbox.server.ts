/**
 * The inbox (docs/notifications.md): a reader's items on this site, newest first, each chapter
 * item saying whether the chapter is free, owned (or otherwise readable) or its price for this
 * reader now, from the one pricing rule (wallet's chapterAccessFor). Items name chapters by
 * number only: a chapter title can spoil the story, and the catalogue has no flag to say which do.
 */
import type { DB } from '~/server/db';
import type { Site } from '~/lib/site';
import { findChapter, findSeries } from '~/features/catalog/index.server';
import { chapterAccessFor } from '~/features/wallet/index.server';
import * as repo from './repository.server';

export const INBOX_PAGE_SIZE = 30;
/** The bell counts this many at most ("99+"). */
export const BELL_CAP = 100;

export type AccessNote = { kind: 'free' } | { kind: 'owned' } | { kind: 'readable' } | { kind: 'price'; keys: number } | { kind: 'unavailable' };

export interface InboxItem {
  id: number;
  category: repo.Category;
  kind: string;
  unread: boolean;
  at: number;
  /** Chapter items: the series and the newest chapter, how many chapters the item tells of, and the access note. */
  chapter: { seriesName: string; slug: string; format: string; e4pid: string; number: number; language: string; count: number; access: AccessNote } | null;
  /** Money items: what the event carried (amount, currency, plan). */
  money: Record<string, string | number> | null;
}

export async function unreadCount(db: DB, userId: number, site: Site): Promise<number> {
  return repo.unreadCount(db, userId, site.id, BELL_CAP);
}

function noteOf(access: { readable: boolean; reason: string | null; finalPrice: number; state: string }): AccessNote {
  if (access.reason === 'owned') return { kind: 'owned' };
  if (access.readable && (access.reason === 'free' || access.reason === 'campaign_free' || access.reason === 'strategy_free')) return { kind: 'free' };
  if (access.readable) return { kind: 'readable' };
  if (access.state === 'unavailable') return { kind: 'unavailable' };
  return { kind: 'price', keys: access.finalPrice };
}

/**
 * A chapter item as a reader sees it on `site` now: the series' name in the site's language, the
 * newest chapter by number, and the access note (the inbox, the email digest).
 */
export async function chapterView(db: DB, item: { seriesId: number | null; count: number; data: Record<string, unknown> }, options: { userId: number; site: Site; now: number; country: string | null }): Promise<NonNullable<InboxItem['chapter']>> {
  const { data } = item;
  const e4pid = String(data.e4pid ?? '');
  // The series' name in the site's language (a chapter removed since leaves the item, named as it was).
  const [found, series] = await Promise.all([
    e4pid ? findChapter(db, e4pid, options.site.language) : Promise.resolve(null),
    item.seriesId == null ? Promise.resolve(null) : findSeries(db, String(item.seriesId), options.site.language),
  ]);
  const access = found ? noteOf((await chapterAccessFor(db, { series: found.series, chapter: found.chapter, userId: options.userId, country: options.country, now: options.now })).access) : { kind: 'unavailable' as const };
  return {
    seriesName: series?.name ?? found?.series.name ?? String(data.name ?? ''), slug: String(data.slug ?? ''), format: String(data.format ?? 'COMIC'), e4pid,
    number: Number(data.number ?? 0), language: String(data.language ?? ''), count: item.count, access,
  };
}

export async function loadInbox(db: DB, userId: number, options: { site: Site; page: number; now: number; country: string | null }) {
  const page = Math.max(1, options.page);
  const [rows, total] = await Promise.all([
    repo.inboxPage(db, userId, options.site.id, INBOX_PAGE_SIZE, (page - 1) * INBOX_PAGE_SIZE),
    repo.inboxCount(db, userId, options.site.id),
  ]);
  const items: InboxItem[] = await Promise.all(rows.map(async (r): Promise<InboxItem> => {
    let data: Record<string, unknown> = {};
    try { data = JSON.parse(r.data) as Record<string, unknown>; } catch { /* an item with broken data still shows */ }
    const base = { id: Number(r.id), category: r.category, kind: r.kind, unread: r.read_at == null, at: Number(r.updated_at) };
    if (r.kind !== 'CHAPTER') return { ...base, chapter: null, money: Object.fromEntries(Object.entries(data).filter(([, v]) => typeof v === 'string' || typeof v === 'number')) as Record<string, string | number> };
    return { ...base, money: null, chapter: await chapterView(db, { seriesId: r.series_id, count: Number(r.chapter_count), data }, { userId, site: options.site, now: options.now, country: options.country }) };
  }));
  return { items, total, page, lastPage: Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE)) };
}

export const markRead = repo.markRead;
export const markAllRead = (db: DB, userId: number, site: Site, now: number) => repo.markAllRead(db, userId, site.id, now);
