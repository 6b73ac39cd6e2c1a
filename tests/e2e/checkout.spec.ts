/**
 * The checkout page as a reader on a phone and on a desktop meets it (issue 26, "Checkout"): the
 * buy-keys page keeps its title, balance and way back in view at `#chapters` and gives each pack
 * its per-key price and the most sold one a badge; the card form formats what is typed (`1230`
 * is 12/30), focuses the first wrong field with `aria-invalid` and its message as its
 * description; a declined card comes back with the method and the coupon kept and the card data
 * gone; the Portuguese site opens on Pix, whose QR comes into view with Copy focused.
 */
import type { Page } from '@playwright/test';
import { brUrl, enUrl, expect, message, signIn, test } from './fixtures';

const SERIES = '/comics/heir-of-the-frozen-throne/';
const checkoutUrl = (pack: string, next = SERIES) => `/my/purchase/checkout/?pack=${pack}&next=${encodeURIComponent(next)}`;
const en = (key: string, values?: Record<string, string | number>) => message('en', key, values);
const pt = (key: string, values?: Record<string, string | number>) => message('pt-BR', key, values);
const usd = (minor: number) => new Intl.NumberFormat('en', { style: 'currency', currency: 'USD' }).format(minor / 100);
const brl = (minor: number) => new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(minor / 100);

function checkout(page: Page, locale: 'en' | 'pt-BR' = 'en') {
  const m = (key: string, values?: Record<string, string | number>) => message(locale, key, values);
  return {
    coupon: page.getByRole('textbox', { name: m('checkout.coupon.label'), exact: true }),
    apply: page.getByRole('button', { name: m('checkout.coupon.apply'), exact: true }),
    method: (key: 'card' | 'paypal' | 'pix') => page.getByRole('radio', { name: m(`checkout.method.${key}`), exact: true }),
    number: page.getByRole('textbox', { name: m('checkout.card.number') }),
    expiry: page.getByRole('textbox', { name: m('checkout.card.expiry') }),
    cvv: page.getByRole('textbox', { name: m('checkout.card.cvv') }),
    pay: (total: string) => page.getByRole('button', { name: m('checkout.submit.pay', { total }), exact: true }),
    total: page.getByTestId('checkout-total'),
    alert: page.getByRole('main').getByRole('alert'),
  };
}

for (const width of [390, 1280]) {
  test.describe(`the checkout at ${width} px`, () => {
    test.use({ viewport: { width, height: width < 1000 ? 844 : 800 } });

    test('the card form formats what is typed and focuses the first wrong field, marked and described', async ({ page, reader: _signedIn }) => {
      await page.goto(enUrl(checkoutUrl('popular')));
      const c = checkout(page);
      await expect(c.pay(usd(999))).toBeEnabled();
      // Card is chosen from the start on the English site.
      await expect(c.method('card')).toBeChecked();
      await expect(c.number).toHaveAttribute('inputmode', 'numeric');
      await expect(c.number).toHaveAttribute('autocomplete', 'cc-number');
      await expect(c.expiry).toHaveAttribute('autocomplete', 'cc-exp');
      await expect(c.cvv).toHaveAttribute('autocomplete', 'cc-csc');

      // Typed as a phone keyboard types: grouped, and the slash put in.
      await c.number.pressSequentially('4111111111111112');
      await expect(c.number).toHaveValue('4111 1111 1111 1112');
      await c.expiry.pressSequentially('1230');
      await expect(c.expiry).toHaveValue('12/30');
      await c.expiry.press('Backspace');
      await c.expiry.press('Backspace');
      await expect(c.expiry).toHaveValue('12/');
      await c.expiry.press('Backspace');
      await expect(c.expiry).toHaveValue('12');
      await c.expiry.pressSequentially('30');
      await expect(c.expiry).toHaveValue('12/30');
      await c.cvv.pressSequentially('123');

      // A wrong number (its check digit): focused, marked, its message its description.
      await c.pay(usd(999)).click();
      await expect(c.number).toBeFocused();
      await expect(c.number).toHaveAttribute('aria-invalid', 'true');
      await expect(c.number).toHaveAccessibleDescription(en('purchase.card.number'));
      await expect(c.expiry).not.toHaveAttribute('aria-invalid', 'true');

      // Fixed, the mark goes; a month already past is the next wrong field.
      await c.number.fill('');
      await c.number.pressSequentially('4111111111111111');
      await expect(c.number).not.toHaveAttribute('aria-invalid', 'true');
      await c.expiry.fill('01/20');
      await c.pay(usd(999)).click();
      await expect(c.expiry).toBeFocused();
      await expect(c.expiry).toHaveAttribute('aria-invalid', 'true');
      await expect(c.expiry).toHaveAccessibleDescription(en('purchase.card.expiry'));
      await expect(c.expiry).toBeInViewport();
    });

    test('a declined card comes back with the method and the coupon kept, the card data gone and focus on the number', async ({ page, reader: _signedIn }) => {
      // Two card payments and a long series page at the end.
      test.setTimeout(60_000);
      await page.goto(enUrl(checkoutUrl('popular')));
      const c = checkout(page);
      await expect(c.pay(usd(999))).toBeEnabled();
      await c.coupon.fill('WELCOME10');
      await c.apply.click();
      await expect(c.total).toHaveText(usd(899));
      await c.number.pressSequentially('4000111111111115');
      await c.expiry.pressSequentially('1230');
      await c.cvv.pressSequentially('123');
      await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/my/purchase/checkout/'),
        c.pay(usd(899)).click(),
      ]);
      await expect(c.alert).toContainText(en('purchase.error.declined'));
      await expect(c.method('card')).toBeChecked();
      await expect(c.coupon).toHaveValue('WELCOME10');
      // The coupon is applied again by itself, so paying again is one press.
      await expect(c.total).toHaveText(usd(899));
      for (const field of [c.number, c.expiry, c.cvv]) await expect(field).toHaveValue('');
      await expect(c.number).toBeFocused();
      await expect(c.number).toHaveAccessibleDescription(en('purchase.error.declined'));

      // Another card goes through at once.
      await c.number.pressSequentially('4111111111111111');
      await c.expiry.pressSequentially('1230');
      await c.cvv.pressSequentially('123');
      await Promise.all([page.waitForURL(enUrl(SERIES), { waitUntil: 'commit' }), c.pay(usd(899)).click()]);
    });

    test('the buy-keys page keeps its title, balance and way back in view, with a per-key price on every pack', async ({ page, reader: _signedIn }) => {
      await page.goto(enUrl(`/my/purchase/?next=${encodeURIComponent(SERIES)}#chapters`));
      await expect(page.getByRole('heading', { level: 1, name: en('purchase.title') })).toBeInViewport();
      await expect(page.getByText(en('purchase.balance', { keys: 0, xtra: 0 }))).toBeInViewport();
      await expect(page.getByText(en('purchase.returnNote'))).toBeInViewport();
      const packs = [[50, 499], [100, 999], [210, 1999], [550, 4999]] as const;
      for (const [keys, price] of packs) {
        const pack = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: en('purchase.buyLabel', { keys, price: usd(price) }) }) });
        const perKey = new Intl.NumberFormat('en', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 3 }).format(price / 100 / keys);
        await expect(pack.getByText(en('purchase.perKey', { price: perKey }))).toBeVisible();
      }
    });
  });
}

