/**
 * The subscription checkout modal (issue 15): a native <dialog> that opens by itself when the
 * plans page's URL names a plan (`?tier=`), opened modally so the browser keeps focus inside,
 * closes it on Escape and hides the page behind it from assistive technology.
 *
 * Pix (the Portuguese site's default): the payer's name and CPF/CNPJ (masked as typed; Enter in
 * either field subscribes) go to the subscription Pix call; a first payment shows the QR, the
 * copy-and-paste code ("Copiado!" for 2 s) and a countdown ticking each second, and polls the
 * status call every 20 s until it is paid; an expired code says so and offers a new one. Card-type
 * methods get a nonce the way the key-pack checkout does (the card sandbox's form or Braintree's
 * Drop-in) and send it to the card call. Success shows a confirmation, then goes to
 * /my/subscriptions/ after 1.5 s; a reader whose trial is used gets the notice and the contact
 * note instead of the form. What each answer means lives in checkout-flow.ts.
 */
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { IntlMessageFormat } from 'intl-messageformat';
import { CardFieldError, cardFieldId, cardProblem, SandboxCardFields, useCardWidget, type CardField } from '~/features/payments';
import type { AppCheckSettings } from '~/lib/app-check';
import { fetchWithAppCheck, prepareAppCheck } from '~/lib/app-check-client';
import { SANDBOX_NONCE_ENDPOINT, SUBSCRIBE_CARD_ENDPOINT, SUBSCRIBE_PIX_ENDPOINT, subscribeStatusPath, subscriptionsPath } from '~/lib/paths';
import { countdownParts } from './countdown';
import { maskTaxDocument, parseTaxDocument } from './documents';
import {
  afterCardAnswer, afterPixAnswer, afterStatus, COPIED_LABEL_MS, COUNTDOWN_TICK_MS, METHOD_MESSAGES, planUrl, REDIRECT_DELAY_MS, splitAround, STATUS_POLL_MS,
  type Outcome, type PixCharge, type Step, type SubscribeMessageKey, type SubscribeMessages, type SubscribeMethod,
} from './checkout-flow';
import './subscribe-checkout.css';

export interface SubscribeCheckoutProps {
  locale: string;
  plan: { code: string; name: string; price: string; trialDays: number };
  /** ISO 4217 and the price as a decimal string, for the wallets' payment sheets (Drop-in). */
  currency: string;
  amount: string;
  /** The first is preselected: Pix on the Portuguese site, card on the English one. */
  methods: SubscribeMethod[];
  widget: { provider: 'sandbox' | 'braintree' | 'none'; clientToken: string | null };
  /** The plan has a trial and this reader already used theirs: the notice replaces the checkout. */
  trialUsed: boolean;
  /** The bot check: both subscription calls carry a token (null: not enforced). */
  appCheck: AppCheckSettings | null;
  messages: SubscribeMessages;
}


const ID = 'subscribe';
const CARD_ID = `${ID}-card`;

