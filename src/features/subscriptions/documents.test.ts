import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isValidCnpj, isValidCpf, maskTaxDocument, onlyDocChars, parseTaxDocument } from './documents';

/** Serpro's example of an alphanumeric CNPJ (IN RFB nº 2.229/2024). */
const ALPHA = '12.ABC.345/01DE-35';

// The textbook weights, written out rather than computed, so the generators below do not share
// the implementation's loop.
const CPF_W1 = [10, 9, 8, 7, 6, 5, 4, 3, 2];
const CPF_W2 = [11, 10, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_W1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_W2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const dv = (s: string, w: number[]) => {
  const rest = [...s].reduce((sum, c, i) => sum + (c.charCodeAt(0) - 48) * w[i]!, 0) % 11;
  return rest < 2 ? '0' : String(11 - rest);
};
const withDv = (body: string, w1: number[], w2: number[]) => {
  const first = body + dv(body, w1);
  return first + dv(first, w2);
};

const digit = fc.constantFrom(...'0123456789');
const alnum = fc.constantFrom(...'0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ');
const validCpf = fc.array(digit, { minLength: 9, maxLength: 9 }).map((b) => withDv(b.join(''), CPF_W1, CPF_W2)).filter((s) => !/^(.)\1*$/.test(s));
const validNumericCnpj = fc.array(digit, { minLength: 12, maxLength: 12 }).map((b) => withDv(b.join(''), CNPJ_W1, CNPJ_W2)).filter((s) => !/^0+$/.test(s));
const validAlphaCnpj = fc.array(alnum, { minLength: 12, maxLength: 12 }).map((b) => withDv(b.join(''), CNPJ_W1, CNPJ_W2)).filter((s) => !/^0+$/.test(s));
const validDoc = fc.oneof(validCpf, validNumericCnpj, validAlphaCnpj);
const isValid = (s: string) => (s.length === 11 ? isValidCpf(s) : isValidCnpj(s));

/** What a reader might type or paste: document characters in both cases, separators and junk. */
const typed = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'0123456789abcdeXYZ.-/ é#'), maxLength: 24 }),
  // A valid document with separators and junk mixed in, so parsing is not always null.
  fc.tuple(validDoc, fc.array(fc.tuple(fc.nat(14), fc.constantFrom('.', '-', '/', ' ', '#', 'é')), { maxLength: 6 }), fc.boolean())
    .map(([doc, noise, lower]) => {
      const chars = [...(lower ? doc.toLowerCase() : doc)];
      for (const [at, c] of noise) chars.splice(at, 0, c);
      return chars.join('');
    }),
);

describe('what the document field keeps', () => {
  it.each([
    [' 529.982.247-25 ', '52998224725'],
    ['12.abc.345/01de-35', '12ABC34501DE35'],
    ['CPF: 529', 'CPF529'],
    ['123456789012345678', '12345678901234'],
    // Letters only in the first 12 positions: the check digits are numeric.
    ['12ABC34501DEAB35', '12ABC34501DE35'],
    ['ABCDEFGHIJKLMNOP', 'ABCDEFGHIJKL'],
    // Only ASCII letters and digits: no "SS" from ß, no full-width or accented characters.
    ['ßé１２Ä', ''],
    ['', ''],
  ])('%j is kept as %j', (raw, kept) => {
    expect(onlyDocChars(raw)).toBe(kept);
  });

  it('keeps at most 14 upper-case letters and digits, the letters before position 12, idempotently', () => {
    fc.assert(fc.property(typed, (raw) => {
      const kept = onlyDocChars(raw);
      expect(kept).toMatch(/^[0-9A-Z]{0,12}\d{0,2}$/);
      expect(onlyDocChars(kept)).toBe(kept);
    }));
  });
});

describe('CPF', () => {
  it.each(['529.982.247-25', '52998224725', '111.444.777-35', ' 111 444 777 35 '])('%j is valid', (doc) => {
    expect(isValidCpf(doc)).toBe(true);
  });

  it.each([
    '529.982.247-24', // first check digit right, second wrong
    '529.982.247-15', // first wrong
    '529.982.247-2', // too short
    '529.982.247-250', // too long
    '5299822472A', // a letter
    '529x982x247x25', // not a separator
    '',
  ])('%j is invalid', (doc) => {
    expect(isValidCpf(doc)).toBe(false);
  });

  it('refuses every repeated digit, though each passes the arithmetic', () => {
    for (const d of '0123456789') {
      const doc = d.repeat(11);
      expect(withDv(doc.slice(0, 9), CPF_W1, CPF_W2)).toBe(doc);
      expect(isValidCpf(doc)).toBe(false);
    }
  });
});

