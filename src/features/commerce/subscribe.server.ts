/**
 * Subscribing with a payment (docs/subscriptions.md): the subscription Pix call, the card
 * subscription and the status call. The subscriptions feature starts the subscription (plan,
 * trial, one live subscription per reader); this file takes its first payment through the
 * subscription billing and the one payment confirmation.
 */
import type { T } from '~/lib/i18n';
import type { Site } from '~/lib/site';
import { CARD_METHODS, cardProvider, paymentsOffered, type CardMethod, type CardVaultResult, type CardWidgetConfig } from '~/features/payments/index.server';
import { retryMinutes } from '~/server/rate-limit';
import { cardPausedFor, countDecline } from './declines.server';
import { giveUpSubscription, keepPaymentToken, mySubscriptions, parseTaxDocument, periodStartingAt, planFor, plansPage, startSubscription } from '~/features/subscriptions/index.server';
import { planRentalsOfMonth } from '~/features/wallet/index.server';
import { formatMoney } from '~/lib/money';
import type { DB } from '~/server/db';
import { appCheckSettings } from '~/server/app-check';
import type { AppCheckSettings } from '~/lib/app-check';
import { chargePeriodByCard, chargePeriodByPix, chargeStatus, chargesOf } from './billing.server';
import { unavailableMethods, widgetFor } from './shop-pages.server';
import { closeAbandonedCharges } from './settle.server';
import { decimalAmount, methodsFor, type PaymentMethod } from './rules';

/** The subscription Pix call's answer (the spec's fields, plus the QR drawn on the server). */
export interface SubscribePixBody {
  success: boolean;
  first_payment: boolean;
  pix_copia_e_cola: string | null;
  pix_expires_at: string | null;
  check: string | null;
  trial_error: boolean;
  error: string | null;
  message: string | null;
  qr_svg: string | null;
}

const failed = (error: string, message: string, trial = false): SubscribePixBody => ({
  success: false, first_payment: false, pix_copia_e_cola: null, pix_expires_at: null, check: null, trial_error: trial, error, message, qr_svg: null,
});

