/**
 * The studio's shop (capability `pricing`, issue 28; docs/staff.md "Shop"): the key packs,
 * coupons and plans of the site the studio is on, listed and edited by form. This file only turns
 * form text into values and the rules' answers into field messages: the rules, the write and its
 * audit record are the commerce and subscriptions features' own (`changePack`, `changeCoupon`,
 * `changePlan`), the same functions `npm run shop` and `npm run subscriptions -- plan` call, so
 * the studio and the command line can never disagree about what a valid pack is.
 *
 * Money is typed as a decimal in the site's currency ("4.99" or "4,99"; parseAmount reads it
 * into minor units without floating point) and stored in minor units. Coupon windows are typed
 * as `datetime-local` in the site's zone (UTC on the English site, Brasília on the Portuguese).
 */
import { changeCoupon, changePack, couponById, couponProblems, listCoupons, listPacks, packById, type CouponValues, type PackValues, type ShopProblem, type ShopSaveResult } from '~/features/commerce/index.server';
import { changePlan, listPlans, planById, type PlanProblem, type PlanValues } from '~/features/subscriptions/index.server';
import type { DB } from '~/server/db';
import type { AuditActor } from '~/server/audit';
import { decimalAmount, formatMoney, parseAmount } from '~/lib/money';
import { fromLocalInput, localInputValue } from '~/lib/dates';
import type { Site } from '~/lib/site';

export type ShopKind = 'pack' | 'coupon' | 'plan';

/** The fields each form posts, in order (the page reads exactly these). */
export const SHOP_FORM_FIELDS: Record<ShopKind, readonly string[]> = {
  pack: ['code', 'currency', 'price', 'keys', 'xtra_keys', 'position', 'active'],
  coupon: ['code', 'percent_off', 'amount_off', 'currency', 'xtra_keys', 'max_redemptions', 'per_reader_limit', 'starts_at', 'ends_at', 'active'],
  plan: ['code', 'name', 'benefits', 'currency', 'price', 'period_months', 'series_slots', 'rent_capacity', 'rent_hours', 'trial_days', 'position', 'active'],
};

/** A field's message: `studio.shop.error.{code}` with its arguments, already formatted for the site. */
export interface ShopFieldError {
  code: string;
  params: Record<string, string | number>;
}
export type ShopFieldErrors = Partial<Record<string, ShopFieldError>>;

export type ShopFormResult =
  | { outcome: 'created' | 'saved' | 'unchanged'; id: number }
  | { outcome: 'invalid'; errors: ShopFieldErrors }
  | { outcome: 'not-found' };

/** The site's packs, coupons and plans, inactive ones included (the overview). */
export async function shopOverview(db: DB, site: Site) {
  const [packs, coupons, plans] = await Promise.all([listPacks(db), listCoupons(db), listPlans(db)]);
  return {
    packs: packs.filter((p) => p.site_id === site.id),
    coupons: coupons.filter((c) => c.site_id === site.id),
    plans: plans.filter((p) => p.site_id === site.id),
  };
}

/** Minor units as the form shows them in the site's language ("4.99", "4,99"). */
export function amountText(minor: number, site: Site): string {
  const text = decimalAmount(minor);
  return site.locale === 'pt-BR' ? text.replace('.', ',') : text;
}

const wholeOr = (text: string | undefined, empty: number | null): number | null => {
  const v = (text ?? '').trim();
  if (!v) return empty;
  return /^\d{1,9}$/.test(v) ? Number(v) : NaN;
};
/** A required or defaulted whole number: NaN when it is not one (the rule says why). */
const whole = (text: string | undefined, empty = NaN): number => wholeOr(text, empty) ?? NaN;
const checked = (text: string | undefined) => (text === '1' ? 1 : 0);

/** The rules' problems as field messages (the first per field), with money and numbers formatted for the site. */
function fieldErrors(problems: readonly (ShopProblem | PlanProblem)[], site: Site, into: ShopFieldErrors = {}): ShopFieldErrors {
  const number = new Intl.NumberFormat(site.locale);
  for (const p of problems) {
    const field = p.field === 'rent_ttl' ? 'rent_hours' : p.field === 'site' ? 'code' : p.field;
    if (into[field]) continue;
    const params: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(p.params ?? {})) {
      if (typeof v !== 'number') params[k] = v;
      else if (k === 'n') params[k] = v;
      else params[k] = (p.code === 'price' || p.code === 'amount') && (k === 'min' || k === 'max') ? formatMoney(v, site.currency, site.locale) : number.format(v);
    }
    if (p.code === 'amount' && params.min === undefined) params.min = formatMoney(1, site.currency, site.locale);
    into[field] = { code: p.code, params };
  }
  return into;
}

const answer = (result: ShopSaveResult | Awaited<ReturnType<typeof changePlan>>, site: Site): ShopFormResult =>
  result.outcome === 'invalid' ? { outcome: 'invalid', errors: fieldErrors(result.problems, site) } : result;

// ---------------------------------------------------------------- packs

export async function packFormValues(db: DB, site: Site, id: number | 'new'): Promise<Record<string, string> | null> {
  if (id === 'new') return { code: '', currency: site.currency, price: '', keys: '', xtra_keys: '0', position: '0', active: '1' };
  const p = await packById(db, id);
  if (!p || p.site_id !== site.id) return null;
  return { code: p.code, currency: p.currency, price: amountText(p.price, site), keys: String(p.keys), xtra_keys: String(p.xtra_keys), position: String(p.position), active: String(Number(p.active)) };
}

