/**
 * Promotional visuals of the catalogue's own series (house ads): an image of another series,
 * with how it should fit its frame. The wallet's house-ad provider shows them.
 */
import type { DB } from '~/server/db';
import { mediaUrl, seriesPath } from '~/lib/paths';
import { parseImages } from './images';
import * as repo from './repository.server';
import { regionBlocks } from './rules';
import { seriesLocalizer } from './texts.server';

/** The spec's promotional visual: IMAGE, ANIMATED_IMAGE, ANIMATION or VIDEO, with a fit. */
export interface PromotionalVisual {
  type: 'IMAGE' | 'ANIMATED_IMAGE' | 'ANIMATION' | 'VIDEO';
  src: string;
  fit: 'COVER' | 'CONTAIN' | 'FILL' | 'FIT_WIDTH' | 'FIT_HEIGHT' | 'NONE' | 'SCALE_DOWN';
  series: { id: number; name: string; link: string };
}

/** How many popular series an ad is drawn from: variety without showing obscure ones. */
const CANDIDATES = 12;

/**
 * A visual promoting another series than `exceptSeriesId`, drawn at random among the popular ones
 * readable in `language` (the content language of the chapter the ad is for) and not blocked in
 * the reader's `country`, named in that language; null when there is none.
 */
export async function promotionalVisual(db: DB, exceptSeriesId: number, language: string, country: string | null, random: () => number = Math.random): Promise<PromotionalVisual | null> {
  const [rows, localize] = await Promise.all([repo.promotableSeries(db, exceptSeriesId, language, CANDIDATES), seriesLocalizer(db, language)]);
  const usable = rows
    .filter((r) => !country || !regionBlocks(r, { geoblocks: r.publisher_geoblocks ?? '[]' }).includes(country))
    .map((r) => ({ r: localize(r), images: parseImages(r.images) }))
    .filter(({ images }) => images.showcase || images.wallpaper || images.banner);
  if (!usable.length) return null;
  const { r, images } = usable[Math.floor(random() * usable.length) % usable.length]!;
  const key = images.showcase ?? images.wallpaper ?? images.banner!;
  return { type: 'IMAGE', src: mediaUrl(key)!, fit: 'COVER', series: { id: Number(r.id), name: r.name, link: seriesPath(r) } };
}

/** The e4pid of a chapter by id, or null. */
export async function chapterE4pid(db: DB, id: number): Promise<string | null> {
  return (await repo.chapterE4pidById(db, id))?.e4pid ?? null;
}
