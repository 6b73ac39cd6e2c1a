/**
 * Promotional visuals (spec section 3): a series' own visual (series_promotions: IMAGE,
 * ANIMATED_IMAGE, ANIMATION or VIDEO, with its fit, coloring, label and button) or, for a series
 * without one, its showcase as an IMAGE that covers its frame. The home hero draws them, the
 * comic APIs return them, and the wallet's house-ad provider shows one of another series.
 */
import type { DB } from '~/server/db';
import type { SeriesPromotionTable } from '@db/schema';
import type { Selectable } from 'kysely';
import { mediaUrl, seriesPath } from '~/lib/paths';
import { parseImages } from './images';
import * as repo from './repository.server';
import { regionBlocks } from './rules';
import { seriesLocalizer } from './texts.server';
import type { VisualFit, VisualType } from './promotions';

/** One promotional visual, with site-relative media URLs. */
export interface Promotion {
  visualType: VisualType;
  fit: VisualFit;
  /** The visual itself: an image, an animated WebP/GIF, or a video. */
  src: string;
  /** The still shown before a video plays (null for images). */
  poster: string | null;
  width: number;
  height: number;
  coloring: { background: string; text: string };
  /** The site's label ("New season!"), or null. */
  label: string | null;
  /** The site's call-to-action text, or null for the page's own. */
  button: string | null;
}

/** The spec's promotional visual: IMAGE, ANIMATED_IMAGE, ANIMATION or VIDEO, with a fit. */
export interface PromotionalVisual {
  type: VisualType;
  src: string;
  poster: string | null;
  fit: VisualFit;
  series: { id: number; name: string; link: string };
}

type PromotionRow = Selectable<SeriesPromotionTable>;

/** A stored row for a site language ('pt-br' takes the `_pt` texts, falling back to the English ones). */
export function promotionOf(row: PromotionRow, language: string): Promotion {
  const pt = language === 'pt-br';
  const text = (en: string | null, ptText: string | null) => ((pt ? ptText?.trim() || en : en)?.trim() || null);
  return {
    visualType: row.visual_type,
    fit: row.fit,
    src: mediaUrl(row.media_key)!,
    poster: mediaUrl(row.poster_key),
    width: Number(row.width),
    height: Number(row.height),
    coloring: { background: row.background_color, text: row.text_color },
    label: text(row.label, row.label_pt),
    button: text(row.button, row.button_pt),
  };
}

/** The stored promotional visuals of these series for a site language, by series id. */
export async function promotionsOf(db: DB, seriesIds: readonly number[], language: string): Promise<Map<number, Promotion>> {
  const rows = await repo.seriesPromotions(db, seriesIds);
  return new Map(rows.map((r) => [Number(r.series_id), promotionOf(r, language)]));
}

/** How many popular series an ad is drawn from: variety without showing obscure ones. */
const CANDIDATES = 12;

/**
 * A visual promoting another series than `exceptSeriesId`, drawn at random among the popular ones
 * readable in `language` (the content language of the chapter the ad is for) and not blocked in
 * the reader's `country`, named in that language; null when there is none. A series' own
 * promotional visual when it has one; its showcase (or wallpaper, or banner) otherwise.
 */
export async function promotionalVisual(db: DB, exceptSeriesId: number, language: string, country: string | null, random: () => number = Math.random): Promise<PromotionalVisual | null> {
  const [rows, localize] = await Promise.all([repo.promotableSeries(db, exceptSeriesId, language, CANDIDATES), seriesLocalizer(db, language)]);
  const promos = await promotionsOf(db, rows.map((r) => Number(r.id)), language);
  const usable = rows
    .filter((r) => !country || !regionBlocks(r, { geoblocks: r.publisher_geoblocks ?? '[]' }).includes(country))
    .map((r) => ({ r: localize(r), images: parseImages(r.images), promo: promos.get(Number(r.id)) }))
    .filter(({ images, promo }) => promo || images.showcase || images.wallpaper || images.banner);
  if (!usable.length) return null;
  const { r, images, promo } = usable[Math.floor(random() * usable.length) % usable.length]!;
  const series = { id: Number(r.id), name: r.name, link: seriesPath(r) };
  if (promo) return { type: promo.visualType, src: promo.src, poster: promo.poster, fit: promo.fit, series };
  const key = images.showcase ?? images.wallpaper ?? images.banner!;
  return { type: 'IMAGE', src: mediaUrl(key)!, poster: null, fit: 'COVER', series };
}

/** The e4pid of a chapter by id, or null. */
export async function chapterE4pid(db: DB, id: number): Promise<string | null> {
  return (await repo.chapterE4pidById(db, id))?.e4pid ?? null;
}
