/**
 * The checkout island (docs/payments.md): the coupon box, the payment methods and their widget
 * (the card sandbox's form or Braintree's Drop-in; the Pix QR), and the purchase button.
 * Rendered on the server as a plain form, then hydrated. What the browser sends is a choice (a
 * pack, a coupon, a method and the provider's single-use nonce), never an amount.
 *
 * A method is chosen from the start (the page's preselection, or the one a refused submission
 * named), and a refused card field is marked and focused (issue 26).
 *
 * States (spec): the coupon is idle, valid or invalid, and editing it resets it; the purchase
 * button is disabled (a widget loading), enabled or processing (spinner). Card-type methods get
 * a nonce from their widget and submit the form; Pix creates a charge, shows its QR and
 * copy-and-paste code, polls every 3 s and submits the form once the charge is paid, or
 * re-enables the button when it expires or the widget is closed.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { IntlMessageFormat } from 'intl-messageformat';
import { CardFieldError, cardFieldId, cardProblem, SandboxCardFields, useCardWidget, type CardField } from '~/features/payments';
import { APP_CHECK_FIELD, type AppCheckSettings } from '~/lib/app-check';
import { appCheckToken, fetchWithAppCheck, prepareAppCheck } from '~/lib/app-check-client';
import { normalizeCoupon, type PaymentMethod } from './rules';
import type { CheckoutMessages } from './checkout-messages';
import './checkout.css';

export const PIX_POLL_MS = 3000;

export interface CheckoutProps {
  locale: string;
  packCode: string;
  next: string;
  requestKey: string;
  subtotal: string;
  /** ISO 4217 and the pack's price as a decimal string, for the wallets' payment sheets (Google Pay, Apple Pay). */
  currency: string;
  amount: string;
  methods: PaymentMethod[];
  /** The method chosen when the page opens: this site's usual one, or the one a refused submission named. */
  method: PaymentMethod | null;
  widget: { provider: 'sandbox' | 'braintree' | 'none'; clientToken: string | null };
  couponPattern: string;
  couponMaxLength: number;
  endpoints: { checkout: string; coupon: string; pix: string; pixStatus: string; nonce: string };
  /** The server's refusal of the last submission, shown in the page's alert. */
  serverError: string | null;
  /** The coupon sent with that submission, kept in the field. */
  coupon: string;
  /** The bot check: the Pix charge and the form's submission carry a token (null: not enforced). */
  appCheck: AppCheckSettings | null;
  messages: CheckoutMessages;
}

type CouponState = { kind: 'idle' } | { kind: 'applying' } | { kind: 'valid'; discount: string; total: string; bonus: number } | { kind: 'invalid'; message: string };
type Pix = { correlationID: string; brcode: string; qrSvg: string; expiresAt: number; total: string };

const METHOD_KEYS = { card: 'method.card', paypal: 'method.paypal', googlepay: 'method.googlepay', applepay: 'method.applepay', pix: 'method.pix' } as const;

