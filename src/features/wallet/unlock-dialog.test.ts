import { describe, expect, it } from 'vitest';
import { dialogView, failureText, offerFrom } from './unlock-dialog';

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
});
