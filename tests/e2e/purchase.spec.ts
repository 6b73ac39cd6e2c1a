/**
 * Buying keys in the browser (issue 14): an English reader short of keys follows the unlock
 * dialog's buy-keys link, buys a pack by card with a coupon, lands back on the series with the
 * new balance and unlocks the chapter; the checkout's messages (unknown coupon, unapplied coupon,
 * no method, declined and rejected cards, editing an applied coupon); a Portuguese reader pays by
 * Pix and the sandbox PSP's payment (`npm run payments -- pay`) brings the keys without a
 * reload by hand; the purchases page and its favorite star; the checkout by keyboard, and every
 * control in it named.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Locator, Page } from '@playwright/test';
import { brUrl, E2E_PORT, enUrl, expect, message, signIn, test, type TestReader } from './fixtures';

const SERIES = '/comics/heir-of-the-frozen-throne/';
const checkoutUrl = (pack: string, next = SERIES) => `/my/purchase/checkout/?pack=${pack}&next=${encodeURIComponent(next)}`;
const en = (key: string, values?: Record<string, string | number>) => message('en', key, values);
const pt = (key: string, values?: Record<string, string | number>) => message('pt-BR', key, values);
const money = (locale: string, currency: string, minor: number) => new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const usd = (minor: number) => money('en', 'USD', minor);
const brl = (minor: number) => money('pt-BR', 'BRL', minor);

/** The balance link in the header. */
const keysLink = (page: Page, locale: 'en' | 'pt-BR', keys: number, xtra: number) =>
  page.getByRole('banner').getByRole('link', { name: message(locale, 'header.keys', { keys, xtra }) });

/** The checkout's controls, by role and accessible name. */
function checkout(page: Page, locale: 'en' | 'pt-BR' = 'en') {
  const m = (key: string, values?: Record<string, string | number>) => message(locale, key, values);
  return {
    coupon: page.getByRole('textbox', { name: m('checkout.coupon.label'), exact: true }),
    apply: page.getByRole('button', { name: m('checkout.coupon.apply'), exact: true }),
    method: (key: 'card' | 'paypal' | 'googlepay' | 'applepay' | 'pix') => page.getByRole('radio', { name: m(`checkout.method.${key}`), exact: true }),
    methods: page.getByRole('group', { name: m('checkout.method.legend') }).getByRole('radio'),
    number: page.getByRole('textbox', { name: m('checkout.card.number') }),
    expiry: page.getByRole('textbox', { name: m('checkout.card.expiry') }),
    cvv: page.getByRole('textbox', { name: m('checkout.card.cvv') }),
    pay: (total: string) => page.getByRole('button', { name: m('checkout.submit.pay', { total }), exact: true }),
    processing: page.getByRole('button', { name: m('checkout.submit.processing'), exact: true }),
    total: page.getByTestId('checkout-total'),
    alert: page.getByRole('main').getByRole('alert'),
  };
}

/** Fills the card sandbox's form (Card must be selected). */
async function fillCard(page: Page, number: string, expiry = '12/30', cvv = '123') {
  const c = checkout(page);
  // Typed once the checkout island has hydrated (Astro drops its `ssr` attribute then): typed
  // into the server's plain fields before that, hydration put the fields back to empty (CI saw it).
  await expect(c.number.locator('xpath=ancestor::astro-island[1]')).not.toHaveAttribute('ssr');
  await c.number.fill(number);
  await c.expiry.fill(expiry);
  await c.cvv.fill(cvv);
}

/** The first paid chapter on the series page that offers an unlock: its button, name, price and row. */
async function paidChapter(page: Page) {
  // The button shows its label and is named "{label}: {chapter}" (aria-label).
  const unlockLabel = escapeRegExp(en('chapter.unlock'));
  const first = page.getByRole('button', { name: new RegExp(`^${unlockLabel}\\s*:\\s`) }).first();
  const name = (await first.getAttribute('aria-label'))!.replace(new RegExp(`^${unlockLabel}\\s*:\\s*`), '').trim();
  const button = page.getByRole('button', { name: new RegExp(`^${unlockLabel}\\s*:\\s*${escapeRegExp(name)}$`) });
  const price = Number(await button.getAttribute('data-price'));
  // Its row, by the chapter's link (named "{chapter} {title} {date}"): it stays once the chapter is owned.
  const link = page.getByRole('link', { name: new RegExp(`^${escapeRegExp(name)}\\s`) });
  const row = page.getByRole('listitem').filter({ has: link });
  const href = (await link.getAttribute('href'))!;
  return { button, name, price, row, href };
}

