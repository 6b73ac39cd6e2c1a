/**
 * Promotional visuals of the catalogue's own series (house ads): an image of another series,
 * with how it should fit its frame. The wallet's house-ad provider shows them.
 */
import type { DB } from '~/server/db';
import { mediaUrl, seriesPath } from '~/lib/paths';
import { parseImages } from './images';
import * as repo from './repository.server';

/** The spec's promotional visual: IMAGE, ANIMATED_IMAGE, ANIMATION or VIDEO, with a fit. */
export interface PromotionalVisual {
  type: 'IMAGE' | 'ANIMATED_IMAGE' | 'ANIMATION' | 'VIDEO';
  src: string;
  fit: 'COVER' | 'CONTAIN' | 'FILL' | 'FIT_WIDTH' | 'FIT_HEIGHT' | 'NONE' | 'SCALE_DOWN';
  series: { id: number; name: string; link: string };
}

/** How many popular series an ad is drawn from: variety without showing obscure ones. */
const CANDIDATES = 12;

/** A visual promoting another series than `exceptSeriesId`, drawn at random among the popular ones; null when there is none. */
export async function promotionalVisual(db: DB, exceptSeriesId: number, random: () => number = Math.random): Promise<PromotionalVisual | null> {
  const rows = await repo.promotableSeries(db, exceptSeriesId, CANDIDATES);
  const usable = rows
    .map((r) => ({ r, images: parseImages(r.images) }))
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
