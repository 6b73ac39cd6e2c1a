/**
 * Unlocking a chapter with keys (the redeem call): one write transaction that prices the chapter
 * with the catalogue's one pricing rule, picks the currency (Xtra keys when they cover the whole
 * price, else paid keys, never a mix), charges it, gives back the bonus and records the
 * ownership, or changes nothing. docs/wallet.md.
 */
import { accessIn, findChapter, pricingContext } from '~/features/catalog/index.server';
import { unitT, type ReaderEntitlements } from '~/features/catalog';
import { writeTransaction, type DB } from '~/server/db';
import type { T } from '~/lib/i18n';
import { readerPath } from '~/lib/paths';
import type { UnlockNotice } from './notices';
import { rentWithPlan, useDailyPass } from './rentals.server';
import { InsufficientKeys, lockReader, post, type Balances, type Posting } from './ledger.server';
import * as repo from './repository.server';
import { countUnlock } from '~/server/observe.mjs';
import { entitlementsFromRows, subscriptionIn } from './entitlements.server';

export type UnlockResult =
  | { kind: 'unlocked'; price: number; currency: 'keys' | 'xtra'; bonus: number; balances: Balances; e4pid: string }
  /** `charged`: what the first unlock took (a retried request learns its first answer's charge). */
  | { kind: 'owned'; balances: Balances; charged: { price: number; currency: 'keys' | 'xtra' } | null }
  | { kind: 'notFound' }
  | { kind: 'free' }
  | { kind: 'scheduled' }
  | { kind: 'unavailable'; why: 'blocked' | 'region' | 'removed' | 'notOnSale' }
  | { kind: 'insufficient'; price: number; balances: Balances };

export async function unlockChapter(db: DB, input: { userId: number; e4pid: string; now: number; country: string | null }): Promise<UnlockResult> {
  const { userId, e4pid, now, country } = input;
  if (!/^EPI-[A-Za-z0-9_-]{1,64}$/.test(e4pid)) return { kind: 'notFound' };
  // Catalogue facts are read before the write lock: they do not move with keys, and the lock
  // should be held for the money part only.
  const ctx = await pricingContext(db, e4pid, now);
  if (!ctx) return { kind: 'notFound' };
  const chapterId = Number(ctx.chapter.id);
  // The price being charged, for the answer if the charge is refused (set before posting).
  let charging = 0;
  try {
    const result = await writeTransaction(db, async (trx) => {
      const balances = await lockReader(trx, userId);
      const first = await repo.findUnlock(trx, userId, chapterId);
      if (first) return { kind: 'owned', balances, charged: { price: first.price, currency: first.currency } } as const;
      const rentals = await repo.rentalsInSeries(trx, userId, Number(ctx.series.id));
      const subscription = ctx.chapter.subscription_enabled ? await subscriptionIn(trx, userId, Number(ctx.series.id), now) : null;
      const reader: ReaderEntitlements = entitlementsFromRows({ chapterId, owned: new Set(), rentals, balances, subscription, now });
      const access = accessIn(ctx, reader, country, now);
      const keys = access.unlockMethods.keys;
      const xtra = access.unlockMethods.xtraKeys;
      if (!keys.open && !xtra.open) {
        const why = keys.reason;
        if (why === 'owned') return { kind: 'owned', balances, charged: null } as const;
        if (why === 'free') return { kind: 'free' } as const;
        if (why === 'scheduled') return { kind: 'scheduled' } as const;
        if (why === 'blocked') return { kind: 'unavailable', why: access.state === 'unavailable' && country && ctx.blockedCountries.includes(country) ? 'region' : 'blocked' } as const;
        if (why === 'removed' || why === 'expired') return { kind: 'unavailable', why: 'removed' } as const;
        if (why === 'insufficient_keys') return { kind: 'insufficient', price: access.finalPrice, balances } as const;
        return { kind: 'unavailable', why: 'notOnSale' } as const;
      }
      const price = access.finalPrice;
      charging = price;
      const currency = xtra.open ? 'xtra' : 'keys';
      const bonus = access.bonus;
      const postings: Posting[] = [
        { party: { user: userId }, currency, amount: -price },
        { party: { system: 'unlock_revenue' }, currency, amount: price },
      ];
      if (bonus > 0) postings.push({ party: { user: userId }, currency: 'xtra', amount: bonus }, { party: { system: 'bonus_issuance' }, currency: 'xtra', amount: -bonus });
      const { id } = await post(trx, { key: `unlock:${userId}:${chapterId}`, kind: 'unlock', userId, chapterId, now, postings });
      await repo.insertUnlock(trx, { user_id: userId, chapter_id: chapterId, transaction_id: id, price, currency, created_at: now });
      const after = { keys: balances.keys - (currency === 'keys' ? price : 0), xtra: balances.xtra - (currency === 'xtra' ? price : 0) + bonus };
      return { kind: 'unlocked', price, currency, bonus, balances: after, e4pid } as const;
    });
    // Counted once committed (docs/operations.md, "Metrics").
    if (result.kind === 'unlocked') countUnlock(result.currency);
    return result;
  } catch (error) {
    // A balance that changed between pricing and charging (another process) is refused by the
    // guarded update: the transaction rolled back and nothing was charged. The answer still says
    // what the chapter costs.
    if (error instanceof InsufficientKeys) return { kind: 'insufficient', price: charging, balances: await balancesNow(db, userId) };
    throw error;
  }
}

