/** Plans as staff change them (`npm run subscriptions -- plans | plan …`) and the seed's plans. */
import { writeTransaction, type DB } from '~/server/db';
import * as repo from './repository.server';

export type PlanValues = repo.PlanValues;

export function planProblem(p: PlanValues): string | null {
  if (p.site_id !== 1 && p.site_id !== 3) return 'site must be 1 (English) or 3 (Portuguese)';
  if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(p.code)) return 'code must be lower-case letters, digits and hyphens (up to 40)';
  if (!p.name.trim() || p.name.length > 60) return 'a plan needs a name of up to 60 characters';
  if (p.currency !== (p.site_id === 3 ? 'BRL' : 'USD')) return `site ${p.site_id} sells in ${p.site_id === 3 ? 'BRL' : 'USD'}`;
  if (!Number.isSafeInteger(p.price) || p.price < 100) return 'price must be a whole number of minor units, at least 100';
  for (const [k, v] of [['period_months', p.period_months], ['series_slots', p.series_slots], ['rent_capacity', p.rent_capacity], ['trial_days', p.trial_days]] as const) {
    if (!Number.isSafeInteger(v) || v < 0) return `${k} must be a whole number, 0 or more`;
  }
  if (p.period_months < 1 || p.period_months > 12) return 'a period is 1 to 12 months';
  if (!Number.isSafeInteger(p.rent_ttl) || p.rent_ttl < 3600) return 'a rental lasts at least an hour (rent_ttl in seconds)';
  return null;
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
