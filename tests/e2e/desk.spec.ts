/**
 * Issue 28's "Done when" in the browser: a `support` member finds a reader by the Pix
 * correlationID printed on the reader's receipt and sees the order's events; a `money` member,
 * freshly signed in, refunds an unspent card order and the reader sees the keys gone, the order
 * refunded and the refund on the receipt; a reader withdraws a purchase within 7 days on the
 * Portuguese site, without JavaScript; after 7 days (the order's paid_at moved 8 days back in
 * the e2e database) or after spending the keys, the offer is gone and the row says why. Words
 * from i18n/*.json.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { DEMO } from '@db/seed/index';
import { brUrl, buyByCard, E2E_PORT, e2eDatabase, enUrl, expect, message, signIn, staffMember, test } from './fixtures';

type Locale = 'en' | 'pt-BR';
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const money = (locale: Locale, currency: string, minor: number) => new Intl.NumberFormat(locale, { style: 'currency', currency }).format(minor / 100);
/** A message with `{name}` left open: a pattern matching it whatever fills that place. */
function pattern(locale: Locale, key: string, name: string, values: Record<string, string | number> = {}): RegExp {
  return new RegExp(message(locale, key, { ...values, [name]: '\u0000' }).split('\u0000').map(escapeRegExp).join('.+'));
}

/** The balance link in the header. */
const keysLink = (page: Page, locale: Locale, keys: number, xtra: number) =>
  page.getByRole('banner').getByRole('link', { name: message(locale, 'header.keys', { keys, xtra }) });

/** The order of `keys` keys on /my/purchases/ (each test's reader is new and buys one). */
const orderRow = (page: Page, locale: Locale, keys = 50) =>
  page.getByRole('main').getByRole('listitem').filter({ hasText: message(locale, 'purchase.keysCount', { n: keys }) });

/** The order's public id, read from the receipt link's path (/my/purchases/{id}/receipt/). */
async function orderIdOf(page: Page, locale: Locale): Promise<string> {
  const href = await page.getByRole('main').getByRole('link', { name: pattern(locale, 'receipts.linkLabel', 'date') }).getAttribute('href');
  const id = /^\/my\/purchases\/(ord[0-9a-f]{24})\/receipt\/$/.exec(href ?? '')?.[1];
  expect(id, `the receipt link ${href}`).toBeTruthy();
  return id!;
}