export function SubscribeCheckout(props: SubscribeCheckoutProps) {
  const { messages, plan } = props;
  const t = useMemo(() => {
    const cache = new Map<string, IntlMessageFormat>();
    return (key: SubscribeMessageKey, values?: Record<string, string | number>) => {
      let f = cache.get(key);
      if (!f) cache.set(key, (f = new IntlMessageFormat(messages[key], props.locale)));
      return String(f.format(values));
    };
  }, [messages, props.locale]);

  const dialogRef = useRef<HTMLDialogElement>(null);
  const nameRef = useRef<HTMLInputElement>(null);
  const docRef = useRef<HTMLInputElement>(null);
  const copyRef = useRef<HTMLButtonElement>(null);
  const codeRef = useRef<HTMLInputElement>(null);
  const doneRef = useRef<HTMLParagraphElement>(null);
  const noticeRef = useRef<HTMLDivElement>(null);
  /** The charge being polled: a late answer about an older charge changes nothing. */
  const checkRef = useRef<string | null>(null);

  const [hydrated, setHydrated] = useState(false);
  const [step, setStep] = useState<Step>(props.trialUsed ? { kind: 'trialUsed' } : { kind: 'form' });
  const [method, setMethod] = useState<SubscribeMethod>(props.methods[0] ?? 'card');
  const [name, setName] = useState('');
  const [doc, setDoc] = useState('');
  const [invalid, setInvalid] = useState<'name' | 'doc' | null>(null);
  const [card, setCard] = useState({ number: '', expiry: '', cvv: '' });
  /** A card field refused before the call or by the sandbox: marked, described and focused, as on the key-pack checkout. */
  const [cardInvalid, setCardInvalid] = useState<{ field: CardField; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const [copied, setCopied] = useState(false);

  /** The plan's own "Subscribe" link on the page: where focus goes back, and what opens the dialog again. */
  const planLink = () => document.querySelector<HTMLAnchorElement>(`a[data-tier="${CSS.escape(plan.code)}"]`);

  function open() {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (!dialog.open) dialog.showModal();
    // showModal() would focus the close button, the first control: the first field is what the reader wants.
    const first = dialog.querySelector<HTMLElement>('[data-first]');
    first?.focus();
  }

  // Opens by itself: the reader came here for this plan (a plan link, or back from logging in).
  useEffect(() => {
    setHydrated(true);
    // The subscription calls need a bot-check token: solved while the reader fills the form in.
    if (!props.trialUsed) prepareAppCheck(props.appCheck);
    open();
    const dialog = dialogRef.current!;
    // Closed (Escape, the close button, after paying): the address forgets the plan, so a reload does not reopen it.
    const closed = () => {
      history.replaceState(history.state, '', planUrl(location.href, null));
      planLink()?.focus();
    };
    const reopen = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const link = e.target instanceof Element ? e.target.closest('a[data-tier]') : null;
      if (link && link === planLink()) {
        // Same plan: the dialog comes back as it was (a QR being paid keeps its countdown), no reload.
        e.preventDefault();
        history.replaceState(history.state, '', planUrl(location.href, plan.code));
        open();
      }
    };
    dialog.addEventListener('close', closed);
    document.addEventListener('click', reopen);
    return () => {
      dialog.removeEventListener('close', closed);
      document.removeEventListener('click', reopen);
    };
  }, []);

  // Focus follows the step, so it never falls out of the dialog with the control that had it.
  useEffect(() => {
    if (!hydrated) return;
    if (step.kind === 'pix') (step.expired ? dialogRef.current?.querySelector<HTMLElement>('[data-new-payment]') : copyRef.current)?.focus();
    else if (step.kind === 'done') doneRef.current?.focus();
    else if (step.kind === 'trialUsed') noticeRef.current?.focus();
  }, [step.kind, step.kind === 'pix' && step.expired]);

  // The same card widget as the key-pack checkout (Braintree's Drop-in on demand, or the sandbox).
  const cardWidget = useCardWidget({
    widget: props.widget, active: method !== 'pix', currency: props.currency, amount: props.amount, locale: props.locale,
    nonceEndpoint: SANDBOX_NONCE_ENDPOINT, loadError: t('error.widget'), statusError: (status) => t('error.status', { status }), onError: setError,
  });
  const widgetLoading = cardWidget.loading;
  const dropinRef = cardWidget.dropinRef;

  // The QR's countdown (every second) and the status poll (every 20 s), while the code is alive.
  const charge = step.kind === 'pix' ? step.charge : null;
  const expired = step.kind === 'pix' && step.expired;
  useEffect(() => {
    if (!charge || expired) return;
    checkRef.current = charge.check;
    setNow(Date.now());
    const tick = setInterval(() => setNow(Date.now()), COUNTDOWN_TICK_MS);
    const poll = setInterval(() => void check(charge), STATUS_POLL_MS);
    return () => {
      clearInterval(tick);
      clearInterval(poll);
    };
  }, [charge, expired]);

  const left = charge ? countdownParts(charge.expiresAtMs, now) : null;
  useEffect(() => {
    if (!charge || expired || !left?.expired) return;
    markExpired(charge);
    // A payment made in the last seconds before the expiry still counts: one last look.
    void check(charge);
  }, [charge, expired, left?.expired]);

  function markExpired(c: PixCharge) {
    setStep((s) => (s.kind === 'pix' && s.charge === c ? { ...s, expired: true } : s));
  }

  async function check(c: PixCharge) {
    try {
      const res = await fetch(subscribeStatusPath(c.check), { credentials: 'same-origin', headers: { accept: 'application/json' } });
      const result = afterStatus(res.ok ? await res.json() : null);
      if (checkRef.current !== c.check) return;
      if (result === 'paid') finish(null);
      else if (result === 'closed') markExpired(c);
      else if (result === 'trialUsed') setStep({ kind: 'trialUsed' });
    } catch {
      // Offline for a moment: the next poll asks again.
    }
  }

  /** The confirmation, then /my/subscriptions/. */
  function finish(message: string | null) {
    checkRef.current = null;
    setError(null);
    setStep({ kind: 'done', message });
    setTimeout(() => location.assign(subscriptionsPath()), REDIRECT_DELAY_MS);
  }

  function apply(outcome: Outcome) {
    if (outcome.step.kind === 'done') {
      finish(outcome.step.message);
      return;
    }
    setStep(outcome.step);
    setError(outcome.error);
    setInvalid(outcome.field ?? null);
    if (outcome.field) (outcome.field === 'name' ? nameRef : docRef).current?.focus();
  }

  async function post(url: string, form: Record<string, string>): Promise<unknown> {
    const res = await fetchWithAppCheck(props.appCheck, url, { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json' }, body: new URLSearchParams(form) });
    // Refusals come with a 4xx status and the same JSON shape; anything else is "unexpected".
    return res.json().catch(() => null);
  }

  async function subscribeWithPix() {
    if (!parseTaxDocument(doc)) {
      // Checked here too (the same rule as the server's), so a mistyped digit needs no round trip.
      setInvalid('doc');
      setError(t('error.doc'));
      docRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      apply(afterPixAnswer(await post(SUBSCRIBE_PIX_ENDPOINT, { pix_doc: doc, pix_name: name, tier_id: plan.code }), t('unexpected')));
    } catch {
      setStep((s) => (s.kind === 'pix' && s.expired ? s : { kind: 'form' }));
      setError(t('unexpected'));
    } finally {
      setBusy(false);
    }
  }

  function markCard(field: CardField, message: string) {
    setCardInvalid({ field, message });
    document.getElementById(cardFieldId(CARD_ID, field))?.focus();
  }

  async function subscribeWithCard(m: Exclude<SubscribeMethod, 'pix'>) {
    if (m === 'card' && props.widget.provider === 'sandbox') {
      const field = cardProblem(card, new Date());
      if (field) {
        markCard(field, t(`card.invalid.${field}`));
        return;
      }
    }
    setCardInvalid(null);
    setBusy(true);
    setError(null);
    try {
      const got = await cardWidget.request(m, card);
      apply(afterCardAnswer(await post(SUBSCRIBE_CARD_ENDPOINT, { tier_id: plan.code, method: m, nonce: got.nonce, device_data: got.deviceData ?? '' }), t('unexpected')));
    } catch (e) {
      if (e instanceof CardFieldError) markCard(e.field, e.message);
      else setError(e instanceof Error && e.message ? e.message : t('unexpected'));
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy || widgetLoading) return;
    if (method === 'pix') void subscribeWithPix();
    else void subscribeWithCard(method);
  }

  async function copyCode() {
    if (!charge) return;
    let ok = false;
    try {
      await navigator.clipboard.writeText(charge.code);
      ok = true;
    } catch {
      // No clipboard permission (an embedded page, an old browser): copy the selected field instead.
      codeRef.current?.select();
      ok = document.execCommand?.('copy') ?? false;
    }
    if (!ok) return;
    setCopied(true);
    setTimeout(() => setCopied(false), COPIED_LABEL_MS);
  }

  const titleId = `${ID}-title`;
  const [contactBefore, contactAfter] = splitAround((email) => t('contact', { email }));
  const email = t('contactEmail');
  const submitLabel = plan.trialDays > 0 ? t('submitTrial') : t('submit', { price: plan.price });
  const showBusy = busy || widgetLoading;
  const errorBox = error && (
    <div className="subscribe-error" role="alert">
      <span>{error}</span>
      <button type="button" className="subscribe-dismiss" aria-label={t('error.dismiss')} onClick={() => setError(null)}>×</button>
    </div>
  );

  return (
    <dialog ref={dialogRef} className="subscribe-dialog" aria-labelledby={titleId} aria-describedby={`${ID}-price`}>
      <div className="subscribe-head">
        <h2 id={titleId}>{t('title', { plan: plan.name })}</h2>
        <button type="button" className="subscribe-close" aria-label={t('close')} onClick={() => dialogRef.current?.close()}>
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" /></svg>
        </button>
      </div>
      <div className="subscribe-body">
        <p id={`${ID}-price`} className="subscribe-price">{plan.trialDays > 0 ? t('trialThen', { days: plan.trialDays, price: plan.price }) : t('price', { price: plan.price })}</p>

        {step.kind === 'trialUsed' && (
          <div ref={noticeRef} className="subscribe-notice" tabIndex={-1} data-first>
            <p>{t('trialUsed')}</p>
            <p>{contactBefore}<a href={`mailto:${email}`}>{email}</a>{contactAfter}</p>
          </div>
        )}

        {step.kind === 'form' && (
          <form className="subscribe-form" onSubmit={submit} noValidate>
            {props.methods.length > 1 && (
              <fieldset className="subscribe-methods">
                <legend>{t('method.legend')}</legend>
                {props.methods.map((m) => (
                  <label key={m} className={`subscribe-method${method === m ? ' is-selected' : ''}`}>
                    <input type="radio" name="method" value={m} checked={method === m} onChange={() => { setMethod(m); setError(null); setCardInvalid(null); }} />
                    <span>{t(METHOD_MESSAGES[m])}</span>
                  </label>
                ))}
              </fieldset>
            )}

            {method === 'pix' && (
              <div className="subscribe-fields">
                <label htmlFor={`${ID}-name`}>{t('name')}</label>
                <input
                  ref={nameRef} id={`${ID}-name`} name="pix_name" type="text" autoComplete="name" maxLength={60} required data-first
                  aria-invalid={invalid === 'name'} value={name} onChange={(e) => { setName(e.currentTarget.value); setInvalid(null); }}
                />
                <label htmlFor={`${ID}-doc`}>{t('doc')}</label>
                <input
                  ref={docRef} id={`${ID}-doc`} name="pix_doc" type="text" autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={18} required
                  aria-invalid={invalid === 'doc'} aria-describedby={`${ID}-doc-hint`}
                  value={doc} onChange={(e) => { setDoc(maskTaxDocument(e.currentTarget.value)); setInvalid(null); }}
                />
                <p id={`${ID}-doc-hint`} className="subscribe-hint">{t('docHint')}</p>
              </div>
            )}

            {method === 'card' && props.widget.provider === 'sandbox' && (
              <SandboxCardFields
                idPrefix={CARD_ID} invalid={cardInvalid} card={card} first={props.methods[0] === 'card'}
                className="subscribe-card" rowClassName="subscribe-card-row" hintClassName="subscribe-hint"
                labels={{ legend: t('card.legend'), sandbox: t('card.sandbox'), number: t('card.number'), expiry: t('card.expiry'), cvv: t('card.cvv') }}
                onChange={(next) => {
                  setCard(next);
                  if (cardInvalid && next[cardInvalid.field] !== card[cardInvalid.field]) setCardInvalid(null);
                }}
              />
            )}
            {method !== 'card' && method !== 'pix' && props.widget.provider === 'sandbox' && <p className="subscribe-hint">{t('wallet.sandbox', { method: t(METHOD_MESSAGES[method]) })}</p>}
            {props.widget.provider === 'braintree' && <div ref={dropinRef} className="subscribe-dropin" hidden={method === 'pix'} />}

            {/* Above the button, where the eye is after pressing it (the dialog may scroll on a phone). */}
            {errorBox}
            <button type="submit" className="btn btn-primary subscribe-submit" disabled={!hydrated || showBusy} aria-busy={showBusy}>
              {showBusy && <span className="subscribe-spinner" aria-hidden="true" />}
              {showBusy ? t('processing') : submitLabel}
            </button>
          </form>
        )}

        {step.kind === 'pix' && (
          <section className="subscribe-pix" aria-labelledby={`${ID}-pix-title`}>
            <h3 id={`${ID}-pix-title`}>{t('pix.title', { total: plan.price })}</h3>
            {step.charge.qrSvg
              ? <div className={`subscribe-qr${step.expired ? ' is-expired' : ''}`} dangerouslySetInnerHTML={{ __html: step.charge.qrSvg }} />
              : <div className="subscribe-qr is-missing">{t('pix.noQr')}</div>}
            <label htmlFor={`${ID}-code`}>{t('pix.code')}</label>
            <div className="subscribe-copy">
              <input ref={codeRef} id={`${ID}-code`} readOnly value={step.charge.code} onFocus={(e) => e.currentTarget.select()} />
              <button ref={copyRef} type="button" className="btn" onClick={copyCode} disabled={step.expired}>{copied ? t('pix.copied') : t('pix.copy')}</button>
            </div>
            {step.expired ? (
              <>
                <p className="subscribe-expired" role="alert">{t('pix.expired')}</p>
                <button type="button" className="btn btn-primary" data-new-payment onClick={() => void subscribeWithPix()} disabled={busy} aria-busy={busy}>
                  {busy && <span className="subscribe-spinner" aria-hidden="true" />}
                  {busy ? t('processing') : t('newPayment')}
                </button>
              </>
            ) : (
              <>
                <p className="subscribe-countdown" role="timer" aria-live="off">{t('pix.expiresIn', { time: left?.text ?? '00:00' })}</p>
                <p className="subscribe-hint">{t('waiting')}</p>
              </>
            )}
          </section>
        )}

        {/* Always in the page, so screen readers announce the confirmation when it appears. */}
        <p ref={doneRef} className={`subscribe-done${step.kind === 'done' ? ' is-shown' : ''}`} role="status" tabIndex={-1}>
          {step.kind === 'done' && <>{step.message ?? t('paid')} {t('redirecting')}</>}
        </p>

        {step.kind !== 'form' && errorBox}
      </div>
    </dialog>
  );
}