/** Checks and saves a pack from the form (create when `id` is `new`), audited by the commerce feature. */
export async function savePackForm(db: DB, site: Site, id: number | 'new', form: Record<string, string>, actor: AuditActor, now: number): Promise<ShopFormResult> {
  const values: PackValues = {
    site_id: site.id, code: (form.code ?? '').trim(), currency: (form.currency ?? '').trim(), price: parseAmount(form.price ?? ''),
    keys: whole(form.keys), xtra_keys: whole(form.xtra_keys, 0), position: whole(form.position, 0), active: checked(form.active),
  };
  return answer(await changePack(db, id === 'new' ? 'new' : { id }, values, actor, now), site);
}

// ---------------------------------------------------------------- coupons

export async function couponFormValues(db: DB, site: Site, id: number | 'new'): Promise<Record<string, string> | null> {
  if (id === 'new') return { code: '', percent_off: '', amount_off: '', currency: site.currency, xtra_keys: '0', max_redemptions: '', per_reader_limit: '1', starts_at: '', ends_at: '', active: '1' };
  const c = await couponById(db, id);
  if (!c || c.site_id !== site.id) return null;
  const time = (at: number | null) => (at == null ? '' : localInputValue(at, site.timeZone));
  return {
    code: c.code, percent_off: c.percent_off == null ? '' : String(c.percent_off), amount_off: c.amount_off == null ? '' : amountText(c.amount_off, site), currency: c.currency ?? site.currency,
    xtra_keys: String(c.xtra_keys), max_redemptions: c.max_redemptions == null ? '' : String(c.max_redemptions), per_reader_limit: String(c.per_reader_limit),
    starts_at: time(c.starts_at), ends_at: time(c.ends_at), active: String(Number(c.active)),
  };
}

/** A coupon's uses so far (shown beside its limit), or null. */
export async function couponUses(db: DB, id: number): Promise<number | null> {
  const c = await couponById(db, id);
  return c ? c.redemptions : null;
}

/** Checks and saves a coupon from the form. The code is kept upper case as the coupon box sends it. */
export async function saveCouponForm(db: DB, site: Site, id: number | 'new', form: Record<string, string>, actor: AuditActor, now: number): Promise<ShopFormResult> {
  const errors: ShopFieldErrors = {};
  const at = (field: 'starts_at' | 'ends_at'): number | null => {
    const v = (form[field] ?? '').trim();
    if (!v) return null;
    const t = fromLocalInput(v, site.timeZone);
    if (t === null) errors[field] = { code: 'time', params: {} };
    return t;
  };
  const amountRaw = (form.amount_off ?? '').trim();
  const amount = amountRaw ? parseAmount(amountRaw) : null;
  const values: CouponValues = {
    site_id: site.id, code: (form.code ?? '').trim().toUpperCase(), percent_off: wholeOr(form.percent_off, null), amount_off: amount,
    currency: amount == null ? null : (form.currency ?? '').trim(), xtra_keys: whole(form.xtra_keys, 0), starts_at: at('starts_at'), ends_at: at('ends_at'),
    max_redemptions: wholeOr(form.max_redemptions, null), per_reader_limit: whole(form.per_reader_limit, 1), active: checked(form.active),
  };
  if (Object.keys(errors).length) {
    // A time that is not one: nothing is written; the rules still speak for the other fields.
    return { outcome: 'invalid', errors: fieldErrors(couponProblems(values), site, errors) };
  }
  return answer(await changeCoupon(db, id === 'new' ? 'new' : { id }, values, actor, now), site);
}

// ---------------------------------------------------------------- plans

export async function planFormValues(db: DB, site: Site, id: number | 'new'): Promise<Record<string, string> | null> {
  if (id === 'new') return { code: '', name: '', benefits: '', currency: site.currency, price: '', period_months: '1', series_slots: '3', rent_capacity: '0', rent_hours: '72', trial_days: '0', position: '0', active: '1' };
  const p = await planById(db, id);
  if (!p || p.site_id !== site.id) return null;
  let benefits: string[] = [];
  try {
    const parsed: unknown = JSON.parse(String(p.benefits));
    if (Array.isArray(parsed)) benefits = parsed.map(String);
  } catch { /* a malformed column shows as no benefits; saving writes a good one */ }
  return {
    code: p.code, name: p.name, benefits: benefits.join('\n'), currency: p.currency, price: amountText(p.price, site), period_months: String(p.period_months),
    series_slots: String(p.series_slots), rent_capacity: String(p.rent_capacity), rent_hours: String(p.rent_ttl / 3600), trial_days: String(p.trial_days),
    position: String(p.position), active: String(Number(p.active)),
  };
}

/** Checks and saves a plan from the form: benefits one a line (blank lines dropped), rentals in hours. */
export async function savePlanForm(db: DB, site: Site, id: number | 'new', form: Record<string, string>, actor: AuditActor, now: number): Promise<ShopFormResult> {
  const hours = whole(form.rent_hours);
  const values: PlanValues = {
    site_id: site.id, code: (form.code ?? '').trim(), name: (form.name ?? '').trim(),
    benefits: JSON.stringify((form.benefits ?? '').split(/\r?\n/).map((b) => b.trim()).filter(Boolean)),
    currency: (form.currency ?? '').trim(), price: parseAmount(form.price ?? ''), period_months: whole(form.period_months, 1), series_slots: whole(form.series_slots),
    rent_capacity: whole(form.rent_capacity, 0), rent_ttl: Number.isSafeInteger(hours) ? hours * 3600 : NaN, trial_days: whole(form.trial_days, 0),
    position: whole(form.position, 0), active: checked(form.active),
  };
  return answer(await changePlan(db, id === 'new' ? 'new' : { id }, values, actor, now), site);
}
