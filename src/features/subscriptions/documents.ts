/**
 * The Brazilian taxpayer document of the Pix subscription form (`pix_doc`): a CPF (a person,
 * 11 digits) or a CNPJ (a company, 14 characters), kept, masked and checked the same way in the
 * browser (as the reader types) and on the server (when the form arrives). Pure and
 * browser-safe.
 *
 * The CNPJ may be alphanumeric: from July 2026 the Receita Federal issues new CNPJs whose first
 * 12 characters (root 8 + order 4) are digits or upper-case letters A-Z, followed by 2 numeric
 * check digits (Instrução Normativa RFB nº 2.229/2024; Nota Técnica conjunta COCAD/SUARA/RFB
 * nº 49/2024; Serpro's "Cálculo dos dígitos verificadores de CNPJ alfanumérico", whose example
 * is 12.ABC.345/01DE-35). The check digits are still modulo 11 with weights 2..9 cycling from
 * the right, over each character's ASCII code minus 48: digits keep their value (0-9) and
 * letters become 17 (A) to 42 (Z), so every numeric CNPJ keeps its check digits.
 */

export type TaxDocumentKind = 'cpf' | 'cnpj';

export interface TaxDocument {
  kind: TaxDocumentKind;
  /** Bare: 11 digits, or 12 digits/upper-case letters and 2 digits; no separators. */
  value: string;
}

const CPF_LENGTH = 11;
const CNPJ_LENGTH = 14;
/** Letters may stand only in a CNPJ's root and order; its check digits are always digits. */
const CNPJ_BODY_LENGTH = 12;

const isDigit = (c: string) => c >= '0' && c <= '9';
const isUpper = (c: string) => c >= 'A' && c <= 'Z';

/**
 * What the field keeps of what is typed or pasted: digits and, in the first 12 positions,
 * letters (upper-cased), at most 14 characters. Separators, spaces and anything else go, so a
 * pasted "529.982.247-25" and a typed "52998224725" are the same document. Only ASCII a-z is
 * upper-cased: `toUpperCase` would turn "ß" into "SS" and "ﬁ" into "FI".
 */
export function onlyDocChars(raw: string): string {
  let kept = '';
  for (const ch of raw) {
    if (kept.length === CNPJ_LENGTH) break;
    const c = ch >= 'a' && ch <= 'z' ? ch.toUpperCase() : ch;
    if (isDigit(c) || (isUpper(c) && kept.length < CNPJ_BODY_LENGTH)) kept += c;
  }
  return kept;
}

/** A document as written: bare or masked, letters in either case. Anything else stays in and fails. */
function bare(doc: string): string {
  return doc.replace(/[.\-/\s]/g, '').replace(/[a-z]/g, (c) => c.toUpperCase());
}

/**
 * Modulo 11 check digit over `chars`, weights from the right 2, 3, … `maxWeight`, then 2 again
 * (CNPJ: 9; CPF: 11, which its 9 or 10 characters never pass): remainders 0 and 1 both give 0.
 */
function checkDigit(chars: string, maxWeight: number): number {
  let sum = 0;
  let weight = 2;
  for (let i = chars.length - 1; i >= 0; i--) {
    sum += (chars.charCodeAt(i) - 48) * weight;
    weight = weight === maxWeight ? 2 : weight + 1;
  }
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** Both check digits: the second one counts the first. */
function checkDigits(body: string, maxWeight: number): string {
  const first = checkDigit(body, maxWeight);
  return `${first}${checkDigit(body + first, maxWeight)}`;
}

/**
 * Some sequences of one repeated character pass the arithmetic (00.000.000/0000-00, and every
 * CPF from 000.000.000-00 to 999.999.999-99) but are never issued: they are what a reader types
 * to get past a form.
 */
const repeated = (s: string) => /^(.)\1*$/.test(s);

/** A CPF with valid check digits, bare or masked (`529.982.247-25`). */
export function isValidCpf(doc: string): boolean {
  const s = bare(doc);
  if (!/^\d{11}$/.test(s) || repeated(s)) return false;
  return checkDigits(s.slice(0, 9), 11) === s.slice(9);
}

/** A CNPJ with valid check digits, numeric or alphanumeric, bare or masked, letters in either case. */
export function isValidCnpj(doc: string): boolean {
  const s = bare(doc);
  if (!/^[0-9A-Z]{12}\d{2}$/.test(s) || repeated(s)) return false;
  return checkDigits(s.slice(0, CNPJ_BODY_LENGTH), 9) === s.slice(CNPJ_BODY_LENGTH);
}

/**
 * The document the form holds, or null when it is neither a valid CPF nor a valid CNPJ. It
 * reads the value the way the field keeps it (`onlyDocChars`), so the server, given what a
 * reader without JavaScript typed, sees the same document the mask would have shown.
 */
export function parseTaxDocument(raw: string): TaxDocument | null {
  const value = onlyDocChars(raw);
  if (value.length === CPF_LENGTH && isValidCpf(value)) return { kind: 'cpf', value };
  if (value.length === CNPJ_LENGTH && isValidCnpj(value)) return { kind: 'cnpj', value };
  return null;
}

/** Separators placed before the character at each index; none after the last typed character. */
const CPF_MASK: ReadonlyArray<[number, string]> = [[3, '.'], [6, '.'], [9, '-']];
const CNPJ_MASK: ReadonlyArray<[number, string]> = [[2, '.'], [5, '.'], [8, '/'], [12, '-']];

/**
 * The field's value as the reader types: up to 11 digits take the CPF mask `000.000.000-00`;
 * a 12th character or any letter switches to the CNPJ mask `AA.AAA.AAA/AAAA-00`. Partial
 * while typing (a separator appears with the character after it, so backspace never sticks on
 * one) and idempotent (the mask's separators are not document characters).
 */
export function maskTaxDocument(raw: string): string {
  const kept = onlyDocChars(raw);
  const mask = kept.length <= CPF_LENGTH && /^\d*$/.test(kept) ? CPF_MASK : CNPJ_MASK;
  let out = '';
  let from = 0;
  for (const [at, separator] of mask) {
    if (kept.length <= at) break;
    out += kept.slice(from, at) + separator;
    from = at;
  }
  return out + kept.slice(from);
}
