/**
 * The subscribe button's pure parts: what each answer of the add-comic call (or its failure)
 * makes the button say. Browser-safe, no DOM; unit-tested in subscribe-button.test.ts.
 * The states (the product spec's subscribe button): idle → pending ("Subscribing...",
 * disabled) → subscribed ("Series subscribed" with the slots left, then a reload), or back to
 * idle with a message.
 */

/** How long "Series subscribed" stays on screen before the page loads again (spec: 1.5 s). */
export const SUBSCRIBE_RELOAD_MS = 1500;

/** The button's messages, already in the site's language (the page writes them into `data-*`). */
export interface SubscribeMessages {
  pending: string;
  done: string;
  /** Slots left: `{n}` stands for the number; `none` is used for 0. */
  slotsNone: string;
  slotsOne: string;
  slotsOther: string;
  /** The server answered without saying why. */
  failed: string;
  /** No usable answer: the network failed or the answer was not JSON. */
  retry: string;
  /** The button carries no series id. */
  missing: string;
}

/** `plans`: the reader has no plan (402); the message comes with a link to the plans page. */
export type SubscribeFailure = { kind: 'failed'; text: string; plans: boolean };
export type SubscribeOutcome = { kind: 'subscribed'; text: string; slots: string } | SubscribeFailure;

/**
 * "{n} slots left": the singular at 1 only (0 has its own message). Not Intl.PluralRules, whose
 * Portuguese `one` covers 0 too; a count is whole, and both languages read "1" alone as singular.
 */
export function slotsText(n: number, m: Pick<SubscribeMessages, 'slotsNone' | 'slotsOne' | 'slotsOther'>, locale: string): string {
  const count = Number.isSafeInteger(n) && n > 0 ? n : 0;
  if (count === 0) return m.slotsNone;
  return (count === 1 ? m.slotsOne : m.slotsOther).replace('{n}', new Intl.NumberFormat(locale).format(count));
}

/**
 * What an answer of the add-comic call means for the button. `body` is the parsed JSON, or
 * undefined when the answer was not JSON (a proxy's error page, an empty body).
 */
export function outcomeOf(status: number, body: unknown, m: SubscribeMessages, locale: string): SubscribeOutcome {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return { kind: 'failed', text: m.retry, plans: false };
  const b = body as Record<string, unknown>;
  if (status >= 200 && status < 300 && b.success === true) {
    return { kind: 'subscribed', text: m.done, slots: slotsText(typeof b.slots_left === 'number' ? b.slots_left : 0, m, locale) };
  }
  const error = typeof b.error === 'string' && b.error.trim() ? b.error : m.failed;
  return { kind: 'failed', text: error, plans: status === 402 };
}

/** The failure of a call that never got an answer (offline, aborted, DNS). */
export function networkFailure(m: SubscribeMessages): SubscribeFailure {
  return { kind: 'failed', text: m.retry, plans: false };
}

/** The click on a button without a series id: nothing is sent. */
export function missingData(m: SubscribeMessages): SubscribeFailure {
  return { kind: 'failed', text: m.missing, plans: false };
}

// ---------------------------------------------------------------- without JavaScript

/** Why the subscribe form did not subscribe, as the series page's `?subscribe=` value (it shows the message). */
export const SUBSCRIBE_NOTICES = ['noPlan', 'noSlots', 'unavailable', 'missing'] as const;
export type SubscribeNotice = (typeof SUBSCRIBE_NOTICES)[number];

/** The notice for an add-comic status: null on success, else why (the same cases the button shows). */
export function noticeOf(status: number): SubscribeNotice | null {
  if (status >= 200 && status < 300) return null;
  if (status === 402) return 'noPlan';
  if (status === 409) return 'noSlots';
  if (status === 404) return 'unavailable';
  return 'missing';
}

export function parseNotice(value: string | null): SubscribeNotice | null {
  return SUBSCRIBE_NOTICES.find((n) => n === value) ?? null;
}

/** Where the form goes back to: `next` (a local path, already checked) with the notice, at the button. */
export function backTo(next: string, notice: SubscribeNotice | null): string {
  const url = new URL(next, 'http://inkpass.invalid');
  url.searchParams.delete('subscribe');
  if (notice) url.searchParams.set('subscribe', notice);
  return `${url.pathname}${url.search}#subscribe`;
}
