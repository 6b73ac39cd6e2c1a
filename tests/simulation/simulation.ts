/**
 * The seeded simulation (issue 25, docs/testing.md "Seeded simulation"), in the manner of
 * TigerBeetle's VOPR: one seed drives a deterministic scheduler that interleaves thousands of
 * reader operations (grants, unlocks, the daily pass, ads, plan rentals, buying keys by card and
 * by Pix, subscribing by card and by Pix, replacing, slots, cancelling) with the payment world
 * around them (payers paying Pix charges; webhooks duplicated, reordered, late or lost; status
 * polls, the reconciler and the renewal command; clock jumps) and with injected crashes (a
 * statement that fails at a random point of an operation, transaction or not; a process stopped
 * between the provider's call and the confirmation; a provider that does not answer). It checks
 * the invariants at checkpoints and, after the world has settled, at the end.
 *
 * Everything random comes from the seed: the scheduler's choices, the faults, and even the ids
 * the application draws from node:crypto (seeded for the run), so a seed replays exactly.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import crypto from 'node:crypto';
import { auditLedger, balancesOf, completeAd, grantKeys, rentWithPlan, startAd, unlockChapter, useDailyPass } from '~/features/wallet/index.server';
import { addComic, cancelSubscription } from '~/features/subscriptions/index.server';
import { auditOrders, checkoutSubmit, pixChargeAnswer, pixStatusAnswer, pixWebhookAnswer, reconcile, renewSubscriptions, subscribeWithCard, subscribeWithPix, subscriptionStatus } from '~/features/commerce/index.server';
import { useProviders, type CardProvider, type PixCharge, type PixProvider } from '~/features/payments/index.server';
import { createSandboxCardProvider, createSandboxPixProvider, issueNonce, paySandboxCharge, SANDBOX_CARDS, sandboxEventBody, signWebhook, WEBHOOK_SIGNATURE_HEADER } from '~/features/payments/sandbox.server';
import { createT, type T } from '~/lib/i18n';
import { config } from '~/server/config.mjs';
import type { DB, Dialect } from '~/server/db';
import { Rng } from './rng';
import { DAY, HOUR, InjectedCrash, openWorld, seedWorld, type Reader, type World } from './world';

export interface SimulationOptions {
  seed: number;
  ops: number;
  dialect: Dialect;
  /** Invariants are checked every this many operations (and at the end). */
  checkEvery?: number;
}

export interface SimulationFailure {
  seed: number;
  dialect: Dialect;
  /** The operation index the failure showed at (ops: after the last one, when the world settled). */
  op: number;
  what: string;
  invariant: string;
  detail: string;
}

export interface SimulationResult {
  ok: boolean;
  failure?: SimulationFailure;
  seconds: number;
  stats: Record<string, number>;
}

/** Raised by a check: which invariant, and the rows or values that break it. */
class InvariantBroken extends Error {
  constructor(readonly invariant: string, readonly detail: string) {
    super(`${invariant}: ${detail}`);
  }
}

const PACKS = ['starter', 'popular', 'value', 'mega'];
const COUPONS = ['WELCOME10', 'BONUS20'];
const PLANS_OF: Record<number, string[]> = { 1: ['reader', 'reader-plus'], 3: ['teste', 'leitor', 'leitor-plus'] };
/** A valid CPF for the Pix payer. */
const PAYER_DOC = '52998224725';
const WEBHOOK_KEY = Buffer.from('seeded-simulation-webhook-key');

/** How often each kind of operation is picked. */
const WEIGHTS = {
  grant: 4, unlock: 10, pass: 5, adStart: 4, adClaim: 4, rent: 6, slot: 3,
  buyCard: 6, resubmit: 2, buyPix: 5, payPix: 7, webhook: 9, pspExpire: 2, poll: 4,
  subscribeCard: 3, subscribePix: 3, cancel: 1, renew: 3, reconcile: 2, wait: 6,
  /** Two to four operations at once (a reader's double click, the cron beside a webhook beside a checkout). */
  burst: 5,
};
type OpKind = Exclude<keyof typeof WEIGHTS, 'burst'>;
const { burst: _burst, wait: _wait, ...AT_ONCE } = WEIGHTS;

