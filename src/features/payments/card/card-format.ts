/**
 * The card fields as a reader types them (issue 26): the number grouped as it is printed on the
 * card (4-4-4-4, American Express 4-6-5), the expiry's slash inserted for them (`1230` is
 * `12/30`), and the checks a gateway would make, run before asking it so the first wrong field
 * gets the focus. Pure and browser-safe; the sandbox checks the same rules on the server.
 */

/** A field's text and where the caret is in it. */
export interface FieldEdit {
  value: string;
  caret: number;
}

export type CardField = 'number' | 'expiry' | 'cvv';

const digitsOf = (s: string) => s.replace(/\D/g, '');
const isAmex = (digits: string) => /^3[47]/.test(digits);

/** Luhn's check digit: what every card number satisfies. */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/** "4111111111111111" → "4111 1111 1111 1111"; American Express "3782 822463 10005"; at most 19 digits. */
export function formatCardNumber(raw: string): string {
  const digits = digitsOf(raw).slice(0, 19);
  const groups = isAmex(digits) ? [4, 6, 5] : [4, 4, 4, 4, 3];
  const out: string[] = [];
  let at = 0;
  for (const size of groups) {
    if (at >= digits.length) break;
    out.push(digits.slice(at, at + size));
    at += size;
  }
  return out.join(' ');
}

/**
 * The expiry's digits as "MM/YY". A first digit above 1 can only be a month with a leading zero
 * ("4" → "04/"), and "1" followed by 3-9 likewise ("13" → "01/3"); a four-digit year keeps its
 * last two digits ("12/2030" → "12/30"). `deleting` adds no slash after two digits, so a backspace
 * after "12/" does not put it back (one the text still has stays).
 */
export function formatExpiry(raw: string, deleting = false): string {
  const written = /^\s*(\d{1,2})\s*[/.\-\s]\s*(\d{2}|\d{4})\s*$/.exec(raw);
  let d = written ? written[1]!.padStart(2, '0') + written[2]!.slice(-2) : digitsOf(raw);
  if (d.length >= 1 && d[0]! > '1') d = `0${d}`;
  else if (d.length >= 2 && d[0] === '1' && d[1]! > '2') d = `0${d}`;
  if (d.length === 6 && d.slice(2, 4) === '20') d = d.slice(0, 2) + d.slice(4);
  d = d.slice(0, 4);
  if (d.length < 2) return d;
  if (d.length === 2) return deleting && !raw.includes('/') ? d : `${d}/`;
  return `${d.slice(0, 2)}/${d.slice(2)}`;
}

/** The security code's digits, 4 at most. */
export function formatCvv(raw: string): string {
  return digitsOf(raw).slice(0, 4);
}

/**
 * Applies one edit of a formatted field: `next` is the field as the browser changed it. A
 * backspace that removed only a separator (a space, the slash) removes the digit before it, so
 * the caret never sticks behind a separator the format puts back. The caret stays after the
 * same digit it followed.
 */
function reformat(prev: string, next: FieldEdit, deleting: boolean, format: (raw: string, deleting: boolean) => string): FieldEdit {
  let digits = digitsOf(next.value);
  let before = digitsOf(next.value.slice(0, next.caret)).length;
  const atEnd = next.caret >= next.value.length;
  // A pasted or typed whole value ("12/2030") formats from its text; an edit in the middle from its digits.
  let value = format(atEnd ? next.value : digits, deleting);
  if (deleting && value === prev && before > 0) {
    digits = digits.slice(0, before - 1) + digits.slice(before);
    before -= 1;
    value = format(digits, deleting);
  }
  if (atEnd) return { value, caret: value.length };
  let caret = 0;
  for (let seen = 0; caret < value.length && seen < before; caret++) if (/\d/.test(value[caret]!)) seen++;
  return { value, caret };
}

export function editCardNumber(prev: string, next: FieldEdit, deleting: boolean): FieldEdit {
  return reformat(prev, next, deleting, formatCardNumber);
}

export function editExpiry(prev: string, next: FieldEdit, deleting: boolean): FieldEdit {
  return reformat(prev, next, deleting, formatExpiry);
}

/** "MM/YY" of a month not before `now`'s (UTC, as the gateway checks it). */
export function expiryValid(raw: string, now: Date): boolean {
  const m = /^(\d{2})\s*\/?\s*(\d{2})$/.exec(raw.trim());
  if (!m) return false;
  const month = Number(m[1]);
  const year = 2000 + Number(m[2]);
  if (month < 1 || month > 12) return false;
  return year > now.getUTCFullYear() || (year === now.getUTCFullYear() && month >= now.getUTCMonth() + 1);
}

/** The first field a gateway would refuse, in the order the form shows them; null when all pass. */
export function cardProblem(card: { number: string; expiry: string; cvv: string }, now: Date): CardField | null {
  const digits = digitsOf(card.number);
  if (!luhnValid(digits)) return 'number';
  if (!expiryValid(card.expiry, now)) return 'expiry';
  if (!(isAmex(digits) ? /^\d{4}$/ : /^\d{3,4}$/).test(card.cvv.trim())) return 'cvv';
  return null;
}
