/**
 * The checkout page's own answers (issue 26), over real HTTP on both databases: with only some
 * methods configured, the checkout and /plans/ name each unavailable one and open on one that
 * works; the card sandbox's refusal names its field; a refused card payment renders the page
 * again with the reader's method chosen and coupon kept; the buy page's `#chapters` starts at its
 * title. The ledger audit passes after every test.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appCheckToken, createReader, markup, message, selectedDialects, startExtraServer, useServer, withDb, type Reader, type ServerClient, type ServerHandle, type SiteName } from './harness';

const FORM = 'application/x-www-form-urlencoded';

async function post(server: ServerClient, reader: Reader, path: string, fields: Record<string, string>, site: SiteName = 'en') {
  const check = path.endsWith('/checkout/') ? await appCheckToken(server, reader, site) : null;
  return server.request(path, {
    method: 'POST', site, body: new URLSearchParams({ ...fields, ...(check ? { app_check: check } : {}) }).toString(),
    headers: { 'content-type': FORM, origin: server.origin(site), cookie: reader.cookie, ...(check ? { 'x-app-check': check } : {}) },
  });
}

/** The checked radio of the method fieldset, as the server rendered the island. */
const checkedMethod = (html: string) => /<input[^>]*type="radio"[^>]*name="method"[^>]*value="([a-z]+)"[^>]*checked=""/.exec(html)?.[1]
  ?? /<input[^>]*type="radio"[^>]*name="method"[^>]*checked=""[^>]*value="([a-z]+)"/.exec(html)?.[1] ?? null;

for (const dialect of selectedDialects()) {
  describe(`the checkout page (${dialect})`, () => {
    const base = useServer(dialect);
    /** A demo whose Pix is not configured: card-type methods only. */
    let cardOnly: ServerHandle;

    beforeAll(async () => {
      cardOnly = await startExtraServer(base, { PAYMENTS_PIX: 'none' });
    }, 120_000);
    afterAll(async () => {
      await cardOnly?.stop();
    });
    afterEach(async () => {
      expect(await withDb(base, async (db) => (await import('~/features/wallet/index.server')).auditLedger(db))).toEqual([]);
    });

    it('opens on Pix in reais and on card in dollars, and names no method as unavailable when all are set up', async () => {
      const reader = await createReader(base, { site: 'br' });
      const br = await base.request('/my/purchase/checkout/?pack=popular', { site: 'br', headers: { cookie: reader.cookie } });
      expect(checkedMethod(br.text)).toBe('pix');
      expect(br.text).not.toContain(message('pt-BR', 'checkout.method.unavailable', { method: message('pt-BR', 'checkout.method.pix') }));
      const en = await base.request('/my/purchase/checkout/?pack=popular', { site: 'en', headers: { cookie: reader.cookie } });
      expect(checkedMethod(en.text)).toBe('card');
    });

    it('names Pix as unavailable on the Portuguese checkout and /plans/ when only cards are set up, and opens on card', async () => {
      const reader = await createReader(cardOnly, { site: 'br' });
      const notice = message('pt-BR', 'checkout.method.unavailable', { method: message('pt-BR', 'checkout.method.pix') });
      const page = await cardOnly.request('/my/purchase/checkout/?pack=popular', { site: 'br', headers: { cookie: reader.cookie } });
      expect(page.status).toBe(200);
      expect(page.text).toContain(notice);
      expect(checkedMethod(page.text)).toBe('card');
      expect(markup(page.text)).not.toMatch(/value="pix"/);
      const plans = await cardOnly.request('/plans/', { site: 'br', headers: { cookie: reader.cookie } });
      expect(plans.text).toContain(notice);
      // The English site's dollars never had Pix: nothing to say there.
      const en = await cardOnly.request('/my/purchase/checkout/?pack=popular', { site: 'en', headers: { cookie: reader.cookie } });
      expect(en.text).not.toContain(message('en', 'checkout.method.unavailable', { method: message('en', 'checkout.method.pix') }));
    });

    it('the card sandbox names the refused field, and takes an expiry typed without its slash', async () => {
      const reader = await createReader(base);
      const nonce = (fields: Record<string, string>) => post(base, reader, '/payments/sandbox/nonce/', { method: 'card', number: '4111 1111 1111 1111', expiry: '12/30', cvv: '123', ...fields });
      for (const [fields, field] of [[{ number: '4111 1111 1111 1112' }, 'number'], [{ expiry: '01/20' }, 'expiry'], [{ cvv: '1' }, 'cvv']] as const) {
        const res = await nonce(fields);
        expect(res.status).toBe(422);
        expect(res.json()).toEqual({ detail: message('en', `purchase.card.${field}`), field });
      }
      expect((await nonce({ expiry: '1230' })).status).toBe(200);
    });

    it('renders a declined card payment again with the method and the coupon the reader chose', async () => {
      const reader = await createReader(base);
      const issued = await post(base, reader, '/payments/sandbox/nonce/', { method: 'card', number: '4000111111111115', expiry: '12/30', cvv: '123' });
      const { nonce } = issued.json() as { nonce: string };
      const res = await post(base, reader, '/my/purchase/checkout/', { pack: 'popular', method: 'card', nonce, coupon: 'WELCOME10', next: '/' });
      expect(res.status).toBe(402);
      expect(res.text).toContain(message('en', 'purchase.error.declined'));
      expect(checkedMethod(res.text)).toBe('card');
      expect(markup(res.text)).toMatch(/id="checkout-coupon"[^>]*value="WELCOME10"|value="WELCOME10"[^>]*id="checkout-coupon"/);
      // No card data comes back in the page.
      expect(res.text).not.toContain('4000111111111115');
    });

    it('starts `#chapters` at the buy page\'s title, so the title, balance and way back are what opens', async () => {
      const reader = await createReader(base);
      const page = await base.request('/my/purchase/?next=%2Fcomics%2F', { headers: { cookie: reader.cookie } });
      const html = markup(page.text);
      const anchor = html.indexOf('id="chapters"');
      expect(anchor).toBeGreaterThan(-1);
      const title = html.indexOf('<h1');
      expect(title).toBeGreaterThan(anchor);
      expect(html.indexOf(message('en', 'purchase.returnNote'))).toBeGreaterThan(anchor);
    });
  });
}