test.describe('buying keys (en)', () => {
  test('a reader short of keys buys a pack by card with a coupon, comes back with the new balance and unlocks the chapter', async ({ page, reader: _signedIn }) => {
    // Three pages more than the others: the chapter it opens, and the series again to see the row owned.
    test.setTimeout(60_000);
    await page.goto(enUrl(SERIES));
    await expect(keysLink(page, 'en', 0, 0)).toBeVisible();
    const chapter = await paidChapter(page);
    expect(chapter.price).toBeGreaterThan(0);
    await chapter.button.click();
    const dialog = page.getByRole('dialog', { name: en('unlock.title', { chapter: chapter.name }) });
    await expect(dialog).toContainText(en('unlock.short', { missing: chapter.price }));
    // The way back leads to this chapter's unlock dialog (tests/e2e/buy-to-read.spec.ts).
    const back = `${SERIES}?intent=${encodeURIComponent(`unlock:${await chapter.button.getAttribute('value')}`)}`;
    await dialog.getByRole('link', { name: en('wallet.buyKeys') }).click();

    // The packs, with the way back.
    await expect(page).toHaveURL(enUrl(`/my/purchase/?next=${encodeURIComponent(back)}#chapters`));
    await expect(page.getByRole('heading', { level: 1, name: en('purchase.title') })).toBeVisible();
    await expect(page.getByText(en('purchase.returnNote'))).toBeVisible();
    const packs = [[50, 499], [100, 999], [210, 1999], [550, 4999]] as const;
    for (const [keys, price] of packs) await expect(page.getByRole('link', { name: en('purchase.buyLabel', { keys, price: usd(price) }) })).toBeVisible();
    await page.getByRole('link', { name: en('purchase.buyLabel', { keys: 100, price: usd(999) }) }).click();

    // Checkout: the coupon, then the card.
    await expect(page).toHaveURL(enUrl(checkoutUrl('popular', back)));
    const c = checkout(page);
    await expect(c.pay(usd(999))).toBeEnabled();
    await c.coupon.fill('welcome10');
    await expect(c.coupon).toHaveValue('WELCOME10');
    await c.apply.click();
    await expect(c.coupon).toHaveAccessibleDescription(en('checkout.coupon.applied', { discount: usd(100), bonus: 0 }));
    await expect(c.total).toHaveText(usd(899));
    await c.method('card').check();
    await fillCard(page, '4111 1111 1111 1111');
    await Promise.all([page.waitForURL((u) => u.pathname === SERIES), c.pay(usd(899)).click()]);

    // Back on the series: 100 keys and the pack's 10 Xtra keys, the dialog open again; confirming opens the chapter.
    await expect(keysLink(page, 'en', 100, 10)).toBeVisible();
    const series = (await page.getByRole('heading', { level: 1 }).textContent())!.trim();
    // The pack's 10 Xtra keys pay first when they cover the price, and the button says so.
    const confirm = dialog.getByRole('button', { name: en(chapter.price <= 10 ? 'unlock.confirmXtra' : 'unlock.confirm', { price: chapter.price }) });
    await Promise.all([page.waitForURL(enUrl(chapter.href)), confirm.click()]);
    await expect(page.getByRole('img', { name: en('reader.pageAlt', { series, chapter: chapter.name, page: 1 }) })).toBeVisible();
    await page.goto(enUrl(SERIES));
    await expect(chapter.button).toHaveCount(0);
    await expect(chapter.row).toContainText(en('chapter.owned'));
  });

  test('the checkout\'s messages: card preselected, unknown and unapplied coupons, an edited coupon, declined and rejected cards add no keys', async ({ page, reader: _signedIn }) => {
    await page.goto(enUrl(checkoutUrl('popular')));
    const c = checkout(page);
    await expect(c.pay(usd(999))).toBeEnabled();

    // Card is chosen from the start on the English site, so "no method" cannot happen by hand.
    await expect(c.method('card')).toBeChecked();

    // An unknown coupon: the server's text under the field.
    await c.coupon.fill('NOPE123');
    await c.apply.click();
    await expect(c.coupon).toHaveAccessibleDescription(en('purchase.coupon.unknown'));
    await expect(c.coupon).toHaveAttribute('aria-invalid', 'true');
    await expect(c.total).toHaveText(usd(999));

    // A coupon typed but not applied blocks the payment, whatever the method.
    await c.coupon.fill('WELCOME10');
    await expect(c.coupon).toHaveAccessibleDescription('');
    await c.method('card').check();
    await expect(c.alert).toHaveCount(0);
    await c.pay(usd(999)).click();
    await expect(c.alert).toContainText(en('purchase.error.couponNotApplied'));
    await expect(c.coupon).toBeFocused();

    // Applied, then edited: back to the full price.
    await c.apply.click();
    await expect(c.total).toHaveText(usd(899));
    await expect(c.pay(usd(899))).toBeVisible();
    await c.coupon.press('End');
    await c.coupon.press('Backspace');
    await expect(c.coupon).toHaveValue('WELCOME1');
    await expect(c.total).toHaveText(usd(999));
    await expect(c.pay(usd(999))).toBeVisible();
    await expect(c.coupon).toHaveAccessibleDescription('');

    // A declined card: the page says so and the balance is untouched.
    await c.coupon.fill('');
    await fillCard(page, '4000 1111 1111 1115');
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/my/purchase/checkout/'), c.pay(usd(999)).click()]);
    await expect(c.alert).toContainText(en('purchase.error.declined'));
    await expect(keysLink(page, 'en', 0, 0)).toBeVisible();

    // The gateway's rejection (CVV 200) too.
    await c.method('card').check();
    await fillCard(page, '4111 1111 1111 1111', '12/30', '200');
    await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/my/purchase/checkout/'), c.pay(usd(999)).click()]);
    await expect(c.alert).toContainText(en('purchase.error.rejected'));
    await expect(keysLink(page, 'en', 0, 0)).toBeVisible();
  });

  test('the purchases page lists the paid order, and its favorite star toggles and persists', async ({ page, reader: _signedIn }) => {
    await page.goto(enUrl(checkoutUrl('starter', '/my/purchases/')));
    const c = checkout(page);
    await c.method('card').check();
    await fillCard(page, '4111 1111 1111 1111');
    await Promise.all([page.waitForURL((u) => u.pathname === '/my/purchases/'), c.pay(usd(499)).click()]);
    // The receipt moment (the checkout came back with the order).
    await expect(page.getByRole('status').filter({ hasText: en('receipt.credited', { keys: 50, xtra: 0 }) })).toBeVisible();
    await expect(keysLink(page, 'en', 50, 0)).toBeVisible();

    const order = page.getByRole('main').getByRole('listitem').filter({ hasText: en('purchase.keysCount', { n: 50 }) });
    await expect(order).toHaveCount(1);
    await expect(order).toContainText(en('purchases.state.paid'));
    await expect(order).toContainText(usd(499));
    await expect(order).toContainText(`${en('checkout.method.card')} · `);
    await expect(order).toContainText('1111');
    const star = order.getByRole('button', { name: en('purchases.favorite.label', { n: 50 }) });
    await expect(star).toHaveAttribute('aria-pressed', 'false');
    await star.click();
    await expect(star).toHaveAttribute('aria-pressed', 'true');
    await page.reload();
    await expect(star).toHaveAttribute('aria-pressed', 'true');
    // The starred pack comes first on the purchase page.
    await page.goto(enUrl('/my/purchase/'));
    await expect(page.getByRole('listitem').first()).toContainText(en('purchase.favorite'));
    await expect(page.getByRole('main').getByRole('listitem').first().getByRole('link')).toHaveAccessibleName(en('purchase.buyLabel', { keys: 50, price: usd(499) }));
    await page.goto(enUrl('/my/purchases/'));
    await star.click();
    await expect(star).toHaveAttribute('aria-pressed', 'false');
    await page.reload();
    await expect(star).toHaveAttribute('aria-pressed', 'false');
  });

  test('by keyboard: coupon, Apply, the method radios and Pay; every control of the checkout has an accessible name', async ({ page, reader: _signedIn }) => {
    await page.goto(enUrl(checkoutUrl('value', '/my/keys/')));
    const c = checkout(page);
    await expect(c.pay(usd(1999))).toBeEnabled();

    // Every control, with Card selected so that its form shows too, is named.
    await c.method('card').check();
    for (const control of [c.coupon, c.method('card'), c.method('paypal'), c.method('googlepay'), c.method('applepay'), c.number, c.expiry, c.cvv, c.pay(usd(1999))]) {
      await expect(control).toBeVisible();
    }
    await expect(c.methods).toHaveCount(4);
    const controls = page.getByRole('main').locator('form').locator('input:not([type=hidden]), button, select, textarea');
    expect(await controls.count()).toBe(10);
    for (const control of await controls.all()) await expect(control).toHaveAccessibleName(/\S/);
    await page.reload();
    await expect(c.pay(usd(1999))).toBeEnabled();

    // From the link before the form, Tab reaches the coupon field.
    await page.getByRole('link', { name: en('checkout.back') }).focus();
    await tabTo(page, c.coupon);
    await page.keyboard.type('bonus20');
    await expect(c.coupon).toHaveValue('BONUS20');
    await page.keyboard.press('Tab');
    await expect(c.apply).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(c.coupon).toHaveAccessibleDescription(en('checkout.coupon.applied', { discount: usd(0), bonus: 20 }));
    await page.keyboard.press('Tab');
    await expect(c.method('card')).toBeFocused();
    await page.keyboard.press('Space');
    await expect(c.method('card')).toBeChecked();
    await expect(c.number).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(c.method('paypal')).toBeChecked();
    await expect(c.method('paypal')).toBeFocused();
    await expect(c.number).toHaveCount(0);
    await page.keyboard.press('Tab');
    await expect(c.pay(usd(1999))).toBeFocused();
    await Promise.all([page.waitForURL((u) => u.pathname === '/my/keys/'), page.keyboard.press('Enter')]);
    // 210 keys, the pack's 30 Xtra keys and the coupon's 20.
    await expect(keysLink(page, 'en', 210, 50)).toBeVisible();
  });
});