async function balancesNow(db: DB, userId: number): Promise<Balances> {
  const rows = await repo.userBalances(db, userId);
  return { keys: rows.find((r) => r.currency === 'keys')?.balance ?? 0, xtra: rows.find((r) => r.currency === 'xtra')?.balance ?? 0 };
}

/** What the redeem call answers for an unlock, in the reader's language. */
export type RedeemAnswer =
  | { ok: true; body: { content: string; charged: { price: number; currency: 'keys' | 'xtra' }; bonus: number; profile: { keys: number; free_keys: number } } }
  | { ok: false; status: 402 | 403 | 404 | 409; detail: string; owned?: { content: string; charged: { price: number; currency: 'keys' | 'xtra' } | null; profile: { keys: number; free_keys: number } } };

export async function redeemAnswer(db: DB, input: { userId: number; e4pid: string; now: number; country: string | null }, t: T): Promise<RedeemAnswer> {
  const r = await unlockChapter(db, input);
  // Refusals name the unit ("this episode" for a webtoon); only they pay for the lookup.
  const tu = r.kind === 'unlocked' || r.kind === 'notFound' ? t : await tForChapter(db, input.e4pid, t);
  switch (r.kind) {
    case 'unlocked':
      return { ok: true, body: { content: r.e4pid, charged: { price: r.price, currency: r.currency }, bonus: r.bonus, profile: { keys: r.balances.keys, free_keys: r.balances.xtra } } };
    case 'insufficient':
      return { ok: false, status: 402, detail: tu('wallet.error.insufficient', { price: r.price, keys: r.balances.keys, xtra: r.balances.xtra }) };
    case 'owned':
      // Nothing is charged again; the body says what the first unlock charged and the balances now.
      return { ok: false, status: 409, detail: tu('wallet.error.owned'), owned: { content: input.e4pid, charged: r.charged, profile: { keys: r.balances.keys, free_keys: r.balances.xtra } } };
    case 'free':
      return { ok: false, status: 409, detail: tu('wallet.error.free') };
    case 'scheduled':
      return { ok: false, status: 409, detail: tu('wallet.error.scheduled') };
    case 'notFound':
      return { ok: false, status: 404, detail: tu('wallet.error.notFound') };
    case 'unavailable':
      return r.why === 'region' || r.why === 'blocked'
        ? { ok: false, status: 403, detail: tu(r.why === 'region' ? 'wallet.error.region' : 'wallet.error.unavailable') }
        : { ok: false, status: 409, detail: tu(r.why === 'notOnSale' ? 'wallet.error.notOnSale' : 'wallet.error.unavailable') };
  }
}


/** The ways the no-JavaScript unlock form takes (`way`). */
export type FormWay = 'keys' | 'daily_pass' | 'rent';

/**
 * The unlock form without JavaScript (with keys, or `way` daily_pass or rent): unlocks, then
 * sends the reader to the chapter, which now shows its pages (or, when nothing happened, says
 * why). Null for an unknown chapter.
 */
export async function unlockByForm(db: DB, input: { userId: number; e4pid: string; now: number; country: string | null; way: FormWay }): Promise<{ location: string } | null> {
  let notice: UnlockNotice | null;
  if (input.way === 'daily_pass' || input.way === 'rent') {
    const r = await (input.way === 'rent' ? rentWithPlan(db, input) : useDailyPass(db, input));
    if (r.kind === 'notFound') return null;
    notice = r.kind === 'rented' ? null : r.kind === 'region' ? 'region' : input.way === 'rent' ? 'rentUnavailable' : 'passUnavailable';
  } else {
    const r = await unlockChapter(db, input);
    if (r.kind === 'notFound') return null;
    notice = r.kind === 'insufficient' ? 'insufficient' : r.kind === 'scheduled' ? 'scheduled' : r.kind === 'unavailable' ? (r.why === 'blocked' || r.why === 'removed' ? 'unavailable' : r.why) : null;
  }
  const ctx = await pricingContext(db, input.e4pid, input.now);
  if (!ctx) return null;
  const path = readerPath(ctx.series, { e4pid: ctx.chapter.e4pid, number: Number(ctx.chapter.number), language: ctx.chapter.language });
  return { location: notice ? `${path}?unlock=${notice}` : path };
}

/** `t` in the unit of a chapter's series (episode wording for a webtoon), for answers that name it. */
export async function tForChapter(db: DB, e4pid: string, t: T): Promise<T> {
  if (!/^EPI-[A-Za-z0-9_-]{1,64}$/.test(e4pid)) return t;
  const found = await findChapter(db, e4pid);
  return unitT(t, found?.series.format);
}
