/**
 * The studio's campaigns (capability `pricing`, issue 27): a series' price campaigns (a discount
 * or all free, over a chapter-number range, within a window), and a preview of what every
 * chapter would cost an anonymous reader and a subscriber at any moment with the campaign as
 * typed, before it is saved. The preview asks the catalogue's one pricing rule (previewPricer)
 * with the edited campaign in place of its stored version; nothing here prices a chapter.
 */
import { previewPricer } from '~/features/catalog/index.server';
import type { Campaign } from '~/features/catalog';
import { writeTransaction, type DB } from '~/server/db';
import { writeAudit, type AuditActor } from '~/server/audit';
import { catalogChanged } from '~/server/cache';
import { fromLocalInput, isTimeZone } from '~/lib/dates';
import type { Site } from '~/lib/site';
import * as repo from './repository.server';
import { pricingRow } from './prices.server';

export type CampaignRow = NonNullable<Awaited<ReturnType<typeof repo.campaignById>>>;
export type CampaignField = 'name' | 'discount' | 'range' | 'window' | 'zone';
export type CampaignErrors = Partial<Record<CampaignField, 'name' | 'discount' | 'range' | 'time' | 'window' | 'zone'>>;
export type ParsedCampaign = { ok: true; values: repo.CampaignValues } | { ok: false; errors: CampaignErrors };

/** Campaign windows are at most a year: a longer one is a typo, and a price that never comes back is a price change. */
const MAX_WINDOW = 366 * 86_400;

/**
 * Reads a campaign form: name, `discount` (whole percent 0-100), `all_free`, the chapter-number
 * range `from`/`to` (empty: open), `starts`/`ends` (datetime-local in `zone`). A campaign must do
 * something (a discount or all free) over a window that ends after it starts.
 */
export function parseCampaign(form: Record<string, string>): ParsedCampaign {
  const errors: CampaignErrors = {};
  const name = (form.name ?? '').trim();
  if (!name || name.length > 80) errors.name = 'name';
  const discountText = (form.discount ?? '').trim() || '0';
  const discount = /^\d{1,3}$/.test(discountText) ? Number(discountText) : NaN;
  const allFree = form.all_free === '1';
  if (!(discount >= 0 && discount <= 100) || (!allFree && discount === 0)) errors.discount = 'discount';
  const bound = (v: string | undefined): number | null | undefined => {
    const s = (v ?? '').trim();
    if (!s) return null;
    return /^\d{1,6}$/.test(s) ? Number(s) : undefined;
  };
  const from = bound(form.from);
  const to = bound(form.to);
  if (from === undefined || to === undefined || (from !== null && to !== null && to < from)) errors.range = 'range';
  const zone = form.zone ?? '';
  let starts: number | null = null;
  let ends: number | null = null;
  if (!isTimeZone(zone)) errors.zone = 'zone';
  else {
    starts = fromLocalInput((form.starts ?? '').trim(), zone);
    ends = fromLocalInput((form.ends ?? '').trim(), zone);
    if (starts === null || ends === null) errors.window = 'time';
    else if (ends <= starts || ends - starts > MAX_WINDOW) errors.window = 'window';
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    values: { name, discount: allFree ? 0 : discount / 100, override_all_free: allFree ? 1 : 0, override_starting_count: from ?? null, override_ending_count: to ?? null, starts_at: starts!, ends_at: ends! },
  };
}

export interface PreviewRow {
  e4pid: string;
  number: number;
  title: string | null;
  listPrice: number;
  /** What each reader is asked at the moment (0: free or included), or null when the rule does not price it (not out, withdrawn). */
  anonymous: { price: number; state: string } | null;
  subscriber: { price: number; state: string; included: boolean } | null;
}

/**
 * Every chapter of the series in the site's language, priced at `at` for an anonymous reader and
 * a subscriber, with the series' stored campaigns, `draft` in place of the one being edited
 * (`editing`; null: a new one). Null: no such series.
 */
