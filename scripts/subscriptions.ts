/**
 * npm run subscriptions -- renew
 * npm run subscriptions -- plans
 * npm run subscriptions -- plan --site 3 --code leitor --name "Leitor" --price 1490 --slots 3 [--rentals 5] [--rent-hours 72] [--trial-days 0] [--months 1] [--position 1] [--benefit "…" …] [--inactive]
 *
 * `renew` (meant for cron, safe to run twice and twice at once) charges the next period of every
 * subscription due soon and moves subscriptions along as their time runs out (docs/subscriptions.md).
 * `plans` lists the plans; `plan` creates or changes one by site and code. Usage errors exit 2.
 */
import { parseArgs } from 'node:util';
import { createDb } from '~/server/db';
import { migrateToLatest } from '@db/migrate';
import { createT } from '~/lib/i18n';
import { changePlan, listPlans, planProblem, type PlanValues } from '~/features/subscriptions/index.server';
import { commandLineActor } from '~/server/audit';
import { renewSubscriptions } from '~/features/commerce/index.server';

const USAGE = [
  'Usage: npm run subscriptions -- renew',
  '       npm run subscriptions -- plans',
  '       npm run subscriptions -- plan --site <1|3> --code <code> --name "<name>" --price <minor units> --slots <N> [--rentals N] [--rent-hours N] [--trial-days N] [--months N] [--position N] [--benefit "<line>" …] [--inactive]',
].join('\n');

function usage(message?: string): never {
  console.error(message ? `${message}\n${USAGE}` : USAGE);
  process.exit(2);
}

const flags = ['site', 'code', 'name', 'price', 'slots', 'rentals', 'rent-hours', 'trial-days', 'months', 'position'] as const;
let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { ...Object.fromEntries(flags.map((f) => [f, { type: 'string' as const }])), benefit: { type: 'string', multiple: true }, inactive: { type: 'boolean' } } });
} catch (e) {
  usage((e as Error).message);
}
const { values, positionals } = parsed as { values: Record<string, string | string[] | boolean | undefined>; positionals: string[] };
const [command, ...rest] = positionals;
if (!command) usage();
if (!['renew', 'plans', 'plan'].includes(command)) usage(`Unknown command "${command}".`);
if (rest.length) usage(`Unexpected argument "${rest[0]}".`);

const whole = (name: string, fallback?: number): number => {
  const raw = values[name];
  if (raw === undefined) {
    if (fallback === undefined) usage(`--${name} is required`);
    return fallback;
  }
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw)) usage(`--${name} must be a whole number`);
  return Number(raw);
};

let plan: PlanValues | null = null;
if (command === 'plan') {
  const site = whole('site');
  const name = typeof values.name === 'string' ? values.name : '';
  plan = {
    site_id: site, code: String(values.code ?? ''), name, benefits: JSON.stringify(values.benefit ?? []), currency: site === 3 ? 'BRL' : 'USD', price: whole('price'),
    period_months: whole('months', 1), series_slots: whole('slots'), rent_capacity: whole('rentals', 0), rent_ttl: whole('rent-hours', 72) * 3600,
    trial_days: whole('trial-days', 0), position: whole('position', 0), active: values.inactive ? 0 : 1,
  };
  const problem = planProblem(plan);
  if (problem) usage(problem);
}

const { db } = await createDb();
try {
  await migrateToLatest(db);
  const now = Math.floor(Date.now() / 1000);
  if (command === 'renew') {
    const s = await renewSubscriptions(db, now, createT('pt-BR')('purchase.pix.qrLabel'));
    console.log(`renew: ${s.due} renewals due, ${s.charged} charged; ${s.pastDue} past due, ${s.expired} expired.`);
  } else if (command === 'plans') {
    for (const p of await listPlans(db)) console.log(`site ${p.site_id}  ${p.code.padEnd(14)} ${String(p.price).padStart(7)} ${p.currency}/${p.period_months} mo  ${p.series_slots} slots, ${p.rent_capacity} rentals, trial ${p.trial_days} d${p.active ? '' : '  (inactive)'}  ${p.name}`);
  } else if (plan) {
    // The studio's rules and audit record (`/studio/shop/plans/`, docs/staff.md).
    const result = await changePlan(db, 'upsert', plan, commandLineActor('pricing'), now);
    if (result.outcome === 'invalid') {
      console.error(`${result.problems[0]!.message}\n${USAGE}`);
      process.exitCode = 2;
    } else console.log(result.outcome === 'unchanged' ? `Nothing changed: plan ${plan.code} on site ${plan.site_id}.` : `Saved plan ${plan.code} on site ${plan.site_id}.`);
  }
} finally {
  await db.destroy();
}
// The payment providers reach the database through the process's shared handle, whose idle
// PostgreSQL connections would keep a run that charged anything alive for another 10 s.
process.exit(); // with process.exitCode (2 when a plan was refused)
