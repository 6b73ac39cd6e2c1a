/**
 * The series card: the one view of a series that every list shows (listing, home blocks, latest
 * updates, schedule, relay, favorites, history, campaign slides). Each surface extends it with
 * its own fields; every repository that lists series selects SERIES_CARD_COLUMNS and maps rows
 * with toSeriesCard. Pure and browser-safe.
 */
import { mediaUrl, seriesPath, type Format } from '~/lib/paths';
import { parseImages, type SeriesImages } from './images';

export interface SeriesCard {
  id: number;
  e4pid: string;
  slug: string;
  name: string;
  format: Format;
  adult: boolean;
  color: string;
  /** Media keys by kind; pick a size with cardImage. */
  images: SeriesImages;
  /** The series page. */
  href: string;
}

/** The series columns a card is made from, as a row has them. */
export interface SeriesCardRow {
  id: number | string | bigint;
  e4pid: string;
  slug: string;
  name: string;
  format: Format;
  adult: number;
  color: string;
  images: string;
}

/** What a query selects for a card (from `series`). */
export const SERIES_CARD_COLUMNS = [
  'series.id', 'series.e4pid', 'series.slug', 'series.name', 'series.format', 'series.adult', 'series.color', 'series.images',
] as const;

export function toSeriesCard(r: SeriesCardRow): SeriesCard {
  return {
    id: Number(r.id),
    e4pid: r.e4pid,
    slug: r.slug,
    name: r.name,
    format: r.format,
    adult: Number(r.adult) === 1,
    color: r.color,
    images: parseImages(r.images),
    href: seriesPath(r),
  };
}

/** Card cover sizes (7:10): `thumbnail` is 175 × 250, `thumbnail_140` 140 × 200, `thumbnail_70` 70 × 100. */
export type CardImageSize = 175 | 140 | 70;

/** The URL of a card's cover at a size (the nearest one the series has), or null. */
export function cardImage(card: Pick<SeriesCard, 'images'>, size: CardImageSize): string | null {
  const i = card.images;
  const key = size === 175 ? i.thumbnail ?? i.thumbnail_140 : size === 140 ? i.thumbnail_140 ?? i.thumbnail_70 ?? i.thumbnail : i.thumbnail_70 ?? i.thumbnail;
  return mediaUrl(key);
}