/**
 * What one operation draws from: its own PRNGs (its choices and the provider faults it meets;
 * the ids the application makes for it) and its own crash countdown, all seeded from the
 * scheduler's PRNG when the operation is picked, so operations running at once draw the same
 * whatever order their statements interleave in.
 */
interface OpContext {
  rng: Rng;
  ids: Rng;
  countdown: number;
  /** A number of its own (request and grant keys). */
  serial: number;
  /** Alone, not in a burst: its reader's balances before and after are its own doing. */
  alone: boolean;
}

/** Chances of the faults. */
const FAULTS = {
  /** An operation's Nth statement fails (N up to 25). */
  crash: 0.05,
  /** The card provider cannot be reached: nothing is charged. */
  cardDown: 0.03,
  /** The sale went through at the provider, then the process stopped before the confirmation, or the answer was lost. */
  cardLost: 0.06,
  pixDown: 0.03,
  /** The Pix charge was made at the PSP, its answer lost. */
  pixLost: 0.02,
};

interface Pending {
  charge: PixCharge;
  dueAt: number;
}

/** The seeded stand-in for node:crypto's randomBytes while a run goes: the application's ids repeat with the seed. */
function seededRandomBytes(rngNow: () => Rng): (size: number) => Buffer {
  return (size: number) => {
    const rng = rngNow();
    const out = Buffer.alloc(size);
    for (let i = 0; i < size; i += 4) {
      const v = rng.u32();
      for (let j = 0; j < 4 && i + j < size; j++) out[i + j] = (v >>> (8 * j)) & 0xff;
    }
    return out;
  };
}