test('"Most popular" marks one pack once readers have bought', async ({ page, reader: _signedIn }) => {
  await page.goto(enUrl(checkoutUrl('starter', '/my/purchase/')));
  const c = checkout(page);
  // The widget is ready (typed digits before it hydrates are not its to keep).
  await expect(c.pay(usd(499))).toBeEnabled();
  await c.number.pressSequentially('4111111111111111');
  await c.expiry.pressSequentially('1230');
  await c.cvv.pressSequentially('123');
  // Back where it started, with the receipt's ?paid= (the checkout always adds it).
  await Promise.all([page.waitForURL((u) => u.pathname === '/my/purchase/'), c.pay(usd(499)).click()]);
  await expect(page.getByRole('main').getByText(en('purchase.popular'), { exact: true })).toHaveCount(1);
});

test.describe('the Portuguese checkout at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('opens on Pix; after Pagar the QR is in view and Copiar has the focus', async ({ page, reader }) => {
    await signIn(page, 'br', reader);
    await page.goto(brUrl(checkoutUrl('value')));
    const c = checkout(page, 'pt-BR');
    await expect(c.method('pix')).toBeChecked();
    await expect(c.number).toHaveCount(0);
    await expect(c.pay(brl(7990))).toBeEnabled();
    await c.pay(brl(7990)).click();
    const pix = page.getByRole('region', { name: pt('checkout.pix.title', { total: brl(7990) }) });
    const copy = pix.getByRole('button', { name: pt('checkout.pix.copy'), exact: true });
    // Pagar solves the bot check and creates the charge first: seconds on a busy machine.
    await expect(copy).toBeFocused({ timeout: 15_000 });
    await expect(pix.getByRole('img', { name: pt('purchase.pix.qrLabel') })).toBeInViewport();
    await expect(copy).toBeInViewport();
    // The demo names its coupons, in the site's language.
    await expect(page.getByText(pt('checkout.demoCoupons', { names: new Intl.ListFormat('pt-BR', { type: 'disjunction' }).format(['BONUS20', 'WELCOME10']) }))).toBeVisible();
  });
});

test.describe('the subscription modal\'s card form at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('formats as typed and focuses the first wrong field, marked and described, like the key-pack checkout', async ({ page, reader: _signedIn }) => {
    await page.goto(enUrl('/plans/?tier=reader'));
    const dialog = page.getByRole('dialog', { name: en('subscribe.checkout.title', { plan: 'Reader' }) });
    await expect(dialog).toBeVisible();
    const number = dialog.getByRole('textbox', { name: en('checkout.card.number') });
    const expiry = dialog.getByRole('textbox', { name: en('checkout.card.expiry') });
    await number.pressSequentially('378282246310005');
    await expect(number).toHaveValue('3782 822463 10005');
    await expiry.pressSequentially('1230');
    await expect(expiry).toHaveValue('12/30');
    // American Express wants four digits of security code.
    const cvv = dialog.getByRole('textbox', { name: en('checkout.card.cvv') });
    await cvv.pressSequentially('123');
    await dialog.getByRole('button', { name: en('subscribe.checkout.submit', { price: usd(499) }) }).click();
    await expect(cvv).toBeFocused();
    await expect(cvv).toHaveAttribute('aria-invalid', 'true');
    await expect(cvv).toHaveAccessibleDescription(en('purchase.card.cvv'));
  });
});