/** POST /my/subscribe/pix/: subscribes with Pix (form pix_doc, pix_name, tier_id). */
export async function subscribeWithPix(db: DB, input: { userId: number; site: Site; tierId: string; pixName: string; pixDoc: string; now: number }, t: T): Promise<{ status: number; body: SubscribePixBody }> {
  const plan = await planFor(db, input.site, input.tierId);
  if (!plan) return { status: 404, body: failed('plan', t('subscribe.error.plan')) };
  if (plan.currency !== 'BRL') return { status: 422, body: failed('method', t('subscribe.error.pixOnly')) };
  if (!paymentsOffered().pix) return { status: 422, body: failed('method', t('purchase.error.methodUnavailable')) };
  const name = input.pixName.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (name.length < 3 || name.length > 60 || !/^[\p{L}][\p{L}' .-]*$/u.test(name)) return { status: 422, body: failed('pix_name', t('subscribe.error.name')) };
  const doc = parseTaxDocument(input.pixDoc);
  if (!doc) return { status: 422, body: failed('pix_doc', t('subscribe.error.doc')) };
  // A subscription waiting for its first payment is replaced by this one: its charge stops being payable first.
  await closeAbandonedCharges(db, input.userId, input.now);
  const started = await startSubscription(db, { userId: input.userId, siteId: input.site.id, plan, method: 'pix', provider: 'pix', payerName: name, payerDoc: doc.value, now: input.now });
  if (started.kind === 'live') return { status: 409, body: failed('subscribed', t('subscribe.error.subscribed')) };
  if (started.kind === 'trialUsed') return { status: 409, body: failed('trial', t('subscribe.trial.used'), true) };
  if (started.kind === 'trial') return { status: 200, body: { success: true, first_payment: false, pix_copia_e_cola: null, pix_expires_at: null, check: null, trial_error: false, error: null, message: t('subscribe.trial.started', { days: plan.trial_days }), qr_svg: null } };
  const sub = started.sub;
  const period = periodStartingAt(sub.anchor_at, plan.period_months, sub.anchor_at);
  const answer = await chargePeriodByPix(db, { subscriptionId: sub.id, userId: input.userId, periodStart: period.start, periodEnd: period.end, amount: plan.price, currency: plan.currency, now: input.now }, { qrLabel: t('purchase.pix.qrLabel') });
  if (!answer.ok) {
    await giveUpSubscription(db, sub, 'the first Pix charge could not be made', input.now);
    return { status: 503, body: failed('unavailable', t('purchase.error.unavailable')) };
  }
  return {
    status: 200,
    body: {
      success: true, first_payment: true, pix_copia_e_cola: answer.brCode, pix_expires_at: new Date(answer.expiresAt * 1000).toISOString(),
      check: answer.charge.public_id, trial_error: false, error: null, message: null, qr_svg: answer.qrSvg,
    },
  };
}

/** POST /my/subscribe/card/: subscribes with a card-type method's nonce (vaulted for renewals). */
export async function subscribeWithCard(db: DB, input: { userId: number; site: Site; tierId: string; method: string; nonce: string; deviceData: string | null; now: number }, t: T): Promise<{ status: number; body: { success: boolean; error: string | null; message: string | null }; retryAfter?: number }> {
  const no = (status: number, error: string, message: string) => ({ status, body: { success: false, error, message } });
  const plan = await planFor(db, input.site, input.tierId);
  if (!plan) return no(404, 'plan', t('subscribe.error.plan'));
  if (!CARD_METHODS.includes(input.method as CardMethod) || !paymentsOffered().card) return no(422, 'method', t('purchase.error.method'));
  if (!input.nonce || input.nonce.length > 4096) return no(422, 'method', t('purchase.error.method'));
  const paused = await cardPausedFor(db, input.userId, input.now);
  if (paused > 0) return { ...no(429, 'card_paused', t('purchase.error.cardPaused', { minutes: retryMinutes(paused) })), retryAfter: paused };
  // A trial charges nothing now, but the nonce must still be the provider's and this reader's:
  // it is verified and vaulted first, and the trial's renewals sell on the token.
  let trialToken: string | null = null;
  if (plan.trial_days > 0) {
    const vaulted = await cardProvider().vault({ readerId: input.userId, nonce: input.nonce, deviceData: input.deviceData })
      .catch((error: unknown): CardVaultResult => ({ ok: false, code: 'unavailable', message: error instanceof Error ? error.message : String(error) }));
    if (!vaulted.ok) {
      if (vaulted.code === 'declined' || vaulted.code === 'rejected') await countDecline(db, input.userId, input.now);
      return vaulted.code === 'unavailable' ? no(503, 'unavailable', t('purchase.error.unavailable')) : no(vaulted.code === 'nonce' ? 422 : 402, vaulted.code, t(SALE_MESSAGES[vaulted.code]));
    }
    trialToken = vaulted.token;
  }
  await closeAbandonedCharges(db, input.userId, input.now);
  const started = await startSubscription(db, { userId: input.userId, siteId: input.site.id, plan, method: input.method, provider: 'card', payerName: null, payerDoc: null, now: input.now });
  if (started.kind === 'live') return no(409, 'subscribed', t('subscribe.error.subscribed'));
  if (started.kind === 'trialUsed') return no(409, 'trial', t('subscribe.trial.used'));
  const sub = started.sub;
  if (started.kind === 'trial') {
    if (trialToken) await keepPaymentToken(db, sub.id, trialToken, input.now);
    return { status: 200, body: { success: true, error: null, message: t('subscribe.trial.started', { days: plan.trial_days }) } };
  }
  const period = periodStartingAt(sub.anchor_at, plan.period_months, sub.anchor_at);
  const r = await chargePeriodByCard(db, { subscriptionId: sub.id, userId: input.userId, periodStart: period.start, periodEnd: period.end, amount: plan.price, currency: plan.currency, now: input.now, method: input.method, nonce: input.nonce, deviceData: input.deviceData, vault: true });
  if (r.kind === 'paid' || r.kind === 'already') {
    if (r.kind === 'paid' && r.vaultToken) await keepPaymentToken(db, sub.id, r.vaultToken, input.now);
    return { status: 200, body: { success: true, error: null, message: null } };
  }
  if (r.kind === 'unavailable') return no(503, 'unavailable', t('purchase.error.unavailable'));
  await giveUpSubscription(db, sub, `the first card payment failed (${r.code})`, input.now);
  if (r.code === 'declined' || r.code === 'rejected') await countDecline(db, input.userId, input.now);
  return no(r.code === 'nonce' ? 422 : 402, r.code, t(r.code === 'closed' ? 'purchase.error.closed' : SALE_MESSAGES[r.code]));
}

const SALE_MESSAGES = { declined: 'purchase.error.declined', rejected: 'purchase.error.rejected', nonce: 'purchase.error.nonce' } as const;

/** GET /my/subscribe/status/{check}/: whether the reader's first (or renewal) payment arrived. Null for another reader's check. */
export async function subscriptionStatus(db: DB, input: { userId: number; check: string; now: number }): Promise<{ success: boolean; trial_error: boolean; state: string } | null> {
  const charge = await chargeStatus(db, { userId: input.userId, chargeId: input.check, now: input.now });
  if (!charge) return null;
  return { success: charge.state === 'PAID', trial_error: false, state: charge.state };
}

/** /my/subscriptions/: the reader's subscription (plan, dates, slots, rentals month) and its payment history. */
export async function subscriptionPage(db: DB, input: { userId: number; site: Site; now: number; t: T }) {
  const { current } = await mySubscriptions(db, input);
  if (!current) return { current: null, charges: [], rentalsUsed: 0, rentals: [] };
  const [rows, { used: rentalsUsed, rentals }] = await Promise.all([
    chargesOf(db, current.subscriptionId),
    planRentalsOfMonth(db, { userId: input.userId, month: current.rentMonth, t: input.t, locale: input.site.locale }),
  ]);
  const charges = rows.map((c) => ({
    id: c.public_id, state: c.state, amount: formatMoney(c.amount, c.currency, input.site.locale), periodStart: c.period_start, periodEnd: c.period_end,
    method: c.method, brCode: c.state === 'PENDING' ? c.br_code : null, expiresAt: c.expires_at,
  }));
  return { current, charges, rentalsUsed, rentals };
}

/** What the subscription checkout needs for the preselected plan: its methods and the card widget's configuration. */
export interface SubscribeCheckoutModel {
  currency: string;
  /** The plan's price as a decimal string ("4.99"), for the wallets' payment sheets. */
  amount: string;
  methods: PaymentMethod[];
  widget: CardWidgetConfig;
  /** The bot check the subscription calls carry a token for (null: not enforced). */
  appCheck: AppCheckSettings | null;
}

/**
 * The plans page (/plans/): the site's plans and, when a signed-in reader without a live
 * subscription preselected one with `?tier=`, what its checkout needs. The card widget's
 * configuration is asked for only then (Braintree's is a call to the gateway).
 */
export async function plansCheckoutPage(db: DB, input: { site: Site; userId: number | null; tier: string | null; now: number }) {
  const page = await plansPage(db, input);
  const plan = input.userId != null && page.selected && !page.subscribed ? await planFor(db, input.site, page.selected.code) : null;
  const methods = plan ? methodsFor(plan.currency, paymentsOffered()) : [];
  const checkout: SubscribeCheckoutModel | null = plan && methods.length > 0
    ? { currency: plan.currency, amount: decimalAmount(plan.price), methods, widget: await widgetFor(methods, plan.currency), appCheck: appCheckSettings() }
    : null;
  // Said on the page, before anyone types anything, when no method can pay for this site's plans.
  const canPay = methodsFor(input.site.currency, paymentsOffered()).length > 0;
  // …and, when some can, which of this currency's methods cannot (issue 26).
  return { ...page, checkout, canPay, unavailable: canPay ? unavailableMethods(input.site.currency) : [] };
}