export async function runSimulation(opts: SimulationOptions): Promise<SimulationResult> {
  const started = performance.now();
  const { seed, dialect } = opts;
  const checkEvery = opts.checkEvery ?? 250;
  const main = new Rng(seed);
  const idRng = new Rng(seed ^ 0x5eed1d5);
  const context = new AsyncLocalStorage<OpContext>();
  /** The running operation's PRNG (the scheduler's between operations). */
  const rng = new Proxy(main, {
    get(_target, prop) {
      const current = context.getStore()?.rng ?? main;
      const v = Reflect.get(current, prop) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(current) : v;
    },
  });
  const originalRandomBytes = crypto.randomBytes;
  (crypto as { randomBytes: unknown }).randomBytes = seededRandomBytes(() => context.getStore()?.ids ?? idRng);
  const stats: Record<string, number> = {};
  const count = (k: string) => (stats[k] = (stats[k] ?? 0) + 1);
  // The application logs every provider fault it meets; thousands of injected ones are counted instead.
  const { error: logError, warn: logWarn } = console;
  console.error = () => count('logged');
  console.warn = () => count('logged');
  let world: World | undefined;
  let opIndex = -1;
  let what = 'setup';
  try {
    world = await openWorld(dialect);
    const w = world;
    const { db, raw, faults } = w;
    faults.scope = () => context.getStore();
    // Runs start on a spring day at a second the seed picks, so UTC midnight falls anywhere in a run.
    let now = Date.UTC(2030, 2, 10) / 1000 + rng.int(0, DAY - 1);
    const tag = `${dialect === 'sqlite' ? 'l' : 'p'}${seed}`;
    const { catalogue, readers } = await seedWorld(raw, now, tag, 3);
    const ts: Record<number, T> = { 1: createT('en'), 3: createT('pt-BR') };
    const tOf = (r: Reader) => ts[r.site.id]!;

    // ------------------------------------------------------------ the providers, with their faults
    let providerFaults = true;
    const sandboxCard = createSandboxCardProvider(async () => raw, () => now);
    const card: CardProvider = {
      ...sandboxCard,
      async sale(input) {
        if (providerFaults && rng.chance(FAULTS.cardDown)) {
          count('fault.cardDown');
          throw new Error('the card provider cannot be reached');
        }
        const sale = await sandboxCard.sale(input);
        if (sale.ok && providerFaults && rng.chance(FAULTS.cardLost)) {
          if (rng.chance(0.5)) {
            // The process stops right after the provider's answer: the confirmation's first statement fails.
            count('fault.cardStopped');
            faults.arm(1);
          } else {
            count('fault.cardAnswerLost');
            throw new Error('the card provider did not answer in time');
          }
        }
        return sale;
      },
    };
    const sandboxPix = createSandboxPixProvider(async () => raw, { pixKey: config.payments.pixKey, merchantName: config.payments.pixMerchantName, merchantCity: config.payments.pixMerchantCity, webhookKey: WEBHOOK_KEY }, () => now);
    const pix: PixProvider = {
      ...sandboxPix,
      async createCharge(input) {
        if (providerFaults && rng.chance(FAULTS.pixDown)) {
          count('fault.pixDown');
          throw new Error('the PSP cannot be reached');
        }
        const made = await sandboxPix.createCharge(input);
        if (providerFaults && rng.chance(FAULTS.pixLost)) {
          count('fault.pixAnswerLost');
          throw new Error('the PSP did not answer in time');
        }
        return made;
      },
      async getCharge(id) {
        if (providerFaults && rng.chance(FAULTS.pixDown)) {
          count('fault.pixDown');
          throw new Error('the PSP cannot be reached');
        }
        return sandboxPix.getCharge(id);
      },
      async closeCharge(id) {
        if (providerFaults && rng.chance(FAULTS.pixDown)) {
          count('fault.pixDown');
          throw new Error('the PSP cannot be reached');
        }
        return sandboxPix.closeCharge(id);
      },
    };
    useProviders({ card, pix });

    // ------------------------------------------------------------ the scheduler's state
    const webhooks: Pending[] = [];
    /** Pix codes a reader was given in an answer (the checkout's, the subscription's). */
    const shownToReaders = new Set<string>();
    const ads = new Map<number, string[]>();
    const lastForm = new Map<number, URLSearchParams>();
    let grantKeysUsed: string[] = [];

    const reader = () => rng.pick(readers);
    const chapter = () => rng.pick(catalogue.chapters).e4pid;
    const queueWebhooks = (charge: PixCharge) => {
      // Most arrive once and soon; some twice or three times, some late (hours or days), some never.
      const copies = rng.weighted({ 0: 12, 1: 60, 2: 20, 3: 8 });
      for (let i = 0; i < Number(copies); i++) {
        const late = rng.chance(0.15);
        webhooks.push({ charge, dueAt: now + (late ? rng.int(HOUR, 3 * DAY) : rng.int(0, 600)) });
      }
    };
    const nonceFor = async (r: Reader) => {
      const declined = rng.chance(0.08);
      const n = await issueNonce(raw, { userId: r.id, method: 'card', number: declined ? SANDBOX_CARDS.declined : SANDBOX_CARDS.visa, expiry: '12/99', cvv: '123', now });
      if (!n.ok) throw new InvariantBroken('the card sandbox gives a nonce for a valid test card', n.problem);
      return n.nonce;
    };
    const deliver = async (charge: PixCharge, signature: 'good' | 'bad' = 'good') => {
      const body = Buffer.from(sandboxEventBody(charge.status === 'EXPIRED' ? 'OPENPIX:CHARGE_EXPIRED' : 'OPENPIX:CHARGE_COMPLETED', charge));
      const headers = new Headers({ 'content-type': 'application/json', [WEBHOOK_SIGNATURE_HEADER]: signature === 'good' ? signWebhook(body, WEBHOOK_KEY) : signWebhook(body, Buffer.from('another key')) });
      const got = await pixWebhookAnswer(db, { rawBody: body, headers, now });
      const want = signature === 'good' ? 200 : 401;
      if (got.status !== want) throw new InvariantBroken(`a webhook with a ${signature} signature is answered ${want}`, JSON.stringify(got));
    };

    /** One operation of the kind the seed picked. */
    async function step(kind: OpKind, op: OpContext): Promise<void> {
      switch (kind) {
        case 'grant': {
          const r = reader();
          const reuse = grantKeysUsed.length > 0 && rng.chance(0.2);
          const key = reuse ? rng.pick(grantKeysUsed) : `sim-grant-${op.serial}`;
          const keys = rng.int(0, 40);
          const xtra = keys === 0 ? rng.int(1, 20) : rng.int(0, 20);
          const before = await balancesOf(raw, r.id);
          const got = await grantKeys(db, { userId: r.id, keys, xtra, reason: 'simulation', key, now });
          if (!reuse) grantKeysUsed.push(key);
          if (grantKeysUsed.length > 50) grantKeysUsed = grantKeysUsed.slice(-50);
          const after = await balancesOf(raw, r.id);
          // A grant's key credits once: a key used before credits nothing, whoever it was for.
          const want = got.created ? { keys: before.keys + keys, xtra: before.xtra + xtra } : before;
          if (op.alone && (got.created === reuse || after.keys !== want.keys || after.xtra !== want.xtra)) {
            throw new InvariantBroken('a grant credits its amounts once per key', JSON.stringify({ reuse, created: got.created, before, after, keys, xtra }));
          }
          return;
        }
        case 'unlock': {
          const r = reader();
          const before = await balancesOf(raw, r.id);
          const got = await unlockChapter(db, { userId: r.id, e4pid: chapter(), now, country: null });
          count(`unlock.${got.kind}`);
          if (got.kind === 'unlocked' && op.alone) {
            const after = await balancesOf(raw, r.id);
            const spent = before.keys + before.xtra - (after.keys + after.xtra);
            if (spent !== got.price - got.bonus) throw new InvariantBroken('an unlock takes its price (less its bonus) once', JSON.stringify({ before, after, got }));
          }
          return;
        }
        case 'pass': {
          const r = reader();
          count(`pass.${(await useDailyPass(db, { userId: r.id, e4pid: chapter(), now, country: null })).kind}`);
          return;
        }
        case 'adStart': {
          const r = reader();
          const got = await startAd(db, { userId: r.id, e4pid: chapter(), now, country: null });
          count(`adStart.${got.kind}`);
          if (got.kind === 'started') ads.set(r.id, [...(ads.get(r.id) ?? []), got.token].slice(-4));
          return;
        }
        case 'adClaim': {
          const r = reader();
          const tokens = ads.get(r.id) ?? [];
          if (!tokens.length) return;
          count(`adClaim.${(await completeAd(db, { userId: r.id, token: rng.pick(tokens), now, country: null })).kind}`);
          return;
        }
        case 'rent': {
          const r = reader();
          count(`rent.${(await rentWithPlan(db, { userId: r.id, e4pid: chapter(), now, country: null })).kind}`);
          return;
        }
        case 'slot': {
          const r = reader();
          count(`slot.${(await addComic(db, { userId: r.id, comicId: rng.pick(catalogue.seriesIds), now }, tOf(r))).status}`);
          return;
        }
        case 'buyCard': {
          const r = reader();
          const form = new URLSearchParams({ pack: rng.pick(PACKS), method: 'card', nonce: await nonceFor(r), request_key: `sim-card-${seed}-${op.serial}` });
          if (rng.chance(0.3)) form.set('coupon', rng.pick(COUPONS));
          lastForm.set(r.id, form);
          const got = await checkoutSubmit(db, { userId: r.id, site: r.site, form, now }, tOf(r));
          count(`buyCard.${got.kind === 'redirect' ? 'paid' : got.status}`);
          return;
        }
        case 'resubmit': {
          // The same checkout form sent again (a double click, a retry after a crash): never a second sale.
          const r = reader();
          const form = lastForm.get(r.id);
          if (!form) return;
          const got = await checkoutSubmit(db, { userId: r.id, site: r.site, form, now }, tOf(r));
          count(`resubmit.${got.kind === 'redirect' ? 'paid' : got.status}`);
          return;
        }
        case 'buyPix': {
          const r = rng.pick(readers.filter((x) => x.site.currency === 'BRL'));
          const form = new URLSearchParams({ pack: rng.pick(PACKS), request_key: `sim-pix-${seed}-${op.serial}` });
          if (rng.chance(0.3)) form.set('coupon', rng.pick(COUPONS));
          const got = await pixChargeAnswer(db, { userId: r.id, site: r.site, form, now }, tOf(r));
          count(`buyPix.${got.status}`);
          if ('body' in got) shownToReaders.add(got.body.checkout.correlationID);
          return;
        }
        case 'payPix': {
          // A payer's bank app pays a code a reader was shown (an order's or a charge's), still payable at the PSP.
          const shown = await shownPixCodes(raw, now, shownToReaders);
          if (!shown.length) return;
          const id = rng.pick(shown);
          const paid = await paySandbox(raw, id, now);
          if (paid) {
            count('payPix.paid');
            queueWebhooks(paid);
          }
          return;
        }
        case 'webhook': {
          const due = webhooks.filter((x) => x.dueAt <= now);
          if (!due.length) return;
          // Any due one: deliveries arrive in any order.
          const next = rng.pick(due);
          webhooks.splice(webhooks.indexOf(next), 1);
          if (rng.chance(0.03)) {
            count('webhook.forged');
            await deliver(next.charge, 'bad');
            webhooks.push(next);
            return;
          }
          try {
            await deliver(next.charge);
            count('webhook.delivered');
          } catch (error) {
            // Not acknowledged: the PSP delivers it again later.
            if (error instanceof InjectedCrash) webhooks.push({ ...next, dueAt: now + rng.int(60, 3600) });
            throw error;
          }
          return;
        }
        case 'pspExpire': {
          // The PSP expires a charge past its time and says so by webhook.
          const rows = await raw.selectFrom('sandbox_pix_charges').select('correlation_id').where('status', '=', 'ACTIVE').where('expires_at', '<', now).orderBy('correlation_id').execute();
          if (!rows.length) return;
          const charge = await sandboxPix.getCharge(rng.pick(rows).correlation_id);
          if (charge?.status === 'EXPIRED') {
            count('pspExpire');
            queueWebhooks(charge);
          }
          return;
        }
        case 'poll': {
          // A reader's page polls the status of a pending Pix order or subscription charge.
          const r = rng.pick(readers.filter((x) => x.site.currency === 'BRL'));
          const orders = await raw.selectFrom('orders').select('public_id').where('user_id', '=', r.id).where('method', '=', 'pix').where('state', '=', 'PENDING').orderBy('id').execute();
          const charges = await raw.selectFrom('subscription_charges').select('public_id').where('user_id', '=', r.id).where('method', '=', 'pix').where('state', '=', 'PENDING').orderBy('id').execute();
          const ids = [...orders, ...charges].map((x) => x.public_id);
          if (!ids.length) return;
          const id = rng.pick(ids);
          if (id.startsWith('sub')) await subscriptionStatus(db, { userId: r.id, check: id, now });
          else await pixStatusAnswer(db, { userId: r.id, orderId: id, now });
          count('poll');
          return;
        }
        case 'subscribeCard': {
          const r = reader();
          const got = await subscribeWithCard(db, { userId: r.id, site: r.site, tierId: rng.pick(PLANS_OF[r.site.id]!), method: 'card', nonce: await nonceFor(r), deviceData: null, now }, tOf(r));
          count(`subscribeCard.${got.status}`);
          return;
        }
        case 'subscribePix': {
          // Also how a reader replaces a subscription still waiting for its first payment.
          const r = rng.pick(readers.filter((x) => x.site.currency === 'BRL'));
          const got = await subscribeWithPix(db, { userId: r.id, site: r.site, tierId: rng.pick(PLANS_OF[3]!), pixName: 'Maria Silva', pixDoc: PAYER_DOC, now }, tOf(r));
          count(`subscribePix.${got.status}`);
          if (got.body.check) shownToReaders.add(got.body.check);
          return;
        }
        case 'cancel': {
          const r = reader();
          count(`cancel.${await cancelSubscription(db, { userId: r.id, now })}`);
          return;
        }
        case 'renew': {
          const got = await renewSubscriptions(db, now, 'Inkpass');
          stats['renew.charged'] = (stats['renew.charged'] ?? 0) + got.charged;
          return;
        }
        case 'reconcile': {
          const got = await reconcile(db, now);
          stats['reconcile.paid'] = (stats['reconcile.paid'] ?? 0) + got.paid;
          return;
        }
        case 'wait': {
          // Clock jumps around the rules' edges: minutes, the pass's recharge, a rental's end, a grace, a month.
          now += rng.pick([60, 600, HOUR, 6 * HOUR, 23 * HOUR, DAY + 1, 3 * DAY, 8 * DAY, 31 * DAY]);
          return;
        }
      }
    }

    // ------------------------------------------------------------ the run
    let serial = 0;
    const contextFor = (alone: boolean): OpContext => ({
      rng: new Rng(main.u32()), ids: new Rng(main.u32()), countdown: main.chance(FAULTS.crash) ? main.int(1, 25) : 0, serial: serial++, alone,
    });
    /** One operation in its own context: true when it ran to its end, false when an injected crash stopped it. */
    const runOne = (kind: OpKind, op: OpContext): Promise<boolean> => context.run(op, async () => {
      count(`op.${kind}`);
      const t0 = performance.now();
      try {
        await step(kind, op);
        return true;
      } catch (error) {
        if (!(error instanceof InjectedCrash)) throw error;
        count('crash');
        return false;
      } finally {
        op.countdown = 0;
        stats[`ms.${kind}`] = (stats[`ms.${kind}`] ?? 0) + Math.round(performance.now() - t0);
      }
    });
    let retry: OpKind | null = null;
    for (opIndex = 0; opIndex < opts.ops; opIndex++) {
      now += main.int(1, 90);
      const picked: OpKind | 'burst' = retry ?? main.weighted(WEIGHTS);
      retry = null;
      if (picked === 'burst') {
        const kinds = Array.from({ length: main.int(2, 4) }, () => main.weighted(AT_ONCE));
        what = `burst of ${kinds.join(', ')}`;
        count('burst');
        const ops = kinds.map(() => contextFor(false));
        await Promise.all(kinds.map((k, i) => runOne(k, ops[i]!)));
      } else {
        what = picked;
        const ran = await runOne(picked, contextFor(true));
        // A client that got no answer often tries again at once (a checkout form: the same form).
        if (!ran && main.chance(0.5)) retry = picked === 'buyCard' ? 'resubmit' : picked;
      }
      if ((opIndex + 1) % checkEvery === 0) {
        what = 'checkpoint';
        const t1 = performance.now();
        await checkInvariants(raw, false);
        stats['ms.checkpoint'] = (stats['ms.checkpoint'] ?? 0) + Math.round(performance.now() - t1);
      }
    }

    // ------------------------------------------------------------ the world settles, then the final check
    what = 'settling';
    providerFaults = false;
    for (const x of webhooks.sort((a, b) => a.dueAt - b.dueAt)) {
      now = Math.max(now, x.dueAt);
      await deliver(x.charge);
    }
    webhooks.length = 0;
    now += 2 * HOUR;
    await reconcile(db, now);
    what = 'final check';
    await checkInvariants(raw, true);
    return { ok: true, seconds: (performance.now() - started) / 1000, stats };
  } catch (error) {
    const broken = error instanceof InvariantBroken ? error : null;
    const failure: SimulationFailure = {
      seed, dialect, op: opIndex, what,
      invariant: broken?.invariant ?? 'no operation throws (bad input or a crash never breaks the application)',
      detail: broken?.detail ?? (error instanceof Error ? error.stack ?? error.message : String(error)),
    };
    return { ok: false, failure, seconds: (performance.now() - started) / 1000, stats };
  } finally {
    useProviders(null);
    (crypto as { randomBytes: unknown }).randomBytes = originalRandomBytes;
    console.error = logError;
    console.warn = logWarn;
    await world?.close();
  }
}

