/**
 * The subscription checkout's pure parts (SubscribeCheckout.tsx): the spec's timings, the
 * catalogue messages the island formats in the browser, and how each answer of the subscription
 * calls (Pix, card, status) moves the widget to its next step. Browser-safe and unit-tested
 * (checkout-flow.test.ts), so the island holds only effects and markup.
 */
import { PAYMENT_WIDGET_MESSAGES } from '~/features/payments';

/** The status call is polled every 20 s while a Pix QR is shown (spec constants). */
export const STATUS_POLL_MS = 20_000;
/** The Pix countdown ticks once a second. */
export const COUNTDOWN_TICK_MS = 1_000;
/** "Copiado!" stays on the copy button for 2 s, then the button reads "Copiar" again. */
export const COPIED_LABEL_MS = 2_000;
/** A confirmation stays on screen this long before the reader is taken to /my/subscriptions/. */
export const REDIRECT_DELAY_MS = 1_500;

/**
 * The island's messages: its own short names, each mapped to a catalogue key. The page hands the
 * island their ICU sources (it formats a countdown and prices it only learns in the browser).
 * The key-pack checkout's Pix and card messages are reused so both checkouts read alike.
 */
export const SUBSCRIBE_MESSAGES = {
  ...PAYMENT_WIDGET_MESSAGES,
  title: 'subscribe.checkout.title',
  close: 'subscribe.checkout.close',
  price: 'subscribe.checkout.price',
  trialThen: 'subscribe.checkout.trialThen',
  name: 'subscribe.checkout.name',
  doc: 'subscribe.checkout.doc',
  docHint: 'subscribe.checkout.docHint',
  submit: 'subscribe.checkout.submit',
  submitTrial: 'subscribe.checkout.submitTrial',
  processing: 'checkout.submit.processing',
  waiting: 'subscribe.checkout.waiting',
  newPayment: 'subscribe.checkout.newPayment',
  paid: 'subscribe.checkout.paid',
  redirecting: 'subscribe.checkout.redirecting',
  unexpected: 'subscribe.checkout.unexpected',
  trialUsed: 'subscribe.trial.used',
  contact: 'subscribe.contact',
  contactEmail: 'subscribe.contactEmail',
  'error.doc': 'subscribe.error.doc',
} as const;

export type SubscribeMessageKey = keyof typeof SUBSCRIBE_MESSAGES;
export type SubscribeMessages = Record<SubscribeMessageKey, string>;

/**
 * The methods the page offers (commerce's `methodsFor`: Pix first where the plan is in reais).
 * Spelled out here rather than imported: commerce already depends on this feature.
 */
export type SubscribeMethod = 'pix' | 'card' | 'paypal' | 'googlepay' | 'applepay';
export const METHOD_MESSAGES: Record<SubscribeMethod, SubscribeMessageKey> = {
  pix: 'method.pix', card: 'method.card', paypal: 'method.paypal', googlepay: 'method.googlepay', applepay: 'method.applepay',
};

/** A Pix charge the reader is paying: what the QR step shows and polls. */
export interface PixCharge {
  check: string;
  code: string;
  /** The QR drawn on the server; null shows the placeholder. */
  qrSvg: string | null;
  /** NaN when the answer had no readable expiry: the countdown then shows it expired. */
  expiresAtMs: number;
}

/**
 * Where the widget is: the form; a Pix QR (live or expired); done (a confirmation, then the
 * redirect; `message` is the server's, such as "trial started", or null for the generic one);
 * or the trial notice that replaces the checkout.
 */
export type Step =
  | { kind: 'form' }
  | { kind: 'pix'; charge: PixCharge; expired: boolean }
  | { kind: 'done'; message: string | null }
  | { kind: 'trialUsed' };

export interface Outcome {
  step: Step;
  /** Shown in the dialog's alert; null clears it. */
  error: string | null;
  /** The Pix form's field the server refused, to mark and focus; absent for anything else. */
  field?: 'name' | 'doc';
}

/** The Pix call's error codes that name a field of the form. */
const FIELD_OF: Record<string, 'name' | 'doc'> = { pix_name: 'name', pix_doc: 'doc' };

const fields = (body: unknown): Record<string, unknown> => (body && typeof body === 'object' ? (body as Record<string, unknown>) : {});
const words = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);

/**
 * The words of a failed call: the server's `message` (subscription calls) or `detail` (the
 * API's error bodies), else the catalogue's "Erro inesperado!". The `error` field is a code
 * ("pix_doc", "declined"), never shown.
 */
export function failureMessage(body: unknown, unexpected: string): string {
  const b = fields(body);
  return words(b.message) ?? words(b.detail) ?? unexpected;
}

/** POST /my/subscribe/pix/'s answer (any status; `body` is null when it was not JSON). */
export function afterPixAnswer(body: unknown, unexpected: string): Outcome {
  const b = fields(body);
  if (b.trial_error === true) return { step: { kind: 'trialUsed' }, error: null };
  if (b.success !== true) {
    const field = typeof b.error === 'string' ? FIELD_OF[b.error] : undefined;
    return { step: { kind: 'form' }, error: failureMessage(b, unexpected), ...(field ? { field } : {}) };
  }
  // A trial starts without a payment: no QR, straight to the confirmation.
  if (b.first_payment !== true) return { step: { kind: 'done', message: words(b.message) }, error: null };
  const check = words(b.check);
  const code = words(b.pix_copia_e_cola);
  if (!check || !code) return { step: { kind: 'form' }, error: unexpected };
  const expiresAtMs = typeof b.pix_expires_at === 'string' ? Date.parse(b.pix_expires_at) : Number.NaN;
  return { step: { kind: 'pix', charge: { check, code, qrSvg: words(b.qr_svg), expiresAtMs }, expired: false }, error: null };
}

export type PollResult = 'paid' | 'waiting' | 'closed' | 'trialUsed';

/**
 * GET /my/subscribe/status/{check}/'s answer: paid, still waiting, or closed (the charge expired
 * or failed: the QR is dead). Anything unreadable is "waiting": the next poll asks again.
 */
export function afterStatus(body: unknown): PollResult {
  const b = fields(body);
  if (b.success === true) return 'paid';
  if (b.trial_error === true) return 'trialUsed';
  if (b.state === 'EXPIRED' || b.state === 'FAILED') return 'closed';
  return 'waiting';
}

/** POST /my/subscribe/card/'s answer. A used trial answers `error: "trial"` there. */
export function afterCardAnswer(body: unknown, unexpected: string): Outcome {
  const b = fields(body);
  if (b.trial_error === true || b.error === 'trial') return { step: { kind: 'trialUsed' }, error: null };
  if (b.success !== true) return { step: { kind: 'form' }, error: failureMessage(b, unexpected) };
  return { step: { kind: 'done', message: words(b.message) }, error: null };
}

/** A message with one placeholder split around it, so the page can put a link in its place. */
export function splitAround(formatted: (value: string) => string, marker = '\u0000'): [string, string] {
  const text = formatted(marker);
  const at = text.indexOf(marker);
  return at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + marker.length)];
}

/**
 * The plans page's address with the open plan in `?tier=`, or without it once the dialog closes:
 * the URL says what is on screen, so a reload (or a shared link) after closing does not open the
 * checkout again. Only the path, query and hash, for history.replaceState.
 */
export function planUrl(href: string, tier: string | null): string {
  const url = new URL(href);
  if (tier) url.searchParams.set('tier', tier);
  else url.searchParams.delete('tier');
  return `${url.pathname}${url.search}${url.hash}`;
}
