/**
 * /my/keys/: the reader's two balances and what moved them, newest first, a page of
 * transactions at a time, each saying what it was for (a chapter unlocked, with its bonus; a
 * grant and its reason; a purchase; a daily pass or an ad rental; a refund taking a purchase's keys
 * back, or giving them back when the refund was refused).
 */
import { chapterLinks } from '~/features/catalog/index.server';
import type { DB } from '~/server/db';
import type { T } from '~/lib/i18n';
import type { Locale } from '~/lib/site';
import { balancesOf, type Balances } from './ledger.server';
import * as repo from './repository.server';

export const KEYS_PAGE_SIZE = 25;

export interface KeysEntry {
  id: number;
  kind: 'unlock' | 'grant' | 'welcome' | 'purchase' | 'daily_pass' | 'ad' | 'refund_hold' | 'refund_release' | 'other';
  at: number;
  /** Staff's reason for a grant. */
  reason: string | null;
  /** What it did to each balance (0: untouched). */
  keys: number;
  xtra: number;
  chapter: { name: string; series: string; path: string } | null;
}

export interface KeysPage {
  balances: Balances;
  entries: KeysEntry[];
  page: number;
  pages: number;
}

const KINDS = new Set(['unlock', 'grant', 'welcome', 'purchase', 'daily_pass', 'ad', 'refund_hold', 'refund_release']);

export async function keysPage(db: DB, userId: number, page: number, t: T, locale: Locale): Promise<KeysPage> {
  const [balances, total] = await Promise.all([balancesOf(db, userId), repo.transactionCount(db, userId)]);
  const pages = Math.max(1, Math.ceil(total / KEYS_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pages);
  const rows = await repo.transactionsOf(db, userId, KEYS_PAGE_SIZE, (current - 1) * KEYS_PAGE_SIZE);
  const [entries, chapters] = await Promise.all([
    repo.readerEntriesOf(db, userId, rows.map((r) => r.id)),
    chapterLinks(db, [...new Set(rows.flatMap((r) => (r.chapter_id ? [r.chapter_id] : [])))], t, locale),
  ]);
  return {
    balances,
    page: current,
    pages,
    entries: rows.map((r) => {
      const mine = entries.filter((e) => e.transaction_id === r.id);
      const sum = (c: 'keys' | 'xtra') => mine.filter((e) => e.currency === c).reduce((s, e) => s + e.amount, 0);
      return {
        id: r.id,
        kind: (KINDS.has(r.kind) ? r.kind : 'other') as KeysEntry['kind'],
        at: r.created_at,
        reason: r.reason,
        keys: sum('keys'),
        xtra: sum('xtra'),
        chapter: r.chapter_id ? (chapters.get(r.chapter_id) ?? null) : null,
      };
    }),
  };
}
