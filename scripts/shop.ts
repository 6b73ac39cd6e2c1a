/**
 * npm run shop -- packs
 * npm run shop -- pack --site 1 --code popular --price 999 --keys 100 [--xtra 10] [--position 2] [--inactive]
 * npm run shop -- coupons
 * npm run shop -- coupon --site 1 --code SPRING25 (--percent 25 | --amount 200 | --xtra 20 …) [--max 100] [--per-reader 1] [--starts ISO] [--ends ISO] [--inactive]
 *
 * The key packs and coupons each site sells (docs/payments.md). Prices and amounts are whole
 * minor units (999 is $9.99 on the English site, R$ 9,99 on the Portuguese one); a pack's
 * currency is its site's. `pack` and `coupon` create or change by site and code. Usage errors exit 2.
 * The rules are the studio's (`/studio/shop/`, the same feature functions), and each change
 * writes its audit record as the command line (docs/staff.md).
 */
import { parseArgs } from 'node:util';
import { createDb } from '~/server/db';
import { migrateToLatest } from '@db/migrate';
import { changeCoupon, changePack, couponProblem, listCoupons, listPacks, packProblem, type CouponValues, type PackValues, type ShopSaveResult } from '~/features/commerce/index.server';
import { commandLineActor } from '~/server/audit';

const USAGE = [
  'Usage: npm run shop -- packs',
  '       npm run shop -- pack --site <1|3> --code <code> --price <minor units> --keys <N> [--xtra <N>] [--position <N>] [--inactive]',
  '       npm run shop -- coupons',
  '       npm run shop -- coupon --site <1|3> --code <CODE> [--percent <1-100> | --amount <minor units>] [--xtra <N>] [--max <uses>] [--per-reader <uses>] [--starts <ISO date>] [--ends <ISO date>] [--inactive]',
].join('\n');

function usage(message?: string): never {
  console.error(message ? `${message}\n${USAGE}` : USAGE);
  process.exit(2);
}

const flags = ['site', 'code', 'price', 'keys', 'xtra', 'position', 'percent', 'amount', 'max', 'per-reader', 'starts', 'ends'] as const;
let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { ...Object.fromEntries(flags.map((f) => [f, { type: 'string' as const }])), inactive: { type: 'boolean' } } });
} catch (e) {
  usage((e as Error).message);
}
const { values, positionals } = parsed as { values: Record<string, string | boolean | undefined>; positionals: string[] };
const [command, ...rest] = positionals;
if (!command) usage();
if (!['packs', 'pack', 'coupons', 'coupon'].includes(command)) usage(`Unknown command "${command}".`);
if (rest.length) usage(`Unexpected argument "${rest[0]}".`);

const whole = (name: string, required: boolean): number | null => {
  const raw = values[name];
  if (raw === undefined) {
    if (required) usage(`--${name} is required`);
    return null;
  }
  if (typeof raw !== 'string' || !/^\d{1,12}$/.test(raw)) usage(`--${name} must be a whole number`);
  return Number(raw);
};
const time = (name: string): number | null => {
  const raw = values[name];
  if (raw === undefined) return null;
  const t = Date.parse(String(raw));
  if (!Number.isFinite(t)) usage(`--${name} must be a date such as 2026-12-31T23:59:59Z`);
  return Math.floor(t / 1000);
};

let pack: PackValues | null = null;
let coupon: CouponValues | null = null;
if (command === 'pack' || command === 'coupon') {
  const site = whole('site', true)!;
  if (site !== 1 && site !== 3) usage('--site must be 1 (English) or 3 (Portuguese)');
  const code = String(values.code ?? '');
  if (!code) usage('--code is required');
  if (command === 'pack') {
    pack = { site_id: site, code, currency: site === 3 ? 'BRL' : 'USD', price: whole('price', true)!, keys: whole('keys', true)!, xtra_keys: whole('xtra', false) ?? 0, position: whole('position', false) ?? 0, active: values.inactive ? 0 : 1 };
    const problem = packProblem(pack);
    if (problem) usage(problem);
  } else {
    const amount = whole('amount', false);
    coupon = {
      site_id: site, code, percent_off: whole('percent', false), amount_off: amount, currency: amount == null ? null : site === 3 ? 'BRL' : 'USD', xtra_keys: whole('xtra', false) ?? 0,
      starts_at: time('starts'), ends_at: time('ends'), max_redemptions: whole('max', false), per_reader_limit: whole('per-reader', false) ?? 1, active: values.inactive ? 0 : 1,
    };
    const problem = couponProblem(coupon);
    if (problem) usage(problem);
  }
}

function report(result: ShopSaveResult, what: string): void {
  if (result.outcome === 'invalid') {
    console.error(`${result.problems[0]!.message}\n${USAGE}`);
    process.exitCode = 2;
  } else if (result.outcome === 'unchanged') console.log(`Nothing changed: ${what}.`);
  else console.log(`Saved ${what}.`);
}

const { db } = await createDb();
try {
  await migrateToLatest(db);
  const now = Math.floor(Date.now() / 1000);
  if (command === 'packs') {
    for (const p of await listPacks(db)) console.log(`site ${p.site_id}  ${p.code.padEnd(12)} ${String(p.price).padStart(7)} ${p.currency}  ${p.keys} keys + ${p.xtra_keys} Xtra  position ${p.position}${p.active ? '' : '  (inactive)'}`);
  } else if (command === 'coupons') {
    for (const c of await listCoupons(db)) {
      const off = c.percent_off != null ? `${c.percent_off} % off` : c.amount_off != null ? `${c.amount_off} ${c.currency} off` : 'no discount';
      const window = `${c.starts_at ? new Date(c.starts_at * 1000).toISOString() : '…'} to ${c.ends_at ? new Date(c.ends_at * 1000).toISOString() : '…'}`;
      console.log(`site ${c.site_id}  ${c.code.padEnd(16)} ${off}, +${c.xtra_keys} Xtra, used ${c.redemptions}${c.max_redemptions != null ? `/${c.max_redemptions}` : ''}, ${c.per_reader_limit} per reader, ${window}${c.active ? '' : '  (inactive)'}`);
    }
  } else if (pack) {
    report(await changePack(db, 'upsert', pack, commandLineActor('pricing'), now), `pack ${pack.code} on site ${pack.site_id}`);
  } else if (coupon) {
    report(await changeCoupon(db, 'upsert', coupon, commandLineActor('pricing'), now), `coupon ${coupon.code} on site ${coupon.site_id}`);
  }
} finally {
  await db.destroy();
}