describe('CNPJ', () => {
  it.each([
    '11.222.333/0001-81',
    '11222333000181',
    '00.000.000/0001-91',
    ALPHA,
    '12ABC34501DE35',
    '12.abc.345/01de-35', // the Receita's example as typed in lower case
  ])('%j is valid', (doc) => {
    expect(isValidCnpj(doc)).toBe(true);
  });

  it('computes the alphanumeric example\'s check digits as Serpro does: A=17 … E=21, weights 5..2,9..2', () => {
    // 1·5 + 2·4 + 17·3 + 18·2 + 19·9 + 3·8 + 4·7 + 5·6 + 0·5 + 1·4 + 20·3 + 21·2 = 459; 459 mod 11 = 8 → 3
    expect(dv('12ABC34501DE', CNPJ_W1)).toBe('3');
    expect(dv('12ABC34501DE3', CNPJ_W2)).toBe('5');
  });

  it.each([
    '11.222.333/0001-82',
    '11.222.333/0001-91',
    '12.ABC.345/01DE-36',
    '12.ABC.345/01DE-00',
    '12ABC34501DEA5', // a letter among the check digits
    '11.222.333/0001-8',
    '11.222.333/0001-811',
    '00.000.000/0000-00', // passes the arithmetic, never issued
    '11.111.111/1111-11',
    '12.ABC.345/01DE-3#',
    '',
  ])('%j is invalid', (doc) => {
    expect(isValidCnpj(doc)).toBe(false);
  });
});

describe('parsing the form value', () => {
  it.each([
    ['529.982.247-25', { kind: 'cpf', value: '52998224725' }],
    ['11.222.333/0001-81', { kind: 'cnpj', value: '11222333000181' }],
    ['12.abc.345/01de-35', { kind: 'cnpj', value: '12ABC34501DE35' }],
    [' 12 ABC 345 01DE 35 ', { kind: 'cnpj', value: '12ABC34501DE35' }],
  ])('%j is %j', (raw, doc) => {
    expect(parseTaxDocument(raw)).toEqual(doc);
  });

  it.each(['', '529.982.247-24', '529.982.247', '111.111.111-11', '00.000.000/0000-00', '12.ABC.345/01DE-36', '5299822472'])('%j is nothing', (raw) => {
    expect(parseTaxDocument(raw)).toBeNull();
  });

  it('finds every valid document, bare, masked or in lower case', () => {
    fc.assert(fc.property(validDoc, (doc) => {
      const kind = doc.length === 11 ? 'cpf' : 'cnpj';
      expect(parseTaxDocument(doc)).toEqual({ kind, value: doc });
      expect(parseTaxDocument(maskTaxDocument(doc))).toEqual({ kind, value: doc });
      expect(parseTaxDocument(doc.toLowerCase())).toEqual({ kind, value: doc });
    }));
  });
});

describe('a mistyped document', () => {
  const changes = (doc: string) => {
    const out: { at: number; changed: string }[] = [];
    [...doc].forEach((c, at) => {
      if (!/\d/.test(c)) return;
      for (const d of '0123456789') if (d !== c) out.push({ at, changed: doc.slice(0, at) + d + doc.slice(at + 1) });
    });
    return out;
  };
  const bodyLength = (doc: string) => doc.length - 2;

  it('is refused whenever one of its check digits is changed', () => {
    fc.assert(fc.property(validDoc, (doc) => {
      for (const { at, changed } of changes(doc)) if (at >= bodyLength(doc)) expect(isValid(changed)).toBe(false);
    }));
  });

  it('is refused with any single digit changed when its first check digit is not 0', () => {
    fc.assert(fc.property(validDoc.filter((doc) => doc[bodyLength(doc)] !== '0'), (doc) => {
      for (const { changed } of changes(doc)) expect(isValid(changed)).toBe(false);
    }));
  });

  it('slips through only where remainders 0 and 1 both give check digit 0', () => {
    // Every single-digit change moves the first sum's remainder (its weights, 2..10, and any
    // difference of two digits are prime to 11), but remainders 0 and 1 both give the digit 0:
    // a change between them keeps the first check digit, and the second one can agree too.
    expect(isValidCpf('111.518.752-01')).toBe(true);
    expect(isValidCpf('211.518.752-01')).toBe(true);
    fc.assert(fc.property(validDoc, (doc) => {
      for (const { changed } of changes(doc)) if (isValid(changed)) expect(doc[bodyLength(doc)]).toBe('0');
    }));
  });

  it('cannot tell apart letters 11 apart (A and L, B and M, …): a limit of the Receita\'s scheme', () => {
    // A is 17 and L is 28: the sums differ by 11 times a weight, the same modulo 11.
    expect(isValidCnpj('12.LBC.345/01DE-35')).toBe(true);
    expect(isValidCnpj('12.ABN.345/01DE-35')).toBe(true);
  });
});

