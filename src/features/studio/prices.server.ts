/**
 * The studio's prices (capability `pricing`, issue 27): a series' chapters with what each costs
 * now by the catalogue's one pricing rule, and each chapter's price, availability flags and
 * times. A change and its audit record are one transaction; then this process forgets its
 * catalogue caches and kept pages (catalogChanged), so every surface prices from the new row.
 * The unlock itself always prices inside its own request (docs/wallet.md), so a reader pays the
 * price their request read, before or after the change, never a mix.
 */
import { anonymousPricer, type AnonymousPricer } from '~/features/catalog/index.server';
import { writeTransaction, type DB } from '~/server/db';
import { writeAudit, type AuditActor } from '~/server/audit';
import { catalogChanged } from '~/server/cache';
import { fromLocalInput, isTimeZone } from '~/lib/dates';
import type { Site } from '~/lib/site';
import * as repo from './repository.server';
import { AVAILABILITY_FLAGS, PRICE_MAX, type AvailabilityFlag } from './drafts';

/** A form's flag (the publish form's names) and its column. */
const column = (f: AvailabilityFlag) => `${f}_enabled` as const;

export type ChapterOffer = NonNullable<Awaited<ReturnType<typeof repo.chapterOffer>>>;

/** Series of this site for the prices search (the 50 first by name). */
export function pricesSearch(db: DB, site: Site, q: string) {
  return repo.seriesOnSite(db, site.id, q.trim().toLowerCase().slice(0, 100), 50);
}

export interface PricedOfferRow {
  chapter: ChapterOffer;
  /** What an anonymous reader would be asked now (null: the rule does not price it). */
  finalPrice: number | null;
  state: string | null;
}

/**
 * A series' chapters in the site's language, each with its price now for an anonymous reader,
 * computed by the one pricing rule at `at` (the campaign preview asks other moments). Null: no
 * such series.
 */
export async function seriesPrices(db: DB, site: Site, seriesId: number, at: number) {
  const series = await repo.seriesHeading(db, seriesId);
  if (!series) return null;
  const [chapters, price] = await Promise.all([repo.chapterOffers(db, seriesId, site.language), anonymousPricer(db, [seriesId], site.language, at)]);
  return { series, rows: chapters.map((c) => priced(c, seriesId, price)) };
}

/** An offer row as the pricing rule reads it (PostgreSQL hands bigints and reals over as strings). */
export function pricingRow(c: ChapterOffer) {
  return { ...c, number: Number(c.number), original_price: Number(c.original_price), released_at: Number(c.released_at), sale_at: Number(c.sale_at), expired_at: c.expired_at == null ? null : Number(c.expired_at) };
}

function priced(chapter: ChapterOffer, seriesId: number, price: AnonymousPricer): PricedOfferRow {
  const access = price(seriesId, pricingRow(chapter));
  return { chapter, finalPrice: access ? access.finalPrice : null, state: access ? access.state : null };
}

/** One chapter's offer with its series, for the edit form. */
export async function chapterOfferPage(db: DB, chapterId: number) {
  const chapter = await repo.chapterOffer(db, chapterId);
  if (!chapter) return null;
  const series = await repo.seriesHeading(db, Number(chapter.series_id));
  return series ? { chapter, series } : null;
}

export type OfferField = 'price' | 'release' | 'sale' | 'expiry' | 'zone';
/** Field → message key suffix (`studio.prices.error.*`). */
export type OfferErrors = Partial<Record<OfferField, 'price' | 'time' | 'zone' | 'releasePast' | 'releaseLocked' | 'expiryOrder'>>;

export type SaveOfferResult =
  | { outcome: 'saved'; chapter: ChapterOffer }
  | { outcome: 'unchanged'; chapter: ChapterOffer }
  | { outcome: 'not-found' }
  | { outcome: 'invalid'; errors: OfferErrors };

/**
 * Checks and saves one chapter's offer from the form's fields (the publish form's names for the
 * flags and the same price bound; times are `datetime-local`
 * values in `zone`, the staff member's zone). The release time can change only while the chapter
 * is still scheduled, and only to now or later: moving a released chapter back out of sight would
 * leave readers who own it, feeds and counts behind it. `release_now` releases a scheduled
 * chapter at once. Empty sale time: sales open at release.
 */
export async function saveChapterOffer(db: DB, chapterId: number, form: Record<string, string>, actor: AuditActor, now: number): Promise<SaveOfferResult> {
  const errors: OfferErrors = {};
  const zone = form.zone ?? '';
  if (!isTimeZone(zone)) errors.zone = 'zone';
  const priceText = (form.price ?? '').trim();
  const price = /^\d{1,4}$/.test(priceText) ? Number(priceText) : NaN;
  if (!(price >= 0 && price <= PRICE_MAX)) errors.price = 'price';
  const at = (field: 'release' | 'sale' | 'expiry'): number | null | undefined => {
    const v = (form[field] ?? '').trim();
    if (!v) return null;
    if (errors.zone) return undefined;
    const t = fromLocalInput(v, zone);
    if (t === null) errors[field] = 'time';
    return t ?? undefined;
  };
  const release = at('release');
  const sale = at('sale');
  const expiry = at('expiry');

  return writeTransaction(db, async (tx): Promise<SaveOfferResult> => {
    const before = await repo.chapterOffer(tx, chapterId);
    if (!before) return { outcome: 'not-found' } as const;
    const released = Number(before.released_at) <= now;
    let releasedAt = Number(before.released_at);
    if (form.release_now === '1' && !released) releasedAt = now;
    else if (release !== undefined && release !== null && release !== releasedAt) {
      if (released) errors.release = 'releaseLocked';
      else if (release < now - 60) errors.release = 'releasePast';
      else releasedAt = Math.max(release, now);
    }
    const saleAt = sale === null ? releasedAt : sale ?? releasedAt;
    if (expiry != null && expiry <= Math.max(releasedAt, saleAt)) errors.expiry = 'expiryOrder';
    if (Object.keys(errors).length) return { outcome: 'invalid', errors } as const;
    const change: repo.OfferChange = {
      original_price: price,
      released_at: releasedAt,
      sale_at: saleAt,
      expired_at: expiry ?? null,
      ...Object.fromEntries(AVAILABILITY_FLAGS.map((f) => [column(f), form[f] === '1' ? 1 : 0])) as Record<ReturnType<typeof column>, 0 | 1>,
    };
    const old = summary(before);
    const next = summary({ ...before, ...change });
    if (JSON.stringify(old) === JSON.stringify(next)) return { outcome: 'unchanged', chapter: before } as const;
    await repo.updateChapterOffer(tx, chapterId, change);
    await writeAudit(tx, actor, { action: 'chapter.offer', object: { table: 'chapters', id: chapterId }, before: old, after: next }, now);
    return { outcome: 'saved', chapter: { ...before, ...change } } as const;
  }).then((result) => {
    if (result.outcome === 'saved') catalogChanged();
    return result;
  });
}

/** What the audit trail keeps of an offer (numbers as numbers: PostgreSQL hands bigints over as strings). */
function summary(c: ChapterOffer) {
  return {
    price: Number(c.original_price),
    released_at: Number(c.released_at),
    sale_at: Number(c.sale_at),
    expired_at: c.expired_at == null ? null : Number(c.expired_at),
    ...Object.fromEntries(AVAILABILITY_FLAGS.map((f) => [column(f), Number(c[column(f)])])),
  };
}
