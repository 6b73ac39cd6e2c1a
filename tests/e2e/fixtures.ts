/**
 * Shared pieces for the Playwright tests: the two sites' URLs, catalogue messages
 * (tests/support/messages.ts) and a `test` that fails on uncaught page errors.
 */
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

export { message } from '../support/messages';

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
