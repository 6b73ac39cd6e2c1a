/**
 * The card widget both checkouts use (key packs and subscriptions): Braintree's Drop-in, loaded
 * on the first use of a card-type method and only when Braintree is configured, or the local
 * sandbox, whose "client SDK" is a call trading the test card typed into the page for a nonce.
 * Either way the checkout asks `request(method, card)` for a single-use nonce and device data.
 */
import { useEffect, useRef, useState } from 'react';
import type { CardWidgetConfig } from '../provider';
import { loadDropin, type LoadedDropin } from './dropin.client';
import type { CardField } from './card-format';

export interface CardFields {
  number: string;
  expiry: string;
  cvv: string;
}

/** The sandbox refused one of the card's fields: the checkout marks and focuses it. */
export class CardFieldError extends Error {
  constructor(message: string, readonly field: CardField) {
    super(message);
  }
}

export interface CardWidgetOptions {
  widget: CardWidgetConfig;
  /** A card-type method is chosen now (the Drop-in loads then). */
  active: boolean;
  currency: string;
  /** The amount as a decimal string, for the wallets' payment sheets. */
  amount: string;
  locale: string;
  /** The sandbox's nonce call. */
  nonceEndpoint: string;
  /** Said when the Drop-in cannot be loaded (the 120 s time-out included) or is asked before it loaded. */
  loadError: string;
  /** "Error {status}" for a nonce call that failed without a message. */
  statusError: (status: number) => string;
  onError: (message: string) => void;
}

export function useCardWidget(o: CardWidgetOptions) {
  const dropinRef = useRef<HTMLDivElement>(null);
  const loaded = useRef<LoadedDropin | null>(null);
  const [loading, setLoading] = useState(false);
  const braintree = o.widget.provider === 'braintree';

  useEffect(() => {
    if (!braintree || !o.active || loaded.current || !dropinRef.current) return;
    let cancelled = false;
    setLoading(true);
    // The Drop-in's own code downloads only now (loadDropin imports it on demand), with the spec's 120 s time-out.
    loadDropin(dropinRef.current, { clientToken: o.widget.clientToken ?? '', currency: o.currency, total: o.amount, locale: o.locale })
      .then((w) => {
        if (cancelled) void w.teardown();
        else loaded.current = w;
      })
      .catch(() => !cancelled && o.onError(o.loadError))
      .finally(() => !cancelled && setLoading(false));
    return () => {
      cancelled = true;
    };
  }, [braintree, o.active, o.widget, o.locale]);

  /** A single-use nonce (and device data) for `method`; throws an Error with a message to show (a CardFieldError for one field). */
  async function request(method: string, card: CardFields): Promise<{ nonce: string; deviceData: string | null }> {
    if (braintree) {
      if (!loaded.current) throw new Error(o.loadError);
      return loaded.current.request();
    }
    if (o.widget.provider !== 'sandbox') throw new Error(o.loadError);
    const form: Record<string, string> = { method };
    if (method === 'card') Object.assign(form, card);
    const res = await fetch(o.nonceEndpoint, { method: 'POST', credentials: 'same-origin', body: new URLSearchParams(form) });
    const body = (await res.json().catch(() => ({}))) as { nonce?: string; detail?: string; field?: CardField };
    if (res.status === 422 && body.detail && (body.field === 'number' || body.field === 'expiry' || body.field === 'cvv')) throw new CardFieldError(body.detail, body.field);
    if (!res.ok || !body.nonce) throw new Error(body.detail || o.statusError(res.status));
    return { nonce: body.nonce, deviceData: null };
  }

  return { dropinRef, loading, request, braintree };
}