// ---------------------------------------------------------------- the payment world's side

/**
 * Pix codes a reader has that the PSP would still take now: those an answer gave them, and those
 * their pages show (a pending order's or charge's code, a renewal's on the subscription page). A
 * code the reader never got (the answer was an error) is never paid.
 */
async function shownPixCodes(raw: DB, now: number, given: ReadonlySet<string>): Promise<string[]> {
  const active = await raw.selectFrom('sandbox_pix_charges').select('correlation_id').where('status', '=', 'ACTIVE').where('expires_at', '>=', now).orderBy('correlation_id').execute();
  if (!active.length) return [];
  const ids = active.map((x) => x.correlation_id);
  const [orders, charges] = await Promise.all([
    raw.selectFrom('orders').select('public_id').where('public_id', 'in', ids).where('state', '=', 'PENDING').where('br_code', 'is not', null).execute(),
    raw.selectFrom('subscription_charges').select('public_id').where('public_id', 'in', ids).where('state', '=', 'PENDING').where('br_code', 'is not', null).execute(),
  ]);
  const shown = new Set([...given, ...[...orders, ...charges].map((x) => x.public_id)]);
  return ids.filter((id) => shown.has(id));
}

/** The payer pays a sandbox charge (what `npm run payments -- pay` does, without delivering the webhook: the scheduler does). */
async function paySandbox(raw: DB, id: string, now: number): Promise<PixCharge | null> {
  const got = await paySandboxCharge(raw, id, now);
  return got?.paidNow ? got.charge : null;
}

