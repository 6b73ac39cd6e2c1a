/**
 * The chapter preview (spec section 2's "preview" controller; docs/reader.md): a locked chapter of
 * a series whose `preview_pages` is above 0 shows its first pages to anyone, as a teaser before
 * the paywall. How many: the pure rule in promotions.ts (never more than half the chapter).
 * Adult series give no preview (the age gate is a page's, not an image URL's).
 */
import type { ChapterRow, SeriesRow } from '@db/schema';
import type { DB } from '~/server/db';
import * as repo from './repository.server';
import { accessIn, sharedPricingContext } from './pricing.server';
import { previewPageCount } from './promotions';

export interface PreviewPageRow {
  position: number;
  width: number;
  height: number;
}

/** The pages a chapter's preview shows (first pages, in order); empty when the series gives none. */
export async function previewPages(db: DB, series: Pick<SeriesRow, 'preview_pages' | 'adult'>, chapter: Pick<ChapterRow, 'id' | 'page_count'>): Promise<PreviewPageRow[]> {
  const n = Number(series.adult) === 1 ? 0 : previewPageCount(Number(series.preview_pages), Number(chapter.page_count));
  if (n === 0) return [];
  return (await repo.firstChapterPages(db, Number(chapter.id), n)).map((r) => ({ position: Number(r.position), width: Number(r.width), height: Number(r.height) }));
}

/**
 * May anyone in `country` see page `position` of a chapter as its preview now: the chapter is paid
 * and locked for an anonymous visitor (not free, scheduled, withdrawn, blocked or blocked in the
 * country; a free chapter has its own URLs) and the page is among its preview pages. Null when
 * there is no such chapter.
 */
export async function mayPreviewPage(db: DB, input: { e4pid: string; position: number; country: string | null; now: number }): Promise<boolean | null> {
  const ctx = await sharedPricingContext(db, input.e4pid, input.now);
  if (!ctx) return null;
  if (ctx.series.state !== 'ACTIVE') return false;
  if (accessIn(ctx, null, input.country, input.now).state !== 'paid') return false;
  return (await previewPages(db, ctx.series, ctx.chapter)).some((p) => p.position === input.position);
}
