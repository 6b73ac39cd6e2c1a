/**
 * The unlock dialog island: what a chapter costs, both balances, which currency will pay, the
 * bonus, and the ways in (keys; the daily pass and an ad when open; a plan rental when the
 * reader's subscription has one left this month). A native <dialog> opened modally, so the
 * browser keeps focus inside it, closes it on Escape and hides the page behind it from assistive
 * technology; focus goes back to the button that opened it.
 * Success reloads after 250 ms with a 500 ms fade (a dialog reopened after buying keys or logging
 * in opens the chapter instead); a failure shows the server's detail (or
 * "Error {status}") in a dismissible alert inside the dialog and re-enables the buttons; a
 * failed redeem is also reported (spec section 8; src/lib/report.ts).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { IntlMessageFormat } from 'intl-messageformat';
import type { PricingBalances, UnlockOffer } from '~/features/catalog';
import { fetchWithAppCheck, prepareAppCheck } from '~/lib/app-check-client';
import { APP_CHECK_REFUSED_HEADER } from '~/lib/app-check';
import { reportProblem } from '~/lib/report';
import { dialogView, failureText, payWords, redeemFailure, type DialogConfig, type DialogMessageKey } from './unlock-dialog';
import './unlock-dialog.css';

/** How long a success stays on screen before the reload, and the fade that covers the reload. */
export const RELOAD_DELAY_MS = 250;
export const FADE_MS = 500;

export interface UnlockDialogProps {
  config: DialogConfig;
  offer: UnlockOffer;
  balances: PricingBalances;
  /** The page path the buy-keys link comes back to (with this chapter's unlock intent). */
  returnPath: string;
  /**
   * Reopened on the way back from buying keys or logging in (unlock.client.ts): the purchase's
   * receipt, if any, shows first, and unlocking opens the chapter, which is what the reader set
   * out to do, instead of reloading the page they left.
   */
  resumed?: { receipt: string | null } | null;
  onClose: () => void;
}

interface Creative {
  type: string;
  src: string;
  poster?: string | null;
  fit: string;
  series: { name: string; link: string };
}
type Ad = { token: string; creative: Creative; readyAt: number };