export async function campaignPreview(db: DB, site: Site, seriesId: number, at: number, draft: repo.CampaignValues | null, editing: number | null) {
  const series = await repo.seriesHeading(db, seriesId);
  if (!series) return null;
  const stored = (await repo.campaignsOfSeries(db, seriesId)).filter((c) => Number(c.id) !== editing);
  const campaigns: Campaign[] = [...stored.map(asCampaign), ...(draft ? [asCampaign(draft)] : [])];
  const [chapters, price] = await Promise.all([repo.chapterOffers(db, seriesId, site.language), previewPricer(db, seriesId, site.language, at, campaigns)]);
  const rows: PreviewRow[] = chapters.map((c) => {
    const row = pricingRow(c);
    const anon = price(row, 'anonymous');
    const sub = price(row, 'subscriber');
    return {
      e4pid: c.e4pid, number: row.number, title: c.title, listPrice: row.original_price,
      anonymous: anon && { price: anon.readable ? 0 : anon.finalPrice, state: anon.state },
      subscriber: sub && { price: sub.readable ? 0 : sub.finalPrice, state: sub.state, included: sub.readable && sub.reason === 'subscription' },
    };
  });
  return { series, rows };
}

/** A campaign row or form's values (0/1 flags as numbers, PostgreSQL's numerics as strings). */
type CampaignLike = Omit<repo.CampaignValues, 'override_all_free'> & { override_all_free: number };

function asCampaign(c: CampaignLike): Campaign {
  return { name: c.name, override_starting_count: c.override_starting_count == null ? null : Number(c.override_starting_count), override_ending_count: c.override_ending_count == null ? null : Number(c.override_ending_count), override_all_free: Number(c.override_all_free) ? 1 : 0, discount: Number(c.discount), starts_at: Number(c.starts_at), ends_at: Number(c.ends_at) };
}

/** A series' campaigns for its prices page. */
export function seriesCampaigns(db: DB, seriesId: number) {
  return repo.campaignsOfSeries(db, seriesId);
}

/** The campaign page's subject: an existing campaign with its series, or a series for a new one. */
export async function campaignSubject(db: DB, ref: { campaignId: number } | { seriesId: number }) {
  const campaign = 'campaignId' in ref ? await repo.campaignById(db, ref.campaignId) : null;
  if ('campaignId' in ref && !campaign) return null;
  const series = await repo.seriesHeading(db, campaign ? Number(campaign.series_id) : (ref as { seriesId: number }).seriesId);
  return series ? { series, campaign } : null;
}

export type SaveCampaignResult = { outcome: 'saved'; id: number } | { outcome: 'deleted' } | { outcome: 'not-found' } | { outcome: 'invalid'; errors: CampaignErrors };

/**
 * Creates (`campaignId` null) or replaces a campaign of the series from the form, or deletes it
 * (`remove`), with its audit record in the same transaction; then this process forgets its
 * catalogue caches so every surface prices with it.
 */
export async function saveCampaign(db: DB, seriesId: number, campaignId: number | null, form: Record<string, string>, actor: AuditActor, now: number, remove = false): Promise<SaveCampaignResult> {
  const parsed = remove ? null : parseCampaign(form);
  if (parsed && !parsed.ok) return { outcome: 'invalid', errors: parsed.errors };
  const result = await writeTransaction(db, async (tx): Promise<SaveCampaignResult> => {
    if (!(await repo.seriesHeading(tx, seriesId))) return { outcome: 'not-found' };
    const before = campaignId === null ? null : await repo.campaignById(tx, campaignId);
    if (campaignId !== null && (!before || Number(before.series_id) !== seriesId)) return { outcome: 'not-found' };
    if (remove) {
      await repo.deleteCampaign(tx, campaignId!);
      await writeAudit(tx, actor, { action: 'campaign.delete', object: { table: 'campaigns', id: campaignId! }, before: summary(before!), after: null }, now);
      return { outcome: 'deleted' };
    }
    const values = (parsed as { ok: true; values: repo.CampaignValues }).values;
    if (campaignId === null) {
      const id = await repo.insertCampaign(tx, seriesId, values);
      await writeAudit(tx, actor, { action: 'campaign.create', object: { table: 'campaigns', id }, before: null, after: { series_id: seriesId, ...summary(values) } }, now);
      return { outcome: 'saved', id };
    }
    await repo.updateCampaign(tx, campaignId, values);
    await writeAudit(tx, actor, { action: 'campaign.update', object: { table: 'campaigns', id: campaignId }, before: summary(before!), after: summary(values) }, now);
    return { outcome: 'saved', id: campaignId };
  });
  if (result.outcome === 'saved' || result.outcome === 'deleted') catalogChanged();
  return result;
}

function summary(c: CampaignLike) {
  return { name: c.name, discount: Number(c.discount), all_free: Number(c.override_all_free), from: c.override_starting_count == null ? null : Number(c.override_starting_count), to: c.override_ending_count == null ? null : Number(c.override_ending_count), starts_at: Number(c.starts_at), ends_at: Number(c.ends_at) };
}
