/** A plan's rules as `npm run subscriptions -- plan` and the studio's form apply them. */
import { describe, expect, it } from 'vitest';
import { planProblem, planProblems, type PlanValues } from './plans.server';

const PLAN: PlanValues = { site_id: 3, code: 'leitor', name: 'Leitor', benefits: '["Três séries"]', currency: 'BRL', price: 1490, period_months: 1, series_slots: 3, rent_capacity: 5, rent_ttl: 72 * 3600, trial_days: 0, position: 1, active: 1 };
const fields = (p: PlanValues) => planProblems(p).map((x) => `${x.field}:${x.code}`);

describe('planProblems', () => {
  it('accepts the seeded shape', () => {
    expect(planProblems(PLAN)).toEqual([]);
    expect(planProblems({ ...PLAN, benefits: '[]', series_slots: 0, rent_capacity: 0, trial_days: 365, period_months: 12, rent_ttl: 8760 * 3600 })).toEqual([]);
  });

  it('names each wrong field; the command line reads the first', () => {
    expect(fields({ ...PLAN, code: 'Leitor', name: ' ', currency: 'USD', price: 99, period_months: 0, series_slots: -1, rent_capacity: 1001, rent_ttl: 60, trial_days: 366, position: -1, benefits: 'not json' })).toEqual([
      'code:packCode', 'name:planName', 'currency:currency', 'price:price', 'period_months:months', 'series_slots:slots', 'rent_capacity:rentals', 'rent_ttl:rentHours', 'trial_days:trialDays', 'position:position', 'benefits:benefits',
    ]);
    expect(fields({ ...PLAN, benefits: JSON.stringify(Array(11).fill('x')) })).toEqual(['benefits:benefits']);
    expect(fields({ ...PLAN, name: 'x'.repeat(61) })).toEqual(['name:planName']);
    expect(planProblem({ ...PLAN, currency: 'USD' })).toBe('site 3 sells in BRL');
  });
});