export function Checkout(props: CheckoutProps) {
  const { messages, endpoints } = props;
  const t = useMemo(() => {
    const cache = new Map<string, IntlMessageFormat>();
    return (key: keyof CheckoutMessages, values?: Record<string, string | number>) => {
      let f = cache.get(key);
      if (!f) cache.set(key, (f = new IntlMessageFormat(messages[key], props.locale)));
      return String(f.format(values));
    };
  }, [messages, props.locale]);
  const formRef = useRef<HTMLFormElement>(null);
  const couponRef = useRef<HTMLInputElement>(null);
  const [hydrated, setHydrated] = useState(false);
  const [coupon, setCoupon] = useState(props.coupon);
  const [couponState, setCouponState] = useState<CouponState>({ kind: 'idle' });
  const [method, setMethod] = useState<PaymentMethod | null>(props.method);
  // Card data is never kept across a submission: a refused payment comes back with these empty.
  const [card, setCard] = useState({ number: '', expiry: '', cvv: '' });
  const [invalid, setInvalid] = useState<{ field: CardField; message: string } | null>(null);
  /** Bumped to move focus once the render shows what it points at (a marked field, the QR's copy button). */
  const [focusRequest, setFocusRequest] = useState<{ to: 'field' | 'pix' | 'error'; n: number } | null>(null);
  const pixRef = useRef<HTMLElement>(null);
  const copyRef = useRef<HTMLButtonElement>(null);
  const errorRef = useRef<HTMLDivElement>(null);
  const [processing, setProcessing] = useState(false);
  const [error, setError] = useState<string | null>(props.serverError);
  const [pix, setPix] = useState<Pix | null>(null);
  const [pixNote, setPixNote] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [copied, setCopied] = useState(false);
  const [nonce, setNonce] = useState('');
  const [deviceData, setDeviceData] = useState('');
  const [requestKey, setRequestKey] = useState(props.requestKey);
  /** The bot-check token the native submission carries (a hidden field: a form post has no headers of ours). */
  const [appCheck, setAppCheck] = useState('');
  const submitNow = useRef(false);

  useEffect(() => {
    setHydrated(true);
    // A reader on this page is about to pay: the token is solved while they choose.
    prepareAppCheck(props.appCheck);
    // A refused submission came back with the reader's coupon: apply it again, so paying again is one press.
    if (props.coupon) void applyCoupon();
    // …and its message: focus goes where the reader acts next, not to <body>.
    if (props.serverError) focusNext('error');
  }, []);

  function focusNext(to: 'field' | 'pix' | 'error') {
    setFocusRequest((f) => ({ to, n: (f?.n ?? 0) + 1 }));
  }

  useEffect(() => {
    if (!focusRequest) return;
    if (focusRequest.to === 'field' && invalid) {
      document.getElementById(cardFieldId(CARD_ID, invalid.field))?.focus();
    } else if (focusRequest.to === 'pix') {
      // As the subscription modal does: the QR in view, the copy button focused (a phone pays from another app or a second screen).
      const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches;
      pixRef.current?.scrollIntoView({ block: 'start', behavior: smooth ? 'smooth' : 'auto' });
      copyRef.current?.focus({ preventScroll: true });
    } else if (focusRequest.to === 'error') {
      // A refused card is typed again from its number; anything else is read from the alert.
      const number = method === 'card' ? document.getElementById(cardFieldId(CARD_ID, 'number')) : null;
      (number ?? errorRef.current)?.focus();
    }
  }, [focusRequest]);

  function markCard(field: CardField, message: string) {
    setInvalid({ field, message });
    focusNext('field');
  }

  /** Fills the hidden fields and submits the form (the effect below, once the nonce is in the DOM). */
  async function submitWith(paymentNonce: string, device: string) {
    setAppCheck((await appCheckToken(props.appCheck)) ?? '');
    setDeviceData(device);
    submitNow.current = true;
    setNonce(paymentNonce);
  }

  const cardWidget = useCardWidget({
    widget: props.widget, active: !!method && method !== 'pix', currency: props.currency, amount: props.amount, locale: props.locale,
    nonceEndpoint: endpoints.nonce, loadError: t('error.widget'), statusError: (status) => t('error.status', { status }), onError: setError,
  });
  const widgetLoading = cardWidget.loading;
  const dropinRef = cardWidget.dropinRef;

  // Once the hidden fields hold the nonce, the form goes to the server (a native submission: the answer is a redirect).
  useEffect(() => {
    if (submitNow.current && nonce) {
      submitNow.current = false;
      formRef.current?.submit();
    }
  }, [nonce, method]);

  // The Pix widget: a countdown every second and the charge's status every 3 s.
  useEffect(() => {
    if (!pix) return;
    const tick = setInterval(() => setNow(Date.now()), 1000);
    let stopped = false;
    const poll = async () => {
      try {
        const res = await fetch(`${endpoints.pixStatus}${encodeURIComponent(pix.correlationID)}/`, { credentials: 'same-origin', headers: { accept: 'application/json' } });
        if (!res.ok) throw new Error(String(res.status));
        const body = (await res.json()) as { status: string; paid: boolean };
        if (stopped) return;
        if (body.paid) {
          stopped = true;
          setPixNote(t('pix.paid'));
          await submitWith(pix.correlationID, '');
        } else if (body.status === 'EXPIRED' || body.status === 'FAILED') {
          stopped = true;
          closePix(t('pix.expired'));
        }
      } catch {
        if (!stopped) setPixNote(t('pix.error'));
      }
    };
    const timer = setInterval(poll, PIX_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(tick);
      clearInterval(timer);
    };
  }, [pix]);

  const pixSecondsLeft = pix ? Math.max(0, Math.ceil((pix.expiresAt - now) / 1000)) : 0;
  useEffect(() => {
    if (pix && pixSecondsLeft === 0) closePix(t('pix.expired'));
  }, [pix, pixSecondsLeft]);

  function closePix(note: string | null) {
    setPix(null);
    setPixNote(note);
    setProcessing(false);
    // A new charge needs a new request key: the old one names the closed order.
    setRequestKey(randomKey());
  }

  function resetCoupon(value: string) {
    setCoupon(normalizeCoupon(value));
    setCouponState({ kind: 'idle' });
  }

  /** The page's query parameters plus the pack (and coupon): what the coupon and Pix calls take. */
  function choiceForm(): URLSearchParams {
    const form = new URLSearchParams(location.search);
    form.set('pack', props.packCode);
    form.set('coupon', coupon);
    form.set('request_key', requestKey);
    return form;
  }

  async function applyCoupon() {
    const input = couponRef.current;
    const coupon = input?.value ?? '';
    if (!input || !coupon) return;
    if (!input.checkValidity()) {
      input.reportValidity();
      setCouponState({ kind: 'invalid', message: input.validationMessage });
      return;
    }
    setCouponState({ kind: 'applying' });
    try {
      const res = await fetch(endpoints.coupon, { method: 'POST', credentials: 'same-origin', body: choiceForm() });
      if (!res.ok) {
        setCouponState({ kind: 'invalid', message: (await res.text()) || t('error.status', { status: res.status }) });
        return;
      }
      const body = (await res.json()) as { checkout: { discount: { string: string }; total: { string: string } }; xtra_key_bonus: number };
      setCouponState({ kind: 'valid', discount: body.checkout.discount.string, total: body.checkout.total.string, bonus: body.xtra_key_bonus });
    } catch {
      setCouponState({ kind: 'invalid', message: t('error.network') });
    }
  }

  async function startPix() {
    setPixNote(null);
    const res = await fetchWithAppCheck(props.appCheck, endpoints.pix, { method: 'POST', credentials: 'same-origin', body: choiceForm() });
    if (!res.ok) throw new Error((await res.text()) || t('pix.error'));
    const body = (await res.json()) as { checkout: { correlationID: string; total: { string: string } }; brcode: string; qr_svg: string; expires_at: string };
    setPix({ correlationID: body.checkout.correlationID, brcode: body.brcode, qrSvg: body.qr_svg, expiresAt: Date.parse(body.expires_at), total: body.checkout.total.string });
    focusNext('pix');
  }

  async function submit(event: FormEvent) {
    if (submitNow.current) return;
    event.preventDefault();
    setError(null);
    if (coupon && couponState.kind !== 'valid') {
      setError(t('error.coupon'));
      couponRef.current?.focus();
      return;
    }
    if (!method) {
      setError(t('error.method'));
      return;
    }
    if (method === 'card' && props.widget.provider === 'sandbox') {
      // The gateway's own checks, first: the first wrong field is marked and focused.
      const field = cardProblem(card, new Date());
      if (field) {
        markCard(field, t(`card.invalid.${field}`));
        return;
      }
    }
    setInvalid(null);
    setProcessing(true);
    try {
      if (method === 'pix') {
        await startPix();
        return;
      }
      const got = await cardWidget.request(method, card);
      await submitWith(got.nonce, got.deviceData ?? '');
    } catch (e) {
      setProcessing(false);
      if (e instanceof CardFieldError) markCard(e.field, e.message);
      else setError(method === 'pix' ? t('pix.error') : e instanceof Error && e.message ? e.message : t('error.network'));
    }
  }

  async function copyCode() {
    if (!pix) return;
    try {
      await navigator.clipboard.writeText(pix.brcode);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      /* The code stays selectable in its field. */
    }
  }

  const total = couponState.kind === 'valid' ? couponState.total : props.subtotal;
  const busy = processing || widgetLoading;
  const minutes = Math.floor(pixSecondsLeft / 60);
  const seconds = String(pixSecondsLeft % 60).padStart(2, '0');

  return (
    <form ref={formRef} className="checkout-form" method="post" action={endpoints.checkout} onSubmit={submit} noValidate>
      <input type="hidden" name="pack" value={props.packCode} />
      <input type="hidden" name="next" value={props.next} />
      <input type="hidden" name="request_key" value={requestKey} />
      <input type="hidden" name="nonce" value={nonce} />
      <input type="hidden" name="device_data" value={deviceData} />
      <input type="hidden" name={APP_CHECK_FIELD} value={appCheck} />

      <div className="checkout-coupon">
        <label htmlFor="checkout-coupon">{t('coupon.label')}</label>
        <div className="checkout-coupon-row">
          <input
            ref={couponRef} id="checkout-coupon" name="coupon" type="text" inputMode="text" autoComplete="off" autoCapitalize="characters" spellCheck={false}
            pattern={props.couponPattern} maxLength={props.couponMaxLength} value={coupon}
            aria-invalid={couponState.kind === 'invalid'} aria-describedby="checkout-coupon-note"
            onChange={(e) => resetCoupon(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                void applyCoupon();
              }
            }}
          />
          <button type="button" className="btn" onClick={applyCoupon} disabled={!hydrated || !coupon || couponState.kind === 'applying'}>{t('coupon.apply')}</button>
        </div>
        <p id="checkout-coupon-note" className={`checkout-coupon-note${couponState.kind === 'invalid' ? ' is-error' : ''}`} aria-live="polite">
          {couponState.kind === 'invalid' && couponState.message}
          {couponState.kind === 'valid' && t('coupon.applied', { discount: couponState.discount, bonus: couponState.bonus })}
        </p>
      </div>

      <dl className="checkout-total" aria-live="polite">
        {couponState.kind === 'valid' && <div><dt>{t('summary.discount')}</dt><dd>−{couponState.discount}</dd></div>}
        <div className="is-total"><dt>{t('summary.total')}</dt><dd data-testid="checkout-total">{total}</dd></div>
      </dl>

      {/* The fieldset below is disabled while the Pix widget is open, and a disabled radio is not
          submitted: the form that finishes the Pix payment still names its method. */}
      {pix && <input type="hidden" name="method" value="pix" />}
      <fieldset className="checkout-methods" disabled={!!pix}>
        <legend>{t('method.legend')}</legend>
        {props.methods.map((m) => (
          <label key={m} className={`checkout-method${method === m ? ' is-selected' : ''}`}>
            <input type="radio" name="method" value={m} checked={method === m} onChange={() => { setMethod(m); setError(null); setInvalid(null); }} />
            <span>{t(METHOD_KEYS[m])}</span>
          </label>
        ))}
      </fieldset>

      {method === 'card' && props.widget.provider === 'sandbox' && (
        <SandboxCardFields
          idPrefix={CARD_ID} card={card} invalid={invalid} describedBy={error ? ERROR_ID : null} className="checkout-card" rowClassName="checkout-card-row" hintClassName="muted checkout-sandbox-note"
          labels={{ legend: t('card.legend'), sandbox: t('card.sandbox'), number: t('card.number'), expiry: t('card.expiry'), cvv: t('card.cvv') }}
          onChange={(next) => {
            setCard(next);
            // Editing the refused field clears its mark; the message goes with it.
            if (invalid && next[invalid.field] !== card[invalid.field]) setInvalid(null);
          }}
        />
      )}
      {method && method !== 'card' && method !== 'pix' && props.widget.provider === 'sandbox' && <p className="muted checkout-sandbox-note">{t('wallet.sandbox', { method: t(METHOD_KEYS[method]) })}</p>}
      {props.widget.provider === 'braintree' && <div ref={dropinRef} className="checkout-dropin" hidden={!method || method === 'pix'} />}

      {pix && (
        <section ref={pixRef} className="checkout-pix" aria-labelledby="checkout-pix-title">
          <h2 id="checkout-pix-title">{t('pix.title', { total: pix.total })}</h2>
          {pix.qrSvg ? <div className="checkout-pix-qr" dangerouslySetInnerHTML={{ __html: pix.qrSvg }} /> : <div className="checkout-pix-qr is-missing">{t('pix.noQr')}</div>}
          <label htmlFor="checkout-pix-code">{t('pix.code')}</label>
          <div className="checkout-pix-copy">
            <input id="checkout-pix-code" readOnly value={pix.brcode} onFocus={(e) => e.currentTarget.select()} />
            <button ref={copyRef} type="button" className="btn" onClick={copyCode}>{copied ? t('pix.copied') : t('pix.copy')}</button>
          </div>
          <p className="checkout-pix-countdown" role="timer" aria-live="off">{t('pix.expiresIn', { time: `${minutes}:${seconds}` })}</p>
          <p className="muted" aria-live="polite">{pixNote ?? t('pix.waiting')}</p>
          <button type="button" className="btn btn-ghost" onClick={() => closePix(null)}>{t('pix.close')}</button>
        </section>
      )}
      {!pix && pixNote && <p className="checkout-pix-note" role="status">{pixNote}</p>}

      {error && (
        <div ref={errorRef} className="alert alert-danger checkout-error" role="alert" tabIndex={-1}>
          <span id={ERROR_ID}>{error}</span>
          <button type="button" className="alert-close" aria-label={t('error.dismiss')} onClick={() => setError(null)}>×</button>
        </div>
      )}

      <button type="submit" className="btn btn-primary checkout-submit" disabled={!hydrated || busy || !!pix} aria-busy={busy}>
        {busy && <span className="spinner" aria-hidden="true" />}
        {busy ? t('submit.processing') : t('submit.pay', { total })}
      </button>
    </form>
  );
}

const CARD_ID = 'checkout-card';
const ERROR_ID = 'checkout-error-message';

function randomKey(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