test('br: a support member finds a reader by the Pix correlationID on their receipt and sees the order\'s events', async ({ page, reader, browser }, info) => {
  test.setTimeout(90_000);
  const pt = (key: string, values?: Record<string, string | number>) => message('pt-BR', key, values);
  await signIn(page, 'br', reader);

  let correlationID = '';
  await test.step('the reader buys 100 keys by Pix and the sandbox PSP is paid', async () => {
    await page.goto(brUrl(`/my/purchase/checkout/?pack=popular&next=${encodeURIComponent('/my/purchases/')}`));
    const pay = page.getByRole('button', { name: pt('checkout.submit.pay', { total: money('pt-BR', 'BRL', 3990) }), exact: true });
    await expect(pay).toBeEnabled();
    await page.getByRole('radio', { name: pt('checkout.method.pix'), exact: true }).check();
    const [charge] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/my/purchase/pix/'),
      pay.click(),
    ]);
    expect(charge.status()).toBe(200);
    correlationID = ((await charge.json()) as { checkout: { correlationID: string } }).checkout.correlationID;
    await expect(page.getByRole('region', { name: pt('checkout.pix.title', { total: money('pt-BR', 'BRL', 3990) }) })).toBeVisible();
    await promisify(execFile)('npm', ['run', '--silent', 'payments', '--', 'pay', correlationID, '--url', `http://127.0.0.1:${E2E_PORT}`], {
      env: { ...process.env, DATABASE_URL: 'file:./data/e2e.db', MEDIA_DIR: process.env.INKPASS_TEST_MEDIA_DIR || 'data/test-media', PORT: String(E2E_PORT) },
      timeout: 60_000,
    });
    // The checkout's poll sees the payment and goes on to /my/purchases/ by itself.
    await page.waitForURL((u) => u.href.startsWith(brUrl('/my/purchases/')), { timeout: 15_000 });
    await expect(keysLink(page, 'pt-BR', 100, 10)).toBeVisible();
  });

  let shownId = '';
  let endToEnd = '';
  await test.step('the receipt, opened from /my/purchases/, shows the order id (the correlationID) and the Pix end-to-end id', async () => {
    await page.getByRole('main').getByRole('link', { name: pattern('pt-BR', 'receipts.linkLabel', 'date') }).click();
    await expect(page.getByRole('heading', { level: 1, name: pt('receipts.title') })).toBeVisible();
    const number = page.getByText(new RegExp(`^${escapeRegExp(pt('receipts.number'))}:`));
    shownId = ((await number.textContent()) ?? '').slice(pt('receipts.number').length + 1).trim();
    expect(shownId, 'the receipt\'s number is the Pix correlationID').toBe(correlationID);
    const facts = page.getByRole('region', { name: pt('receipts.payment') });
    await expect(facts).toContainText(pt('checkout.method.pix'));
    const e2eTerm = facts.getByRole('term').filter({ hasText: pt('receipts.endToEnd') });
    endToEnd = ((await e2eTerm.locator('xpath=following-sibling::dd[1]').textContent()) ?? '').trim();
    expect(endToEnd).toMatch(/^\S{4,}$/);
  });

  const support = await staffMember(browser, info, 'br', ['support']);
  try {
    const desk = support.page;
    await test.step('support types the receipt\'s id into the readers search and lands on the reader\'s page', async () => {
      await desk.goto(brUrl('/studio/readers/'));
      const search = desk.getByRole('main').getByRole('search');
      await search.getByRole('searchbox', { name: pt('desk.search.label') }).fill(shownId);
      await search.getByRole('button', { name: pt('desk.search.find'), exact: true }).click();
      await expect(desk).toHaveURL(/\/studio\/readers\/\d+\/$/);
      await expect(desk.getByRole('heading', { level: 1, name: pt('desk.reader.title', { email: reader.email }) })).toBeVisible();
    });

    await test.step('the reader\'s page shows that order with its events, PENDING then PAID', async () => {
      const order = desk.getByRole('article').filter({ has: desk.getByRole('heading', { level: 3, name: new RegExp(`^${shownId}\\b`) }) });
      await expect(order).toHaveCount(1);
      await expect(order).toContainText(money('pt-BR', 'BRL', 3990));
      await expect(order).toContainText(endToEnd);
      const events = order.getByRole('list', { name: pt('desk.events') }).getByRole('listitem');
      await expect(events.filter({ hasText: /\bPENDING\b/ })).not.toHaveCount(0);
      await expect(events.filter({ hasText: /\bPAID\b/ })).not.toHaveCount(0);
      // The order's link opens its payment page, read only for support.
      await order.getByRole('link', { name: shownId, exact: true }).click();
      await expect(desk.getByRole('heading', { level: 1, name: pt('desk.payable.order', { id: shownId }) })).toBeVisible();
      await expect(desk.getByText(pt('desk.readOnly'))).toBeVisible();
      await expect(desk.getByRole('button', { name: pattern('pt-BR', 'desk.refund.submit', 'amount') })).toHaveCount(0);
    });

    await test.step('the Pix end-to-end id finds the same reader', async () => {
      await desk.goto(brUrl(`/studio/readers/?q=${encodeURIComponent(endToEnd)}`));
      await expect(desk.getByRole('heading', { level: 1, name: pt('desk.reader.title', { email: reader.email }) })).toBeVisible();
    });
  } finally {
    await support.context.close();
  }
});

