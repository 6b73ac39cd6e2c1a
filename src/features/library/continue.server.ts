/**
 * Continue-reading targets for lists of series (history, the home shelf, favorites): the
 * catalogue's one rule (`continueTarget`) over rows loaded for the whole list at once: the
 * reader's progress rows, the chapters from each position on, and first chapters for series
 * without progress. Three queries a list, whatever its length.
 */
import type { DB } from '~/server/db';
import type { T } from '~/lib/i18n';
import type { Site } from '~/lib/site';
import { readerPath } from '~/lib/paths';
import { continueLabel, continueTarget, displayChapterName, newestProgress, type ContinueKind, type ContinueProgress, type Format } from '~/features/catalog';
import * as repo from './repository.server';

export interface ContinueLink {
  kind: ContinueKind;
  e4pid: string;
  number: number;
  language: string;
  /** "Chapter 3", "Episódio 3": the series' own name format or the unit's. */
  name: string;
  /** The button text: "Continue Chapter 3", "Reler Episódio 5", "Start Chapter 1". */
  label: string;
  href: string;
}

export interface ContinueSeries {
  id: number;
  slug: string;
  format: Format;
  chapter_name_format: string | null;
}

export interface ContinueContext {
  now: number;
  t: T;
  site: Pick<Site, 'language' | 'locale'>;
}

/**
 * The continue target of each series (by id) that has an available chapter, and the reader's
 * newest read time in each series they have read (from the same progress rows).
 */
export async function continueLinks(db: DB, userId: number, series: readonly ContinueSeries[], ctx: ContinueContext): Promise<{ links: Map<number, ContinueLink>; lastRead: Map<number, number> }> {
  const out = new Map<number, ContinueLink>();
  const lastRead = new Map<number, number>();
  if (series.length === 0) return { links: out, lastRead };
  const ids = series.map((s) => s.id);
  const progress = new Map<number, ContinueProgress[]>();
  for (const r of await repo.progressRowsInSeries(db, userId, ids)) {
    const sid = Number(r.series_id);
    let list = progress.get(sid);
    if (!list) progress.set(sid, (list = []));
    list.push({ e4pid: r.e4pid, number: Number(r.number), language: r.language, completion: Number(r.completion), completed: Number(r.completed) === 1, lastRead: Number(r.last_read) });
  }
  const from = [...progress].map(([seriesId, rows]) => {
    const at = newestProgress(rows)!;
    lastRead.set(seriesId, Math.max(...rows.map((r) => r.lastRead)));
    return { seriesId, language: at.language, number: at.number };
  });
  const fresh = ids.filter((id) => !progress.has(id));
  const [after, firsts] = await Promise.all([
    from.length > 0 ? repo.chaptersFrom(db, from, ctx.now) : Promise.resolve([]),
    fresh.length > 0 ? repo.firstChaptersOf(db, fresh, ctx.now) : Promise.resolve([]),
  ]);
  const chapters = new Map<number, { e4pid: string; number: number; language: string; released_at: number; expired_at: number | null }[]>();
  for (const c of [...after, ...firsts]) {
    const sid = Number(c.series_id);
    let list = chapters.get(sid);
    if (!list) chapters.set(sid, (list = []));
    list.push({ e4pid: c.e4pid, number: Number(c.number), language: c.language, released_at: Number(c.released_at), expired_at: c.expired_at == null ? null : Number(c.expired_at) });
  }
  for (const s of series) {
    const target = continueTarget(chapters.get(s.id) ?? [], progress.get(s.id) ?? [], ctx.now, ctx.site.language);
    // Everything from the position on is gone (all withdrawn): nothing to continue in that language.
    if (!target) continue;
    const { e4pid, number, language } = target.chapter;
    const name = displayChapterName(ctx.t, ctx.site.locale, s, number);
    out.set(s.id, { kind: target.kind, e4pid, number, language, name, label: continueLabel(ctx.t, target.kind, name), href: readerPath(s, { e4pid, number, language }) });
  }
  return { links: out, lastRead };
}
