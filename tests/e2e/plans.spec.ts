/**
 * Plans and the subscription checkout in the browser (issue 15): a Portuguese reader opens a
 * plan's URL, the checkout modal opens by itself, the CPF is masked as typed, Enter subscribes,
 * the QR, code and countdown show, the sandbox PSP's payment (`npm run payments -- pay <check>`)
 * is seen by the 20 s poll, and the reader lands on /my/subscriptions/ with the plan active; a
 * reader who used the trial gets the trial notice instead of the checkout; an English reader is
 * declined, then subscribes by card, and cancels (the plan "ends on" its paid date); anonymous
 * readers get login links that come back to the chosen plan.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { STATUS_POLL_MS } from '~/features/subscriptions';
import { brUrl, E2E_PORT, enUrl, expect, message, signIn, test, type TestReader } from './fixtures';

const pt = (key: string, values?: Record<string, string | number>) => message('pt-BR', key, values);
const en = (key: string, values?: Record<string, string | number>) => message('en', key, values);
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const brl = (minor: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(minor / 100);
const usd = (minor: number) => new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' }).format(minor / 100);
const DB_FILE = 'data/e2e.db';
/** A plan card's link: its label and, visually hidden, ": {plan}" (Chromium puts a space before the hidden part). */
const planLinkName = (label: string, plan: string) => new RegExp(`^${escapeRegExp(label)}\\s*:\\s*${escapeRegExp(plan)}$`);

/** Fills the Pix form and presses Enter in the document field; returns the Pix call's answer. */
async function subscribeByPix(page: Page, name: string, cpf: string) {
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: pt('subscribe.checkout.name') }).fill(name);
  const doc = dialog.getByRole('textbox', { name: pt('subscribe.checkout.doc') });
  await doc.pressSequentially(cpf);
  await expect(doc).toHaveValue('529.982.247-25');
  const [answer] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/my/subscribe/pix/'),
    doc.press('Enter'),
  ]);
  return answer;
}

test.describe('plans and the subscription checkout (br)', () => {
  test('Pix: the modal opens by itself, Enter subscribes, the payment is polled and the plan is active', async ({ page, reader }) => {
    test.setTimeout(90_000);
    // The browser's clock runs on its own but can be moved to the checkout's next poll.
    await page.clock.install();
    await signIn(page, 'br', reader);
    await page.goto(brUrl('/plans/?tier=leitor'));
    const dialog = page.getByRole('dialog', { name: pt('subscribe.checkout.title', { plan: 'Leitor' }) });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('radio', { name: pt('checkout.method.pix'), exact: true })).toBeChecked();
    await expect(dialog.getByRole('textbox', { name: pt('subscribe.checkout.name') })).toBeFocused();

    // Escape closes it and focus goes back to the plan's link, which opens it again without a reload.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    const planLink = page.getByRole('link', { name: planLinkName(pt('plans.subscribe'), 'Leitor') });
    await expect(planLink).toBeFocused();
    await planLink.click();
    await expect(dialog).toBeVisible();
    expect(new URL(page.url()).search).toBe('?tier=leitor');

    const answer = await subscribeByPix(page, 'Maria da Silva', '52998224725');
    expect(answer.status()).toBe(200);
    const body = (await answer.json()) as { check: string; first_payment: boolean };
    expect(body.first_payment).toBe(true);

    const pix = dialog.getByRole('region', { name: pt('checkout.pix.title', { total: brl(1490) }) });
    await expect(pix.getByRole('img', { name: pt('purchase.pix.qrLabel') })).toBeVisible();
    await expect(pix.getByRole('textbox', { name: pt('checkout.pix.code') })).toHaveValue(/^000201.*6304[0-9A-F]{4}$/);
    const [before, after] = pt('checkout.pix.expiresIn', { time: '\u0000' }).split('\u0000').map(escapeRegExp);
    const timer = pix.getByRole('timer');
    await expect(timer).toHaveText(new RegExp(`^${before}\\d\\d:\\d\\d${after}$`));
    // It ticks: the text changes within a couple of seconds.
    const first = await timer.textContent();
    await expect(timer).not.toHaveText(first!, { timeout: 3_000 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: brUrl('') });
    await pix.getByRole('button', { name: pt('checkout.pix.copy') }).click();
    await expect(pix.getByRole('button', { name: pt('checkout.pix.copied') })).toBeVisible();
    await expect(pix.getByRole('button', { name: pt('checkout.pix.copy') })).toBeVisible({ timeout: 3_000 });

    // The payer pays: the sandbox PSP marks the charge paid and delivers its webhook.
    await promisify(execFile)('npm', ['run', '--silent', 'payments', '--', 'pay', body.check, '--url', `http://127.0.0.1:${E2E_PORT}`], {
      env: { ...process.env, DATABASE_URL: `file:./${DB_FILE}`, MEDIA_DIR: process.env.INKPASS_TEST_MEDIA_DIR || 'data/test-media', PORT: String(E2E_PORT) },
      timeout: 60_000,
    });
    // The widget's poll runs every 20 s: at the next one the confirmation shows by itself, then
    // the redirect.
    await page.clock.fastForward(STATUS_POLL_MS);
    await expect(dialog.getByRole('status')).toContainText(pt('subscribe.checkout.paid'));
    await page.waitForURL(brUrl('/my/subscriptions/'), { timeout: 5_000 });
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Leitor' })).toBeVisible();
    await expect(page.getByTestId('subscription-state')).toHaveText(pt('subscriptions.state.active'));
    await expect(main.getByRole('row').filter({ hasText: pt('purchases.state.paid') })).toContainText(brl(1490));
  });

  test('a reader who used the trial gets the trial notice and the contact note instead of the checkout', async ({ page, reader }) => {
    await signIn(page, 'br', reader);
    await page.goto(brUrl('/plans/?tier=teste'));
    const dialog = page.getByRole('dialog', { name: pt('subscribe.checkout.title', { plan: 'Teste grátis' }) });
    await expect(dialog).toBeVisible();
    const answer = await subscribeByPix(page, 'João Souza', '52998224725');
    expect(((await answer.json()) as { first_payment: boolean }).first_payment).toBe(false);
    await expect(dialog.getByRole('status')).toContainText(pt('subscribe.trial.started', { days: 7 }));
    await page.waitForURL(brUrl('/my/subscriptions/'));
    await expect(page.getByTestId('subscription-state')).toHaveText(pt('subscriptions.state.trial'));

    // Seven days later the trial is over (no clock to move here: the subscription is closed in
    // the e2e database, as the renewal command would close it).
    const db = new Database(DB_FILE);
    try {
      db.pragma('busy_timeout = 5000');
      db.prepare("UPDATE subscriptions SET state = 'EXPIRED' WHERE user_id = (SELECT id FROM users WHERE email = ?)").run(reader.email.toLowerCase());
    } finally {
      db.close();
    }

    await page.goto(brUrl('/plans/?tier=teste'));
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(pt('subscribe.trial.used'));
    const email = pt('subscribe.contactEmail');
    await expect(dialog.getByRole('link', { name: email })).toHaveAttribute('href', `mailto:${email}`);
    await expect(dialog.getByRole('textbox')).toHaveCount(0);
    // Another plan still has its checkout.
    await page.goto(brUrl('/plans/?tier=leitor'));
    await expect(page.getByRole('dialog').getByRole('textbox', { name: pt('subscribe.checkout.name') })).toBeVisible();
  });
});

