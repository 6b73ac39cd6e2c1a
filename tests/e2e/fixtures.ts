/**
 * Shared pieces for the Playwright tests: the two sites' URLs, catalogue messages (so tests
 * follow i18n/*.json instead of hard-coding text) and a `test` that fails on uncaught page errors.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IntlMessageFormat } from 'intl-messageformat';
import { test as base, expect } from '@playwright/test';

export const E2E_PORT = Number(process.env.INKPASS_E2E_PORT || 4399);
/** The English site (Host localhost). */
export const baseUrl = `http://localhost:${E2E_PORT}`;
/** The Portuguese site: Chromium resolves *.localhost to loopback. */
export function brUrl(p = '/'): string {
  return `http://br.localhost:${E2E_PORT}${p}`;
}
export function enUrl(p = '/'): string {
  return `${baseUrl}${p}`;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const catalogues = new Map<string, Record<string, string>>();

/** A catalogue message formatted as the app formats it. */
export function message(locale: 'en' | 'pt-BR', key: string, values?: Record<string, string | number>): string {
  let cat = catalogues.get(locale);
  if (!cat) {
    cat = JSON.parse(fs.readFileSync(path.join(ROOT, 'i18n', `${locale}.json`), 'utf8')) as Record<string, string>;
    catalogues.set(locale, cat);
  }
  const source = cat[key];
  if (typeof source !== 'string') throw new Error(`i18n/${locale}.json has no key "${key}"`);
  return String(new IntlMessageFormat(source, locale).format(values));
}

/** Entries pushed to window.dataLayer that are page_view events (object or gtag-style arguments). */
export function isPageView(entry: unknown): boolean {
  if (!entry || typeof entry !== 'object') return false;
  const e = entry as Record<string, unknown>;
  return e.event === 'page_view' || (e[0] === 'event' && e[1] === 'page_view');
}

export const test = base.extend<{ pageErrors: Error[] }>({
  pageErrors: [
    async ({ page }, use) => {
      const errors: Error[] = [];
      page.on('pageerror', (e) => errors.push(e));
      await use(errors);
      expect(errors.map((e) => e.message), 'uncaught errors in the page').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
