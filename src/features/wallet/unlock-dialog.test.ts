import { describe, expect, it } from 'vitest';
import { dialogView, failureText, parseOffer } from './unlock-dialog';

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

  it('reads the offer a button carries, and refuses anything malformed', () => {
    const offer = { e4pid: 'EPI-a', name: 'Chapter 1', href: '/read/s/a/chapter-1/', price: 3, original: 4, bonus: 0, pass: true, ad: false };
    expect(parseOffer(JSON.stringify(offer))).toEqual(offer);
    expect(parseOffer(JSON.stringify({ ...offer, price: '3' }))).toBeNull();
    expect(parseOffer('{not json')).toBeNull();
    expect(parseOffer(undefined)).toBeNull();
    expect(parseOffer(JSON.stringify({ e4pid: 'EPI-a', name: 'x', href: '/r/', price: 2 }))).toEqual({ e4pid: 'EPI-a', name: 'x', href: '/r/', price: 2, original: 2, bonus: 0, pass: false, ad: false });
  });
});