test('en: a money member refunds an unspent card order; the reader sees the keys gone, the order refunded and the refund on the receipt', async ({ page, reader, browser }, info) => {
  test.setTimeout(90_000);
  const en = (key: string, values?: Record<string, string | number>) => message('en', key, values);
  await buyByCard(page, 'en', 'starter');
  await expect(keysLink(page, 'en', 50, 0)).toBeVisible();
  const orderId = await orderIdOf(page, 'en');
  const amount = money('en', 'USD', 499);

  const treasurer = await staffMember(browser, info, 'en', ['money']);
  try {
    const desk = treasurer.page;
    await test.step('the money member finds the reader by email and follows the order\'s link to its payment page', async () => {
      await desk.goto(enUrl('/studio/readers/'));
      const search = desk.getByRole('main').getByRole('search');
      await search.getByRole('searchbox', { name: en('desk.search.label') }).fill(reader.email);
      await search.getByRole('button', { name: en('desk.search.find'), exact: true }).click();
      await expect(desk.getByRole('heading', { level: 1, name: en('desk.reader.title', { email: reader.email }) })).toBeVisible();
      const order = desk.getByRole('article').filter({ has: desk.getByRole('heading', { level: 3, name: new RegExp(`^${orderId}\\b`) }) });
      await order.getByRole('link', { name: orderId, exact: true }).click();
    });

    await test.step('the money member refunds it with a reason', async () => {
      await expect(desk.getByRole('heading', { level: 1, name: en('desk.payable.order', { id: orderId }) })).toBeVisible();
      await expect(desk.getByText(en('desk.refund.quoteWhole', { amount, keys: 50, xtra: 0 }))).toBeVisible();
      const refund = desk.getByRole('button', { name: en('desk.refund.submit', { amount }), exact: true });
      await desk.getByLabel(en('desk.reason'), { exact: true }).fill('Bought the wrong pack, asked by email');
      await refund.click();
      await expect(desk.getByRole('status')).toHaveText(en('desk.refund.done.confirmed'));
      await expect(desk.getByRole('definition').filter({ hasText: en('purchases.state.refunded') })).toBeVisible();
      await expect(desk.getByRole('button', { name: en('desk.refund.submit', { amount }), exact: true })).toHaveCount(0);
    });
  } finally {
    await treasurer.context.close();
  }

  await test.step('the reader\'s keys are gone', async () => {
    await page.goto(enUrl('/my/keys/'));
    await expect(keysLink(page, 'en', 0, 0)).toBeVisible();
  });

  await test.step('/my/purchases/ says Refunded and offers no withdrawal', async () => {
    await page.goto(enUrl('/my/purchases/'));
    const row = orderRow(page, 'en');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(en('purchases.state.refunded'));
    await expect(row.getByRole('button', { name: pattern('en', 'purchases.withdraw.button', 'amount') })).toHaveCount(0);
  });

  await test.step('the receipt shows the refund', async () => {
    await page.getByRole('main').getByRole('link', { name: pattern('en', 'receipts.linkLabel', 'date') }).click();
    const refunds = page.getByRole('region', { name: en('receipts.refunds') });
    await expect(refunds.getByRole('listitem')).toContainText(pattern('en', 'receipts.refunded', 'date', { amount }));
    await expect(refunds).toContainText(en('receipts.refunded.keys', { keys: 50, xtra: 0 }));
  });
});

test('br: a reader withdraws a purchase within 7 days, without JavaScript', async ({ page, reader, browser, context }) => {
  test.setTimeout(60_000);
  const pt = (key: string, values?: Record<string, string | number>) => message('pt-BR', key, values);
  await signIn(page, 'br', reader);
  await buyByCard(page, 'br', 'starter');
  await expect(keysLink(page, 'pt-BR', 50, 0)).toBeVisible();
  const amount = money('pt-BR', 'BRL', 1990);

  const plain = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() });
  try {
    const p = await plain.newPage();
    await p.goto(brUrl('/my/purchases/'));
    const row = orderRow(p, 'pt-BR');
    await expect(row).toContainText(pt('purchases.state.paid'));
    const withdraw = row.getByRole('button', { name: pt('purchases.withdraw.button', { amount }), exact: true });
    await expect(withdraw).toHaveAccessibleDescription(pattern('pt-BR', 'purchases.withdraw.until', 'date'));
    await Promise.all([p.waitForURL((u) => u.pathname === '/my/purchases/' && u.searchParams.has('withdrawn')), withdraw.click()]);
    await expect(p.getByRole('status').filter({ hasText: pt('purchases.withdraw.done', { amount }) })).toBeVisible();
    await expect(row).toContainText(pt('purchases.state.refunded'));
    await expect(row.getByRole('button', { name: pt('purchases.withdraw.button', { amount }), exact: true })).toHaveCount(0);
    await expect(keysLink(p, 'pt-BR', 0, 0)).toBeVisible();
    await row.getByRole('link', { name: pattern('pt-BR', 'receipts.linkLabel', 'date') }).click();
    await expect(p.getByRole('region', { name: pt('receipts.refunds') })).toContainText(pattern('pt-BR', 'receipts.refunded', 'date', { amount }));
  } finally {
    await plain.close();
  }
});

