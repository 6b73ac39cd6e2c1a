/**
 * From a paid row to the chapter's first page through buying keys (issue 26), on both sites at
 * 390 and 1280 px: a new reader with 0 keys presses Unlock, follows "Buy keys", pays (by card on
 * the English site, by Pix on the Portuguese one, paid through the sandbox PSP), lands back on the
 * series with the receipt moment and the new balance (in the header too, on phones), in the unlock
 * dialog reopened for that chapter, confirms, and is on the chapter's first page. Every tap and
 * keypress the reader makes is counted and printed (docs/wallet.md, "From buying to reading",
 * has the numbers beside those of the flow before). Also: the favorite pressed while signed out
 * is there after logging in. Screenshots at 390 px go to /tmp/h/shots-flow/ when that folder
 * exists (INKPASS_SHOTS overrides it).
 */
import fs from 'node:fs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Locator, Page } from '@playwright/test';
import { brUrl, E2E_PORT, enUrl, expect, message, signIn, test } from './fixtures';

const SERIES = '/comics/heir-of-the-frozen-throne/';
const SHOTS = process.env.INKPASS_SHOTS ?? '/tmp/h/shots-flow';
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const money = (locale: string, currency: string, minor: number) => new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100);

/** Counts what the reader does: each click or tap, and each field typed into (one, however long the text). */
class Taps {
  count = 0;
  readonly steps: string[] = [];
  async tap(what: string, target: Locator) {
    this.count++;
    this.steps.push(what);
    await target.click();
  }
  async type(what: string, target: Locator, text: string) {
    this.count++;
    this.steps.push(what);
    await target.fill(text);
  }
}