describe('the mask as the reader types', () => {
  it.each([
    ['', ''],
    ['5', '5'],
    ['52', '52'],
    ['529', '529'],
    ['5299', '529.9'],
    ['52998', '529.98'],
    ['529982', '529.982'],
    ['5299822', '529.982.2'],
    ['52998224', '529.982.24'],
    ['529982247', '529.982.247'],
    ['5299822472', '529.982.247-2'],
    ['52998224725', '529.982.247-25'],
    ['112223330001', '11.222.333/0001'],
    ['1122233300018', '11.222.333/0001-8'],
    ['11222333000181', '11.222.333/0001-81'],
    ['112223330001819', '11.222.333/0001-81'],
  ])('digits %j show as %j', (raw, masked) => {
    expect(maskTaxDocument(raw)).toBe(masked);
  });

  it.each([
    ['1', '1'],
    ['12', '12'],
    ['12A', '12.A'],
    ['12AB', '12.AB'],
    ['12ABC', '12.ABC'],
    ['12ABC3', '12.ABC.3'],
    ['12ABC34', '12.ABC.34'],
    ['12ABC345', '12.ABC.345'],
    ['12ABC3450', '12.ABC.345/0'],
    ['12ABC34501', '12.ABC.345/01'],
    ['12ABC34501D', '12.ABC.345/01D'],
    ['12ABC34501DE', '12.ABC.345/01DE'],
    ['12ABC34501DE3', '12.ABC.345/01DE-3'],
    ['12ABC34501DE35', '12.ABC.345/01DE-35'],
  ])('the alphanumeric CNPJ %j shows as %j', (raw, masked) => {
    expect(maskTaxDocument(raw)).toBe(masked);
  });

  it('gives the same when each character is typed into the masked field', () => {
    for (const doc of ['52998224725', '11222333000181', '12abc34501de35']) {
      let field = '';
      for (let n = 1; n <= doc.length; n++) {
        field = maskTaxDocument(field + doc[n - 1]);
        expect(field).toBe(maskTaxDocument(doc.slice(0, n)));
      }
    }
  });

  it('switches to the CNPJ mask at a letter, even within a CPF\'s length', () => {
    expect(maskTaxDocument('A')).toBe('A');
    expect(maskTaxDocument('529A')).toBe('52.9A');
    expect(maskTaxDocument('5299822472A')).toBe('52.998.224/72A');
    expect(maskTaxDocument('52998224725A')).toBe('52.998.224/725A');
  });

  it('upper-cases letters and drops those past the 12th position', () => {
    expect(maskTaxDocument('12.abc.345/01de-35')).toBe(ALPHA);
    expect(maskTaxDocument('529982247250A')).toBe('52.998.224/7250');
    expect(maskTaxDocument('529982247250A1')).toBe('52.998.224/7250-1');
  });

  it('is idempotent, keeps the document, never exceeds 14 document characters and parses alike', () => {
    fc.assert(fc.property(typed, (raw) => {
      const masked = maskTaxDocument(raw);
      expect(maskTaxDocument(masked)).toBe(masked);
      expect(onlyDocChars(masked)).toBe(onlyDocChars(raw));
      expect(onlyDocChars(masked).length).toBeLessThanOrEqual(14);
      expect(masked.length).toBeLessThanOrEqual(18);
      expect(parseTaxDocument(masked)).toEqual(parseTaxDocument(raw));
    }));
  });
});