test('br: the withdrawal is gone after 7 days (paid_at moved back) and after keys are spent, and the row says why', async ({ page, reader }) => {
  test.setTimeout(90_000);
  const pt = (key: string, values?: Record<string, string | number>) => message('pt-BR', key, values);
  await signIn(page, 'br', reader);
  await buyByCard(page, 'br', 'starter');
  const amount = money('pt-BR', 'BRL', 1990);
  const row = orderRow(page, 'pt-BR');
  const withdraw = row.getByRole('button', { name: pt('purchases.withdraw.button', { amount }), exact: true });
  await expect(withdraw).toBeVisible();
  // "…até {date}, …": the date the period ends, as the site writes it.
  const [before, after] = pt('purchases.withdraw.until', { date: '\u0000' }).split('\u0000') as [string, string];
  const until = ((await row.getByText(pattern('pt-BR', 'purchases.withdraw.until', 'date')).textContent()) ?? '').trim();
  expect(until.startsWith(before) && until.endsWith(after)).toBe(true);
  const endDate = until.slice(before.length, until.length - after.length);

  await test.step('8 days after the payment, the period is over and the row says when it ended', async () => {
    // The order's paid_at moved 8 days back in the e2e database rather than a second server with
    // a clock 8 days ahead (studio.spec.ts's fake clock): such a server's request timer settles
    // every pending Pix payment past its expiry as of its own clock, which would expire a Pix
    // checkout another worker's test has open at that moment.
    const orderId = await orderIdOf(page, 'pt-BR');
    const db = await e2eDatabase();
    const moved = await db.updateTable('orders').set((eb) => ({ paid_at: eb('paid_at', '-', 8 * 86_400) }))
      .where('public_id', '=', orderId).where('state', '=', 'PAID').executeTakeFirst();
    expect(Number(moved.numUpdatedRows)).toBe(1);
    await page.reload();
    await expect(row).toContainText(pt('purchases.state.paid'));
    await expect(row.getByRole('button', { name: pattern('pt-BR', 'purchases.withdraw.button', 'amount') })).toHaveCount(0);
    const ended = ((await row.getByText(pattern('pt-BR', 'purchases.withdraw.window', 'date')).textContent()) ?? '').trim();
    expect(ended, 'the period ended a day ago, not on the date the offer named').not.toContain(endDate);
    // Back to its real time: the offer is there again, for the next step to take away.
    await db.updateTable('orders').set((eb) => ({ paid_at: eb('paid_at', '+', 8 * 86_400) })).where('public_id', '=', orderId).execute();
    await page.reload();
    await expect(withdraw).toBeVisible();
  });

  await test.step('today, unlocking a paid chapter spends keys of the purchase and the offer goes', async () => {
    await page.goto(brUrl(`/comics/${DEMO.readerManga}/`));
    await expect(keysLink(page, 'pt-BR', 50, 0)).toBeVisible();
    const unlock = page.getByRole('button', { name: new RegExp(`^${escapeRegExp(pt('chapter.unlock'))}\\s*:\\s`) }).first();
    const price = Number(await unlock.getAttribute('data-price'));
    expect(price).toBeGreaterThan(0);
    expect(price).toBeLessThanOrEqual(50);
    await unlock.click();
    const confirm = page.getByRole('dialog').getByRole('button', { name: pt('unlock.confirm', { price }), exact: true });
    await confirm.click();
    await expect(keysLink(page, 'pt-BR', 50 - price, 0)).toBeVisible();
    await page.goto(brUrl('/my/purchases/'));
    await expect(row).toContainText(pt('purchases.state.paid'));
    await expect(row.getByRole('button', { name: pattern('pt-BR', 'purchases.withdraw.button', 'amount') })).toHaveCount(0);
    await expect(row).toContainText(pt('purchases.withdraw.spent'));
  });
});