async function shot(page: Page, name: string) {
  if (!fs.existsSync(SHOTS)) return;
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

for (const site of ['en', 'br'] as const) {
  for (const width of [390, 1280]) {
    test(`${site} at ${width} px: a new reader goes from a paid row to the chapter's first page by buying keys (${site === 'en' ? 'card' : 'Pix'})`, async ({ page, reader }) => {
      test.setTimeout(90_000);
      const locale = site === 'br' ? 'pt-BR' : 'en';
      const m = (key: string, values?: Record<string, string | number>) => message(locale, key, values);
      const url = site === 'br' ? brUrl : enUrl;
      const price = (minor: number) => (site === 'br' ? money('pt-BR', 'BRL', minor) : money('en', 'USD', minor));
      const name = `${site}-${width}`;
      await page.setViewportSize({ width, height: width < 500 ? 844 : 900 });
      if (site === 'br') await signIn(page, 'br', reader);
      await page.goto(url(SERIES));
      const banner = page.getByRole('banner');
      await expect(banner.getByRole('link', { name: m('header.keys', { keys: 0, xtra: 0 }) })).toBeVisible();
      const series = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();

      // The first paid row's unlock button (named "{Unlock}: {chapter}").
      const unlockLabel = escapeRegExp(m('chapter.unlock'));
      const button = page.getByRole('button', { name: new RegExp(`^${unlockLabel}\\s*:\\s`) }).first();
      const chapter = (await button.getAttribute('aria-label'))!.replace(new RegExp(`^${unlockLabel}\\s*:\\s*`), '').trim();
      const chapterPrice = Number(await button.getAttribute('data-price'));
      expect(chapterPrice).toBeGreaterThan(0);

      const taps = new Taps();
      await taps.tap('Unlock', button);
      const dialog = page.getByRole('dialog', { name: m('unlock.title', { chapter }) });
      await expect(dialog).toContainText(m('unlock.short', { missing: chapterPrice }));
      const fromBuyKeys = taps.count;
      await taps.tap('Buy keys', dialog.getByRole('link', { name: m('wallet.buyKeys') }));

      // The packs: the 100-key pack.
      await expect(page.getByRole('heading', { level: 1, name: m('purchase.title') })).toBeVisible();
      const packPrice = site === 'br' ? 3990 : 999;
      await taps.tap('pack', page.getByRole('link', { name: m('purchase.buyLabel', { keys: 100, price: price(packPrice) }) }));
      const pay = page.getByRole('button', { name: m('checkout.submit.pay', { total: price(packPrice) }), exact: true });
      await expect(pay).toBeEnabled();

      if (site === 'en') {
        const card = page.getByRole('radio', { name: m('checkout.method.card'), exact: true });
        // A preselected method costs no tap.
        if (!(await card.isChecked())) await taps.tap('Card', card);
        await taps.type('card number', page.getByRole('textbox', { name: m('checkout.card.number') }), '4111 1111 1111 1111');
        await taps.type('expiry', page.getByRole('textbox', { name: m('checkout.card.expiry') }), '12/30');
        await taps.type('CVV', page.getByRole('textbox', { name: m('checkout.card.cvv') }), '123');
        await Promise.all([page.waitForURL((u) => u.pathname === SERIES), taps.tap('Pay', pay)]);
      } else {
        const pix = page.getByRole('radio', { name: m('checkout.method.pix'), exact: true });
        if (!(await pix.isChecked())) await taps.tap('Pix', pix);
        const [charge] = await Promise.all([
          page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/my/purchase/pix/'),
          taps.tap('Pay', pay),
        ]);
        expect(charge.status()).toBe(200);
        const { checkout: { correlationID } } = (await charge.json()) as { checkout: { correlationID: string } };
        if (width < 500) await shot(page, `${name}-3-pix`);
        // The payer pays in their bank's app (not a tap on this site): the sandbox PSP delivers the webhook.
        await promisify(execFile)('npm', ['run', '--silent', 'payments', '--', 'pay', correlationID, '--url', `http://127.0.0.1:${E2E_PORT}`], {
          env: { ...process.env, DATABASE_URL: 'file:./data/e2e.db', MEDIA_DIR: process.env.INKPASS_TEST_MEDIA_DIR || 'data/test-media', PORT: String(E2E_PORT) },
          timeout: 60_000,
        });
        await page.waitForURL((u) => u.pathname === SERIES, { timeout: 15_000 });
      }

      // Back on the series: the receipt moment, the new balance, and the dialog reopened for the chapter.
      const credited = `${m('receipt.title')} ${m('receipt.credited', { keys: 100, xtra: 10 })}`;
      await expect(dialog).toBeVisible();
      await expect(dialog).toContainText(credited);
      await expect(dialog).toContainText(m('wallet.balances', { keys: 100, xtra: 10 }));
      const receipt = page.getByRole('status').filter({ hasText: m('receipt.balance', { keys: 100, xtra: 10 }) });
      await expect(receipt).toContainText(credited);
      await expect(receipt.getByRole('link', { name: m('receipt.order') })).toHaveAttribute('href', /^\/my\/purchases\/#order-[\w-]+$/);
      await expect(banner.getByRole('link', { name: m('header.keys', { keys: 100, xtra: 10 }) })).toBeVisible();
      // The address no longer carries the intent or the order: a reload does not reopen the dialog.
      expect(new URL(page.url()).search).toBe('');
      const confirm = dialog.getByRole('button', { name: m('unlock.confirm', { price: chapterPrice }) });
      await expect(confirm).toBeFocused();
      if (width < 500) await shot(page, `${name}-4-back-with-receipt`);

      // One tap: the chapter opens at its first page.
      await taps.tap('Confirm', confirm);
      await expect(page.getByRole('img', { name: m('reader.pageAlt', { series, chapter, page: 1 }) })).toBeVisible({ timeout: 15_000 });
      if (width < 500) await shot(page, `${name}-5-chapter`);

      const summary = `taps ${site} ${width}px: ${taps.count} from the paid row, ${taps.count - fromBuyKeys} from "Buy keys" (${taps.steps.join(', ')})`;
      console.log(summary);
      test.info().annotations.push({ type: 'taps', description: summary });
      // Card: Unlock, Buy keys, pack, [Card], number, expiry, CVV, Pay, Confirm. Pix: Unlock, Buy keys, pack, [Pix], Pay, Confirm.
      expect(taps.count - fromBuyKeys).toBeLessThanOrEqual(site === 'en' ? 8 : 5);
    });
  }
}

test('a favorite pressed while signed out is there after logging in: the login form says so, and its own post finishes it (390 px)', async ({ page, reader }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.context().clearCookies();
  await page.goto(enUrl(SERIES));
  await page.getByRole('link', { name: message('en', 'series.favorite'), exact: true }).click();
  await expect(page.getByText(message('en', 'auth.intent.favorite'))).toBeVisible();
  await shot(page, 'en-390-6-login-with-favorite');
  const main = page.getByRole('main');
  await main.getByLabel(message('en', 'auth.field.email')).fill(reader.email);
  await main.getByLabel(message('en', 'auth.field.password')).fill(reader.password);
  await main.getByRole('button', { name: message('en', 'auth.login.submit') }).click();
  await page.waitForURL((u) => u.pathname === SERIES);
  expect(new URL(page.url()).search).toBe('');
  await expect(page.getByRole('button', { name: message('en', 'series.favorited'), exact: true })).toHaveAttribute('aria-pressed', 'true');
});
