/**
 * Plans as staff change them, from the command line (`npm run subscriptions -- plans | plan …`)
 * or the studio (`/studio/shop/plans/`), one set of rules for both, and the seed's plans. The
 * plans page and the subscription checkout read plans from the database on every request; a
 * charge keeps the amount it was created with, and each renewal charges the plan's price then.
 */
import { writeTransaction, type DB } from '~/server/db';
import { writeAudit, type AuditActor } from '~/server/audit';
import { catalogChanged } from '~/server/cache';
import * as repo from './repository.server';

export type PlanValues = repo.PlanValues;

/** Bounds for a plan's numbers (minor units for the price: 1.00 to 10,000.00; rentals last up to a year). */
export const PLAN_LIMITS = { minPrice: 100, maxPrice: 1_000_000, maxSlots: 1_000, maxRentals: 1_000, maxRentHours: 8_760, maxTrialDays: 365, maxPosition: 10_000, maxBenefits: 10, maxBenefitLength: 200 } as const;

/** One thing wrong with a plan: its field, the studio's message code (`studio.shop.error.{code}`) and the command line's text. */
export interface PlanProblem {
  field: string;
  code: string;
  params?: Record<string, number | string>;
  message: string;
}

const whole = (v: number, min: number, max: number) => Number.isSafeInteger(v) && v >= min && v <= max;

function benefitLines(json: string): string[] | null {
  try {
    const v: unknown = JSON.parse(json);
    return Array.isArray(v) && v.every((b) => typeof b === 'string') ? v : null;
  } catch {
    return null;
  }
}

/** Everything wrong with a plan (empty: none). The command line prints the first; the studio shows each beside its field. */
export function planProblems(p: PlanValues): PlanProblem[] {
  const L = PLAN_LIMITS;
  const out: PlanProblem[] = [];
  if (p.site_id !== 1 && p.site_id !== 3) return [{ field: 'site', code: 'site', message: 'site must be 1 (English) or 3 (Portuguese)' }];
  const currency = p.site_id === 3 ? 'BRL' : 'USD';
  if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(p.code)) out.push({ field: 'code', code: 'packCode', message: 'code must be lower-case letters, digits and hyphens (up to 40)' });
  if (!p.name.trim() || p.name.length > 60 || /[\u0000-\u001f\u007f]/.test(p.name)) out.push({ field: 'name', code: 'planName', message: 'a plan needs a name of up to 60 characters' });
  if (p.currency !== currency) out.push({ field: 'currency', code: 'currency', params: { currency }, message: `site ${p.site_id} sells in ${currency}` });
  if (!whole(p.price, L.minPrice, L.maxPrice)) out.push({ field: 'price', code: 'price', params: { min: L.minPrice, max: L.maxPrice }, message: `price must be a whole number of minor units, at least ${L.minPrice} and at most ${L.maxPrice}` });
  if (!whole(p.period_months, 1, 12)) out.push({ field: 'period_months', code: 'months', message: 'a period is 1 to 12 months' });
  if (!whole(p.series_slots, 0, L.maxSlots)) out.push({ field: 'series_slots', code: 'slots', params: { max: L.maxSlots }, message: `series_slots must be a whole number from 0 to ${L.maxSlots}` });
  if (!whole(p.rent_capacity, 0, L.maxRentals)) out.push({ field: 'rent_capacity', code: 'rentals', params: { max: L.maxRentals }, message: `rent_capacity must be a whole number from 0 to ${L.maxRentals}` });
  if (!whole(p.rent_ttl, 3600, L.maxRentHours * 3600)) out.push({ field: 'rent_ttl', code: 'rentHours', params: { max: L.maxRentHours }, message: `a rental lasts from an hour to ${L.maxRentHours} hours (rent_ttl in seconds)` });
  if (!whole(p.trial_days, 0, L.maxTrialDays)) out.push({ field: 'trial_days', code: 'trialDays', params: { max: L.maxTrialDays }, message: `trial_days must be a whole number from 0 to ${L.maxTrialDays}` });
  if (!whole(p.position, 0, L.maxPosition)) out.push({ field: 'position', code: 'position', params: { max: L.maxPosition }, message: `position must be a whole number from 0 to ${L.maxPosition}` });
  const benefits = benefitLines(p.benefits);
  if (!benefits || benefits.length > L.maxBenefits || benefits.some((b) => !b.trim() || b.length > L.maxBenefitLength || /[\u0000-\u001f\u007f]/.test(b))) {
    out.push({ field: 'benefits', code: 'benefits', params: { max: L.maxBenefits, length: L.maxBenefitLength }, message: `benefits are up to ${L.maxBenefits} lines of up to ${L.maxBenefitLength} characters` });
  }
  return out;
}

