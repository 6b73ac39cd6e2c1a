import { IntlMessageFormat } from 'intl-messageformat';
import en from '../../i18n/en.json';
import ptBR from '../../i18n/pt-BR.json';
import type { Locale } from './site';

export type MessageKey = keyof typeof en;
export type Values = Record<string, string | number | Date>;
/** A locale's messages: `t(key, values)` formats one (a missing key comes back as the key itself). */
export interface T {
  (key: MessageKey, values?: Values): string;
  /**
   * Whether a key built from data (a status, a language code) has a message, in the locale or
   * the English fallback: ask this before formatting it instead of comparing the message with
   * its key, which would also match a message that reads like its key.
   */
  exists(key: string): key is MessageKey;
}

const catalogues: Record<Locale, Record<string, string>> = { en, 'pt-BR': ptBR };
const compiled: Record<Locale, Map<string, IntlMessageFormat>> = { en: new Map(), 'pt-BR': new Map() };
/** Messages asked for without values always format the same: kept as strings (a page asks for dozens). */
const plain: Record<Locale, Map<string, string>> = { en: new Map(), 'pt-BR': new Map() };

/** Formats one catalogue message; compiled formatters are cached per locale. */
export function translate(locale: Locale, key: MessageKey, values?: Values): string {
  if (values === undefined) {
    const hit = plain[locale].get(key);
    if (hit !== undefined) return hit;
    const text = format(locale, key);
    plain[locale].set(key, text);
    return text;
  }
  const memoKey = formattedKey(key, values);
  const hit = formatted[locale].get(memoKey);
  if (hit !== undefined) return hit;
  const text = format(locale, key, values);
  if (formatted[locale].size >= MAX_FORMATTED) formatted[locale].delete(formatted[locale].keys().next().value!);
  formatted[locale].set(memoKey, text);
  return text;
}

/**
 * Messages formatted with values, by key and values (bounded, oldest out first): pages format
 * the same few again and again (a reader's balance and name in the header on every page, a
 * price on each row), and an ICU plural costs far more than a map lookup.
 */
const formatted: Record<Locale, Map<string, string>> = { en: new Map(), 'pt-BR': new Map() };
const MAX_FORMATTED = 5000;
function formattedKey(key: string, values: Values): string {
  let k = key;
  for (const name in values) {
    const v = values[name]!;
    k += `\u0000${name}\u0001${v instanceof Date ? `d${v.getTime()}` : `${typeof v === 'number' ? 'n' : 's'}${v}`}`;
  }
  return k;
}

function format(locale: Locale, key: MessageKey, values?: Values): string {
  let fmt = compiled[locale].get(key);
  if (!fmt) {
    const source = catalogues[locale][key] ?? catalogues.en[key];
    if (source === undefined) return key;
    fmt = new IntlMessageFormat(source, locale);
    compiled[locale].set(key, fmt);
  }
  return String(fmt.format(values));
}

/** Whether the catalogue has `key` for `locale` or, as `translate` falls back, for English. */
export function hasMessage(locale: Locale, key: string): key is MessageKey {
  return Object.hasOwn(catalogues[locale], key) || Object.hasOwn(catalogues.en, key);
}

export function createT(locale: Locale): T {
  return Object.assign((key: MessageKey, values?: Values) => translate(locale, key, values), {
    exists: (key: string): key is MessageKey => hasMessage(locale, key),
  });
}

/** A subset of messages, already formatted, for handing to an island or inline script. */
export function pick(t: T, keys: MessageKey[]): Record<string, string> {
  return Object.fromEntries(keys.map((k) => [k, t(k)]));
}

/**
 * Messages as written in the catalogue (ICU syntax, unformatted), for an island that formats
 * them itself with values it only learns in the browser (balances, a countdown).
 */
export function messageSources(locale: Locale, keys: readonly MessageKey[]): Record<string, string> {
  return Object.fromEntries(keys.map((k) => [k, catalogues[locale][k] ?? catalogues.en[k] ?? k]));
}
