import { describe, expect, it } from 'vitest';
import { cardProblem, editCardNumber, editExpiry, expiryValid, formatCardNumber, formatCvv, formatExpiry, luhnValid } from './card-format';

/** Types `text` one character at a time at the end of the field, as a phone keyboard does. */
function type(edit: typeof editExpiry, text: string, start = ''): string {
  let value = start;
  for (const ch of text) {
    const next = value + ch;
    value = edit(value, { value: next, caret: next.length }, false).value;
  }
  return value;
}

/** One backspace at the end of the field. */
function backspace(edit: typeof editExpiry, value: string): string {
  const next = value.slice(0, -1);
  return edit(value, { value: next, caret: next.length }, true).value;
}

describe('the expiry field', () => {
  it('inserts the slash as the reader types: 1230 is 12/30', () => {
    expect(type(editExpiry, '1230')).toBe('12/30');
    expect(type(editExpiry, '12')).toBe('12/');
    expect(type(editExpiry, '0')).toBe('0');
    expect(type(editExpiry, '0527')).toBe('05/27');
  });

  it('takes the slash when the reader types it too, and never doubles it', () => {
    expect(type(editExpiry, '12/30')).toBe('12/30');
    expect(type(editExpiry, '1/30')).toBe('01/30');
  });

  it('adds the leading zero a month must have', () => {
    expect(type(editExpiry, '4')).toBe('04/');
    expect(type(editExpiry, '430')).toBe('04/30');
    expect(type(editExpiry, '13')).toBe('01/3');
  });

  it('stops at four digits', () => {
    expect(type(editExpiry, '123099')).toBe('12/30');
  });

  it('formats a pasted date, a four-digit year included', () => {
    for (const [pasted, shown] of [['1230', '12/30'], ['12/30', '12/30'], ['12/2030', '12/30'], ['12 / 30', '12/30'], ['122030', '12/30'], ['1-30', '01/30'], ['ab12cd30', '12/30']] as const) {
      expect(editExpiry('', { value: pasted, caret: pasted.length }, false).value, pasted).toBe(shown);
    }
  });

  it('lets backspace remove the slash, then the digits, without putting the slash back', () => {
    expect(backspace(editExpiry, '12/3')).toBe('12/');
    expect(backspace(editExpiry, '12/')).toBe('12');
    expect(backspace(editExpiry, '12')).toBe('1');
    expect(backspace(editExpiry, '1')).toBe('');
  });

  it('keeps the caret after the same digit when editing in the middle', () => {
    // "12/30" with the caret after "1": typing 1 gives "11230" → "11/23".
    expect(editExpiry('12/30', { value: '112/30', caret: 2 }, false)).toEqual({ value: '11/23', caret: 2 });
  });

  it('formats from digits alone too', () => {
    expect(formatExpiry('1230')).toBe('12/30');
    expect(formatExpiry('12', true)).toBe('12');
  });
});

describe('the card number field', () => {
  it('groups by four as the reader types', () => {
    expect(type(editCardNumber, '4111111111111111')).toBe('4111 1111 1111 1111');
    expect(type(editCardNumber, '41111')).toBe('4111 1');
  });

  it('groups American Express 4-6-5', () => {
    expect(type(editCardNumber, '378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('371449635398431')).toBe('3714 496353 98431');
    // 15 digits at most for Amex's groups; anything past them is dropped.
    expect(formatCardNumber('3782822463100059')).toBe('3782 822463 10005');
  });

  it('formats a pasted number with spaces or dashes, 19 digits at most', () => {
    expect(editCardNumber('', { value: '4111-1111-1111-1111', caret: 19 }, false).value).toBe('4111 1111 1111 1111');
    expect(formatCardNumber('6011 0009 9013 9424 1234 99')).toBe('6011 0009 9013 9424 123');
  });

  it('lets backspace over a space remove the digit before it', () => {
    expect(backspace(editCardNumber, '4111 1')).toBe('4111');
    // The caret right after the space of "4111 1111": the browser removes the space, the format would put it back.
    expect(editCardNumber('4111 1111', { value: '41111111', caret: 4 }, true)).toEqual({ value: '4111 111', caret: 3 });
  });

  it('keeps the caret after the same digit when a digit is typed in the middle', () => {
    expect(editCardNumber('4111 1111', { value: '41511 1111', caret: 3 }, false)).toEqual({ value: '4151 1111 1', caret: 3 });
  });
});

describe('the checks before the gateway', () => {
  const now = new Date(Date.UTC(2026, 10, 27));

  it('finds the first wrong field in the order the form shows them', () => {
    expect(cardProblem({ number: '4111 1111 1111 1111', expiry: '12/30', cvv: '123' }, now)).toBeNull();
    expect(cardProblem({ number: '4111 1111 1111 1112', expiry: '1/2', cvv: '' }, now)).toBe('number');
    expect(cardProblem({ number: '4111 1111 1111 1111', expiry: '10/26', cvv: '' }, now)).toBe('expiry');
    expect(cardProblem({ number: '4111 1111 1111 1111', expiry: '11/26', cvv: '12' }, now)).toBe('cvv');
    // American Express has a four-digit code.
    expect(cardProblem({ number: '3782 822463 10005', expiry: '12/30', cvv: '123' }, now)).toBe('cvv');
    expect(cardProblem({ number: '3782 822463 10005', expiry: '12/30', cvv: '1234' }, now)).toBeNull();
  });

  it('reads an expiry with or without its slash, and refuses month 0 and 13', () => {
    expect(expiryValid('1230', now)).toBe(true);
    expect(expiryValid('00/30', now)).toBe(false);
    expect(expiryValid('13/30', now)).toBe(false);
  });

  it('checks the Luhn digit', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('41111')).toBe(false);
    expect(formatCvv('12a34 5')).toBe('1234');
  });
});