/** What is wrong with a plan, or null (the command line's one line). */
export function planProblem(p: PlanValues): string | null {
  return planProblems(p)[0]?.message ?? null;
}

export function listPlans(db: DB) {
  return repo.allPlans(db);
}

export async function savePlan(db: DB, p: PlanValues, now: number): Promise<void> {
  const problem = planProblem(p);
  if (problem) throw new Error(problem);
  await repo.upsertPlan(db, p, now);
}

/** Writes the starting plans when there are none; returns how many it wrote. */
export async function seedPlans(db: DB, plans: readonly PlanValues[], now: number): Promise<number> {
  return writeTransaction(db, async (trx) => {
    if ((await repo.allPlans(trx)).length > 0) return 0;
    for (const p of plans) await savePlan(trx, p, now);
    return plans.length;
  });
}

export type PlanSaveResult =
  | { outcome: 'created' | 'saved' | 'unchanged'; id: number }
  | { outcome: 'invalid'; problems: PlanProblem[] }
  | { outcome: 'not-found' };

const planSummary = (p: PlanValues) => ({
  code: p.code, name: p.name, benefits: p.benefits, currency: p.currency, price: Number(p.price), period_months: Number(p.period_months), series_slots: Number(p.series_slots),
  rent_capacity: Number(p.rent_capacity), rent_ttl: Number(p.rent_ttl), trial_days: Number(p.trial_days), position: Number(p.position), active: Number(p.active),
});

/**
 * Checks and writes a plan with its audit record (`plan.create`, `plan.update`: before and after
 * of the fields that changed) in one transaction; a save that changes nothing writes nothing.
 * `new` refuses a code the site has, `{ id }` keeps the row's site and code, `upsert` is the
 * command line's create-or-change by code. The plans page may be kept by the page cache, so a
 * change empties it (catalogChanged) and the next visitor sees the new plan.
 */
export async function changePlan(db: DB, target: 'new' | 'upsert' | { id: number }, p: PlanValues, actor: AuditActor, now: number): Promise<PlanSaveResult> {
  const result = await writeTransaction(db, async (tx): Promise<PlanSaveResult> => {
    const row = typeof target === 'object' ? await repo.findPlanById(tx, target.id) : await repo.findPlan(tx, p.site_id, { code: p.code });
    if (typeof target === 'object' && (!row || row.site_id !== p.site_id)) return { outcome: 'not-found' };
    const values: PlanValues = row ? { ...p, site_id: row.site_id, code: row.code } : p;
    const problems = planProblems(values);
    if (target === 'new' && row) problems.push({ field: 'code', code: 'codeTaken', message: `site ${p.site_id} already has a plan ${p.code}` });
    if (problems.length) return { outcome: 'invalid', problems };
    if (!row) {
      const id = await repo.insertPlan(tx, values, now);
      await writeAudit(tx, actor, { action: 'plan.create', object: { table: 'plans', id }, after: { site_id: values.site_id, ...planSummary(values) } }, now);
      return { outcome: 'created', id };
    }
    const before = planSummary({ ...row, benefits: typeof row.benefits === 'string' ? row.benefits : JSON.stringify(row.benefits) });
    const after = planSummary(values);
    const keys = (Object.keys(after) as (keyof typeof after)[]).filter((k) => before[k] !== after[k]);
    if (!keys.length) return { outcome: 'unchanged', id: row.id };
    await repo.updatePlan(tx, row.id, values, now);
    const pick = (o: typeof after) => Object.fromEntries(keys.map((k) => [k, o[k]]));
    await writeAudit(tx, actor, { action: 'plan.update', object: { table: 'plans', id: row.id }, before: pick(before), after: pick(after) }, now);
    return { outcome: 'saved', id: row.id };
  });
  if (result.outcome === 'created' || result.outcome === 'saved') catalogChanged();
  return result;
}

/** One plan by id (the studio's form), or undefined. */
export function planById(db: DB, id: number) {
  return repo.findPlanById(db, id);
}
