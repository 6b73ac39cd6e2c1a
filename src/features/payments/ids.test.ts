import { describe, expect, it } from 'vitest';
import { PROVIDER_ID_MAX, providerId } from './ids';

describe('ids from providers', () => {
  it('takes every shape ours and our providers\' take', () => {
    for (const id of [
      'ord4f1c2b3a4d5e6f708192a3b4', 'sub4f1c2b3a4d5e6f708192a3b4', // ours
      'ea83401ed4834b3ea6f1f283b389af29', // a Woovi transactionID
      '417bae21-3d08-4cdb-9c2d-fee63c89e9e4', // a UUID correlationID
      'E18236120202611251200s0000000001', // a Pix end-to-end id
      'E2E4F1C2B3A4D5E6F708192A3', // the sandbox's
      'kq9w8r2n', 'vault-4f1c2b3a4d5e6f708192a3b4', 'cust_token.v2', // Braintree's and the card sandbox's
      'x'.repeat(PROVIDER_ID_MAX),
    ]) expect(providerId(id), id).toBe(id);
  });

  it('refuses what no id is: NUL and other controls, spaces, markup, quotes, non-ASCII, too long, not a string', () => {
    for (const bad of [
      'ord\u0000', '\u0000', 'ord 1', ' ord1', 'ord1\n', 'ord\u007f', '<script>', "ord'1", 'ord"1', 'ord;drop', 'órd1', 'ord\u200b1',
      '-ord', '.ord', '', 'x'.repeat(PROVIDER_ID_MAX + 1), 'a/b', 'a%00',
    ]) expect(providerId(bad), JSON.stringify(bad)).toBeNull();
    for (const notString of [null, undefined, 12, {}, ['ord1']]) expect(providerId(notString)).toBeNull();
  });
});