export function UnlockDialog({ config, offer, balances, returnPath, resumed = null, onClose }: UnlockDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [ad, setAd] = useState<Ad | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const t = useMemo(() => {
    const cache = new Map<string, IntlMessageFormat>();
    return (key: DialogMessageKey, values?: Record<string, string | number>) => {
      let f = cache.get(key);
      if (!f) cache.set(key, (f = new IntlMessageFormat(config.messages[key], config.locale)));
      return String(f.format(values));
    };
  }, [config]);
  const view = dialogView(offer, balances);
  const words = payWords(view);
  const titleId = `unlock-title-${offer.e4pid}`;

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    // The redeem call needs a bot-check token: solved while the reader reads the dialog.
    if (view.currency) prepareAppCheck(config.appCheck);
    dialog.showModal();
    // The primary action first (the browser would pick the close button, the first in the dialog).
    dialog.querySelector<HTMLButtonElement>('.unlock-actions button, .unlock-free button')?.focus();
    const closed = () => onClose();
    dialog.addEventListener('close', closed);
    return () => dialog.removeEventListener('close', closed);
  }, []);

  // The ad's countdown ticks once a second while it plays.
  useEffect(() => {
    if (!ad) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ad]);

  /** `appCheck`: the call is a money call and carries a bot-check token (only the redeem call). */
  const post = async (url: string, body: Record<string, string>, appCheck = false) => {
    setPending(true);
    setError(null);
    try {
      const init = { method: 'POST', body: new URLSearchParams(body), credentials: 'same-origin', headers: { accept: 'application/json' } } as const;
      const res = appCheck ? await fetchWithAppCheck(config.appCheck, url, init) : await fetch(url, init);
      if (!res.ok) {
        const text = await failureText(res, (status) => t('unlock.errorStatus', { status }));
        setError(text);
        // The spec's redeem failure is also reported (section 8); a bot-check refusal says so,
        // and the ignore list leaves it out (src/server/error-filter.mjs).
        if (appCheck) reportProblem(redeemFailure(res.status, res.headers.get(APP_CHECK_REFUSED_HEADER), text));
        setPending(false);
        return null;
      }
      return (await res.json()) as Record<string, unknown>;
    } catch {
      setError(t('unlock.errorStatus', { status: 0 }));
      setPending(false);
      return null;
    }
  };

  /** Success: a moment to read it, then the page fades and loads again (or opens the chapter). */
  const finish = (message: string, go: () => void) => {
    setDone(message);
    setTimeout(() => {
      document.documentElement.classList.add('unlock-fading');
      setTimeout(go, FADE_MS);
    }, RELOAD_DELAY_MS);
  };

  const unlock = async () => {
    const r = await post(config.endpoints.redeem, { content: offer.e4pid }, true);
    if (r) finish(t('unlock.success', { chapter: offer.name }), () => (resumed ? location.assign(offer.href) : location.reload()));
  };
  const usePass = async () => {
    const r = await post(config.endpoints.pass, { content: offer.e4pid });
    if (r) finish(t('unlock.success', { chapter: offer.name }), () => location.assign(offer.href));
  };
  const rent = async () => {
    const r = await post(config.endpoints.rent, { content: offer.e4pid });
    if (r) finish(t('unlock.success', { chapter: offer.name }), () => location.assign(offer.href));
  };
  const startAd = async () => {
    const r = await post(config.endpoints.adStart, { content: offer.e4pid });
    if (!r) return;
    setPending(false);
    // Counted on this device's clock from the answer, so a clock set ahead does not claim too early.
    setAd({ token: String(r.token), creative: r.creative as Creative, readyAt: Date.now() + Number(r.min_seconds) * 1000 });
    setNow(Date.now());
  };
  const claimAd = async () => {
    if (!ad) return;
    const r = await post(config.endpoints.adComplete, { token: ad.token });
    if (r) finish(t('unlock.success', { chapter: offer.name }), () => location.assign(offer.href));
  };

  const secondsLeft = ad ? Math.max(0, Math.ceil((ad.readyAt - now) / 1000)) : 0;
  const buyHref = `${config.purchase}?next=${encodeURIComponent(returnPath)}#chapters`;

  return (
    <dialog ref={ref} className="unlock-dialog" aria-labelledby={titleId}>
      <div className="unlock-head">
        <h2 id={titleId}>{t('unlock.title', { chapter: offer.name })}</h2>
        <button type="button" className="unlock-close" aria-label={t('unlock.close')} onClick={() => ref.current?.close()}>
          <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6 6 18" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" /></svg>
        </button>
      </div>

      {ad ? (
        <div className="unlock-ad">
          <p className="unlock-ad-label">{t('unlock.adSponsor')}</p>
          <a className="unlock-ad-visual" href={ad.creative.series.link} target="_blank" rel="noopener">
            {ad.creative.type === 'VIDEO' || ad.creative.type === 'ANIMATION' ? (
              <video src={ad.creative.src} poster={ad.creative.poster ?? undefined} autoPlay={typeof matchMedia !== 'function' || !matchMedia('(prefers-reduced-motion: reduce)').matches} controls muted playsInline loop style={{ objectFit: fitOf(ad.creative.fit) }} aria-label={ad.creative.series.name} />
            ) : (
              <img src={ad.creative.src} alt={ad.creative.series.name} style={{ objectFit: fitOf(ad.creative.fit) }} />
            )}
          </a>
          <p className="unlock-ad-series"><a href={ad.creative.series.link} target="_blank" rel="noopener">{t('unlock.adOpen', { series: ad.creative.series.name })}</a></p>
          <p className="unlock-ad-status" aria-live="polite">{secondsLeft > 0 ? t('unlock.adWatching', { seconds: secondsLeft }) : ''}</p>
          <button type="button" className="btn btn-primary" disabled={secondsLeft > 0 || pending || done !== null} onClick={claimAd}>{t('unlock.adClaim')}</button>
        </div>
      ) : (
        <div className="unlock-body">
          {resumed?.receipt && <p className="unlock-receipt">{resumed.receipt}</p>}
          <p className="unlock-price">
            {t('unlock.price', { price: offer.price })}
            {offer.original > offer.price && <> <s className="muted">{t('unlock.was', { price: offer.original })}</s></>}
          </p>
          <p>{t('wallet.balances', { keys: balances.keys, xtra: balances.xtra })}</p>
          {words && <p className="unlock-pay">{t(words.pay, { price: offer.price })}</p>}
          {view.currency && offer.bonus > 0 && <p className="unlock-bonus">{t('wallet.bonusLine', { bonus: offer.bonus })}</p>}
          {!view.currency && (
            <p className="unlock-short">
              {t('unlock.short', { missing: view.missing })} <a className="btn" href={buyHref}>{t('wallet.buyKeys')}</a>
            </p>
          )}
          <div className="unlock-actions">
            {words && (
              <button type="button" className="btn btn-primary" disabled={pending || done !== null} aria-busy={pending} onClick={unlock}>
                {pending ? t('unlock.pending') : t(words.confirm, { price: offer.price })}
              </button>
            )}
          </div>
          {(offer.pass || offer.ad) && (
            <div className="unlock-free">
              <p className="muted">{t('unlock.orFree')}</p>
              {offer.pass && <button type="button" className="btn" disabled={pending || done !== null} onClick={usePass}>{t('unlock.pass')}</button>}
              {offer.ad && <button type="button" className="btn" disabled={pending || done !== null} onClick={startAd}>{t('unlock.ad')}</button>}
            </div>
          )}
          {offer.rent !== null && (
            <div className="unlock-free unlock-rent">
              <p className="muted">{t('unlock.orPlan')}</p>
              <button type="button" className="btn" disabled={pending || done !== null} onClick={rent}>{t('unlock.rent', { n: offer.rent })}</button>
            </div>
          )}
        </div>
      )}

      {done && <p className="unlock-done" role="status">{done}</p>}
      {error && (
        <div className="unlock-error" role="alert">
          <span>{error}</span>
          <button type="button" className="unlock-dismiss" aria-label={t('unlock.dismiss')} onClick={() => setError(null)}>×</button>
        </div>
      )}
    </dialog>
  );
}

const FITS: Record<string, 'cover' | 'contain' | 'fill' | 'none' | 'scale-down'> = { COVER: 'cover', CONTAIN: 'contain', FILL: 'fill', NONE: 'none', SCALE_DOWN: 'scale-down', FIT_WIDTH: 'contain', FIT_HEIGHT: 'contain' };
function fitOf(fit: string) {
  return FITS[fit] ?? 'cover';
}
