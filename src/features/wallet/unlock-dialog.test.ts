import { describe, expect, it } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import en from '../../../i18n/en.json';
import pt from '../../../i18n/pt-BR.json';
import { dialogView, failureText, offerFrom, payWords, redeemFailure, DIALOG_MESSAGES } from './unlock-dialog';

const CATALOGUES = { en, 'pt-BR': pt } as Record<'en' | 'pt-BR', Record<string, string>>;
const say = (locale: 'en' | 'pt-BR', key: string, price: number) => String(new IntlMessageFormat(CATALOGUES[locale][key]!, locale).format({ price }));

describe('the unlock dialog', () => {
  it('says which currency pays: Xtra keys when they cover the whole price, else paid keys, else how many are missing', () => {
    expect(dialogView({ price: 5 }, { keys: 10, xtra: 5 })).toEqual({ currency: 'xtra', missing: 0 });
    expect(dialogView({ price: 5 }, { keys: 10, xtra: 4 })).toEqual({ currency: 'keys', missing: 0 });
    expect(dialogView({ price: 12 }, { keys: 3, xtra: 7 })).toEqual({ currency: null, missing: 5 });
    expect(dialogView({ price: 12 }, { keys: 0, xtra: 0 })).toEqual({ currency: null, missing: 12 });
  });

  it('shows the server\'s detail, or "Error {status}" when there is none', async () => {
    const status = (s: number) => `Error ${s}`;
    expect(await failureText(new Response(JSON.stringify({ detail: 'Not enough keys.' }), { status: 402 }), status)).toBe('Not enough keys.');
    expect(await failureText(new Response('<html>oops</html>', { status: 502 }), status)).toBe('Error 502');
    expect(await failureText(new Response(JSON.stringify({ detail: '' }), { status: 409 }), status)).toBe('Error 409');
  });

  it('reads the offer a button carries, completed from its row, and refuses anything malformed', () => {
    const button = (value: string, dataset: Record<string, string | undefined>) => ({ value, dataset });
    const row = { name: 'Chapter 2', href: '/read/s/b/chapter-2/' };
    expect(offerFrom(button('EPI-b', { price: '12', was: '15', ad: '' }), row)).toEqual({ e4pid: 'EPI-b', name: 'Chapter 2', href: '/read/s/b/chapter-2/', price: 12, original: 15, bonus: 1, pass: false, ad: true, rent: null });
    expect(offerFrom(button('EPI-c', { price: '3', pass: '', name: 'Episode 3', href: '/read/x/c/episode-3/' }))).toEqual({ e4pid: 'EPI-c', name: 'Episode 3', href: '/read/x/c/episode-3/', price: 3, original: 3, bonus: 0, pass: true, ad: false, rent: null });
    expect(offerFrom(button('EPI-b', { price: '3', rent: '4' }), row)?.rent).toBe(4);
    expect(offerFrom(button('EPI-b', { price: '3', rent: 'x' }), row)?.rent).toBe(0);
    expect(offerFrom(button('EPI-b', { price: 'x' }), row)).toBeNull();
    expect(offerFrom(button('nope', { price: '3' }), row)).toBeNull();
    expect(offerFrom(button('EPI-b', { price: '3' }), {})).toBeNull();
  });

  it('says before paying, in the future tense, which balance will pay, and the button names that same currency (issue 26)', () => {
    const cases = [
      { balances: { keys: 10, xtra: 5 }, price: 3, xtra: true },
      { balances: { keys: 10, xtra: 2 }, price: 3, xtra: false },
      { balances: { keys: 1, xtra: 0 }, price: 1, xtra: false },
      { balances: { keys: 0, xtra: 1 }, price: 1, xtra: true },
    ];
    for (const locale of ['en', 'pt-BR'] as const) {
      for (const { balances, price, xtra } of cases) {
        const words = payWords(dialogView({ price }, balances))!;
        for (const key of [words.pay, words.confirm]) expect(DIALOG_MESSAGES).toContain(key);
        const pay = say(locale, words.pay, price);
        const confirm = say(locale, words.confirm, price);
        const label = `${locale} ${price} with ${JSON.stringify(balances)}`;
        // Future tense: nothing is paid yet ("Paid with…" / "Pago com…" was the defect).
        expect(pay, label).toMatch(locale === 'en' ? /^You will pay with / : /^Você vai pagar com /);
        expect(pay, label).not.toMatch(/\b(paid|pago)\b/i);
        // The currency: the line and the button both name Xtra keys, or neither does.
        const unit = locale === 'en' ? (price === 1 ? 'Xtra key' : 'Xtra keys') : price === 1 ? 'chave Xtra' : 'chaves Xtra';
        expect(pay.includes(`${price} ${unit}`), label).toBe(xtra);
        expect(confirm.includes(`${price} ${unit}`), label).toBe(xtra);
        expect(confirm, label).toContain(String(price));
      }
    }
    expect(payWords(dialogView({ price: 12 }, { keys: 3, xtra: 7 }))).toBeNull();
  });
});

describe('a failed redeem, as reported (spec section 8)', () => {
  it('says the status and what the reader saw, and names a bot-check refusal so the ignore list leaves it out', () => {
    expect(redeemFailure(409, null, 'Not enough keys.')).toBe('Redeem failed: HTTP 409: Not enough keys.');
    expect(redeemFailure(403, 'used', 'Try again.')).toBe('Redeem failed: HTTP 403 (X-App-Check-Refused: used): Try again.');
  });
});