/** Presses Tab until `target` has the focus (at most 30 times). */
async function tabTo(page: Page, target: Locator) {
  for (let i = 0; i < 30; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return;
  }
  throw new Error('Tab never reached the control');
}

test.describe('buying keys (br)', () => {
  test('a Portuguese reader pays by Pix: QR and copy-and-paste code, the PSP\'s payment arrives and the page goes on by itself', async ({ page, reader }) => {
    await signIn(page, 'br', reader);
    await page.goto(brUrl(checkoutUrl('popular')));
    const c = checkout(page, 'pt-BR');
    await expect(c.methods.first()).toHaveAccessibleName(pt('checkout.method.pix'));
    await expect(c.methods).toHaveCount(5);
    await expect(c.pay(brl(3990))).toBeEnabled();
    await c.method('pix').check();
    await expect(c.number).toHaveCount(0);

    const [charge] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/my/purchase/pix/'),
      c.pay(brl(3990)).click(),
    ]);
    expect(charge.status()).toBe(200);
    const { checkout: { correlationID } } = (await charge.json()) as { checkout: { correlationID: string } };

    const pix = page.getByRole('region', { name: pt('checkout.pix.title', { total: brl(3990) }) });
    await expect(pix.getByRole('img', { name: pt('purchase.pix.qrLabel') })).toBeVisible();
    const code = pix.getByRole('textbox', { name: pt('checkout.pix.code') });
    await expect(code).toHaveValue(/^000201.*6304[0-9A-F]{4}$/);
    const [before, after] = pt('checkout.pix.expiresIn', { time: '\u0000' }).split('\u0000').map(escapeRegExp);
    await expect(pix.getByRole('timer')).toHaveText(new RegExp(`^${before}\\d+:\\d\\d${after}$`));
    await expect(pix).toContainText(pt('checkout.pix.waiting'));
    await expect(c.processing).toBeDisabled();

    // The payer pays: the sandbox PSP marks the charge paid and delivers its webhook.
    await promisify(execFile)('npm', ['run', '--silent', 'payments', '--', 'pay', correlationID, '--url', `http://127.0.0.1:${E2E_PORT}`], {
      env: { ...process.env, DATABASE_URL: 'file:./data/e2e.db', MEDIA_DIR: process.env.INKPASS_TEST_MEDIA_DIR || 'data/test-media', PORT: String(E2E_PORT) },
      timeout: 60_000,
    });
    // The page's poll (every 3 s) sees it and submits the form itself: no reload here.
    await page.waitForURL((u) => u.href.startsWith(brUrl(SERIES)), { timeout: 10_000 });
    await expect(keysLink(page, 'pt-BR', 100, 10)).toBeVisible();

    await page.goto(brUrl('/my/purchases/'));
    const order = page.getByRole('main').getByRole('listitem').filter({ hasText: pt('purchase.keysCount', { n: 100 }) });
    await expect(order).toContainText(pt('purchases.state.paid'));
    await expect(order).toContainText(pt('checkout.method.pix'));
    await expect(order).toContainText(brl(3990));
  });
});