// ---------------------------------------------------------------- the invariants

/**
 * Both audits (the ledger's, and the orders', charges' and subscriptions' rules of
 * docs/money-states.md), no reader below zero, and every payment a provider took granted at most
 * once — exactly once, or recorded to refund, once the world has settled (`final`).
 */
async function checkInvariants(raw: DB, final: boolean): Promise<void> {
  const ledger = await auditLedger(raw);
  if (ledger.length) throw new InvariantBroken(`auditLedger: ${ledger[0]!.rule}`, JSON.stringify(ledger).slice(0, 2000));
  const orders = await auditOrders(raw);
  if (orders.length) throw new InvariantBroken(`auditOrders: ${orders[0]!.rule}`, JSON.stringify(orders).slice(0, 2000));
  const negative = await raw.selectFrom('wallet_accounts').select(['user_id', 'currency', 'balance']).where('user_id', 'is not', null).where('balance', '<', 0).execute();
  if (negative.length) throw new InvariantBroken('no reader balance below zero', JSON.stringify(negative));

  // What the providers took: card sales that went through, and Pix charges paid.
  const [sales, pixPaid, paidOrders, paidCharges, refunds] = await Promise.all([
    raw.selectFrom('sandbox_card_nonces').select(['order_id', 'payment_id']).where('payment_id', 'is not', null).where('outcome', '=', 'success').execute(),
    raw.selectFrom('sandbox_pix_charges').select(['correlation_id as order_id', 'payment_id']).where('status', '=', 'COMPLETED').execute(),
    raw.selectFrom('orders').select(['public_id', 'payment_id']).where('state', '=', 'PAID').execute(),
    raw.selectFrom('subscription_charges').select(['public_id', 'payment_id']).where('state', '=', 'PAID').execute(),
    raw.selectFrom('refunds_due').select(['payable_id', 'payment_id']).execute(),
  ]);
  const taken = [...sales, ...pixPaid].map((x) => ({ payable: String(x.order_id), payment: String(x.payment_id) }));
  const takenIds = new Set(taken.map((x) => x.payment));
  const granted = new Map<string, number>();
  for (const p of [...paidOrders, ...paidCharges]) {
    if (!p.payment_id || !takenIds.has(p.payment_id)) throw new InvariantBroken('nothing is granted without a payment the provider took', JSON.stringify(p));
    granted.set(p.payment_id, (granted.get(p.payment_id) ?? 0) + 1);
  }
  const refunded = new Map<string, number>();
  for (const x of refunds) refunded.set(x.payment_id, (refunded.get(x.payment_id) ?? 0) + 1);
  const amiss = taken
    .map((x) => ({ ...x, granted: granted.get(x.payment) ?? 0, refunded: refunded.get(x.payment) ?? 0 }))
    .filter((x) => x.granted + x.refunded > 1 || (final && x.granted + x.refunded !== 1));
  if (amiss.length) {
    // What happened to the first one: its record and the record's events, its subscription's.
    const first = amiss[0]!;
    const history = first.payable.startsWith('sub')
      ? await raw.selectFrom('subscription_charges').selectAll().where('public_id', '=', first.payable).executeTakeFirst().then(async (c) => ({
        charge: c,
        events: c && (await raw.selectFrom('charge_events').select(['state', 'source', 'detail', 'created_at']).where('charge_id', '=', c.id).orderBy('id').execute()),
        subscription: c && (await raw.selectFrom('subscription_events').select(['state', 'source', 'detail', 'created_at']).where('subscription_id', '=', c.subscription_id).orderBy('id').execute()),
      }))
      : await raw.selectFrom('orders').selectAll().where('public_id', '=', first.payable).executeTakeFirst().then(async (o) => ({
        order: o,
        events: o && (await raw.selectFrom('order_events').select(['state', 'source', 'detail', 'created_at']).where('order_id', '=', o.id).orderBy('id').execute()),
      }));
    const psp = await raw.selectFrom('sandbox_pix_charges').selectAll().where('correlation_id', '=', first.payable).executeTakeFirst();
    throw new InvariantBroken(final ? 'every payment a provider took is granted exactly once or recorded to refund' : 'no payment a provider took is granted or refunded twice', `${JSON.stringify(amiss.slice(0, 10))}\nthe first: ${JSON.stringify({ ...history, psp })}`);
  }
}