test.describe('plans and the subscription checkout (en)', () => {
  test('card: a declined card says so, a good one subscribes, and cancelling keeps the plan until it ends', async ({ page, reader: _signedIn }) => {
    await page.goto(enUrl('/plans/?tier=reader'));
    const dialog = page.getByRole('dialog', { name: en('subscribe.checkout.title', { plan: 'Reader' }) });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('radio', { name: en('checkout.method.card'), exact: true })).toBeChecked();
    await expect(dialog.getByRole('radio', { name: en('checkout.method.pix'), exact: true })).toHaveCount(0);
    const number = dialog.getByRole('textbox', { name: en('checkout.card.number') });
    await number.fill('4000 1111 1111 1115');
    await dialog.getByRole('textbox', { name: en('checkout.card.expiry') }).fill('12/30');
    await dialog.getByRole('textbox', { name: en('checkout.card.cvv') }).fill('123');
    const submit = dialog.getByRole('button', { name: en('subscribe.checkout.submit', { price: usd(499) }) });
    await submit.click();
    await expect(dialog.getByRole('alert')).toHaveText(new RegExp(escapeRegExp(en('purchase.error.declined'))));

    await number.fill('4111 1111 1111 1111');
    await submit.click();
    await expect(dialog.getByRole('status')).toContainText(en('subscribe.checkout.paid'));
    await page.waitForURL(enUrl('/my/subscriptions/'));
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Reader', exact: true })).toBeVisible();
    await expect(page.getByTestId('subscription-state')).toHaveText(en('subscriptions.state.active'));
    await expect(main).toContainText(en('subscriptions.rentals.count', { used: 0, capacity: 5 }));

    // Back on the plans page, a subscriber is sent to the subscription instead of a checkout.
    await page.goto(enUrl('/plans/?tier=reader-plus'));
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByRole('main').getByRole('link', { name: en('plans.manage') })).toHaveAttribute('href', '/my/subscriptions/');

    await page.goto(enUrl('/my/subscriptions/'));
    await main.getByText(en('subscriptions.cancel.open')).click();
    await main.getByRole('button', { name: en('subscriptions.cancel.confirm') }).click();
    await page.waitForURL(enUrl('/my/subscriptions/'));
    const [endsBefore] = en('subscriptions.state.ending', { date: '\u0000' }).split('\u0000');
    await expect(page.getByTestId('subscription-state')).toHaveText(new RegExp(`^${escapeRegExp(endsBefore!)}\\S`));
    await expect(main.getByText(en('subscriptions.cancel.open'))).toHaveCount(0);
  });

  test('anonymous readers see the plans with login links that come back to the chosen plan', async ({ page }) => {
    await page.goto(enUrl('/plans/?tier=reader'));
    await expect(page.getByRole('dialog')).toHaveCount(0);
    const login = page.getByRole('link', { name: planLinkName(en('plans.login'), 'Reader') });
    await expect(login).toHaveAttribute('href', `/auth/login/?next=${encodeURIComponent('/plans/?tier=reader')}`);
    await expect(page.getByRole('heading', { name: 'Reader Plus' })).toBeVisible();
    await expect(page.getByRole('main')).toContainText(en('plans.slots', { n: 10 }));
  });
});
