/**
 * The Pix BR Code ("copia e cola"): the EMV Merchant-Presented QR payload the Central Bank's
 * "Manual de Padrões para Iniciação do Pix" specifies, generated and parsed (docs/payments.md).
 * Pure and browser-safe: no Node API, no floating point on money.
 *
 * A payload is a run of TLV fields, each `ID` (2 digits) `length` (2 digits) `value`, in this
 * order: 00 payload format "01", 01 point of initiation ("11" reusable, "12" one payment),
 * 26 merchant account (00 GUI `br.gov.bcb.pix`, then 01 a Pix key [+ 02 a description] or
 * 25 a payload URL), 52 merchant category, 53 currency "986" (BRL), 54 amount, 58 "BR",
 * 59 merchant name, 60 merchant city, 62 additional data (05 txid, "***" when none), and last
 * 63 the CRC16 of everything before its value, "6304" included.
 */

export type BrCodeAccount =
  /** A static code: the payer's bank resolves the key (e-mail, phone, CPF/CNPJ, random key). */
  | { key: string; description?: string }
  /** A dynamic code: the payer's bank fetches the charge from this URL (no scheme). */
  | { url: string };

export interface BrCodeFields {
  account: BrCodeAccount;
  /** Shown to the payer; cleaned to printable ASCII and cut to 25 characters. */
  merchantName: string;
  /** Cleaned to printable ASCII and cut to 15 characters. */
  merchantCity: string;
  /** BRL cents (a positive safe integer); null lets the payer type the amount. */
  amount: number | null;
  /** Up to 25 letters and digits; null writes "***" (none). */
  txid: string | null;
  /** Field 01: 'one-time' ("12") for a code that may be paid once; null omits the field. */
  pointOfInitiation?: 'reusable' | 'one-time' | null;
  /** Field 52; "0000" (not informed) unless given. */
  merchantCategoryCode?: string;
}

export type BrCodeParse =
  | { ok: true; fields: Required<BrCodeFields> }
  /** crc: the checksum does not match (a mistyped or altered code); structure: not a TLV
   * payload ending in a CRC; field: a field is missing or has a value the manual forbids. */
  | { ok: false; reason: 'crc' | 'structure' | 'field'; message: string };

export const PIX_GUI = 'br.gov.bcb.pix';
export const NAME_MAX = 25;
export const CITY_MAX = 15;
export const TXID_MAX = 25;
/** Field 54 holds at most 13 characters: "9999999999.99". */
export const AMOUNT_MAX_CENTS = 999_999_999_999;
/** An EMV payload is at most 512 characters; anything longer is refused before parsing. */
const PAYLOAD_MAX = 512;
/** A TLV value's length is two digits. */
const VALUE_MAX = 99;
const NO_TXID = '***';
const TXID = /^[A-Za-z0-9]{1,25}$/;
const PRINTABLE = /^[\x20-\x7e]*$/;
const INITIATION = { reusable: '11', 'one-time': '12' } as const;

/**
 * CRC16-CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR) of the
 * text's UTF-8 bytes, as 4 upper-case hex digits. "123456789" gives 29B1.
 */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Cents as the manual's amount ("0.01", "123.45"), with integer arithmetic only. */
export function formatAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents <= 0 || cents > AMOUNT_MAX_CENTS) throw new RangeError(`BR Code amount must be 1..${AMOUNT_MAX_CENTS} cents, got ${cents}`);
  const units = Math.floor(cents / 100);
  return `${units}.${String(cents - units * 100).padStart(2, '0')}`;
}

/**
 * A name or city as the field takes it: accents dropped (NFD, combining marks removed), any
 * other character outside printable ASCII removed, cut to `max` characters, outer spaces
 * trimmed. Bank apps show these fields as they are, and some refuse codes with other bytes.
 */
export function cleanText(text: string, max: number): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, max)
    .trimEnd();
}

/** The payload for these fields, its CRC included. Throws a RangeError on a field the manual forbids. */
export function generateBrCode(fields: BrCodeFields): string {
  const name = cleanText(fields.merchantName, NAME_MAX);
  const city = cleanText(fields.merchantCity, CITY_MAX);
  if (!name) throw new RangeError('BR Code merchant name is empty once cleaned');
  if (!city) throw new RangeError('BR Code merchant city is empty once cleaned');
  if (fields.txid !== null && !TXID.test(fields.txid)) throw new RangeError(`BR Code txid must be 1..${TXID_MAX} letters and digits (null for none), got "${fields.txid}"`);
  const mcc = fields.merchantCategoryCode ?? '0000';
  if (!/^\d{4}$/.test(mcc)) throw new RangeError(`BR Code merchant category code must be 4 digits, got "${mcc}"`);

  const account = fields.account;
  let accountInfo = tlv('00', PIX_GUI);
  if ('key' in account) {
    checkAscii('Pix key', account.key);
    accountInfo += tlv('01', account.key);
    if (account.description !== undefined && account.description !== '') {
      checkAscii('description', account.description);
      accountInfo += tlv('02', account.description);
    }
  } else {
    checkAscii('URL', account.url);
    // The manual: the URL goes without "https://"; the payer's bank adds it.
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(account.url)) throw new RangeError(`BR Code URL must not carry a scheme, got "${account.url}"`);
    accountInfo += tlv('25', account.url);
  }

  const initiation = fields.pointOfInitiation ? INITIATION[fields.pointOfInitiation] : null;
  const body =
    tlv('00', '01') +
    (initiation ? tlv('01', initiation) : '') +
    tlv('26', accountInfo) +
    tlv('52', mcc) +
    tlv('53', '986') +
    (fields.amount === null ? '' : tlv('54', formatAmount(fields.amount))) +
    tlv('58', 'BR') +
    tlv('59', name) +
    tlv('60', city) +
    tlv('62', tlv('05', fields.txid ?? NO_TXID)) +
    '6304';
  if (body.length + 4 > PAYLOAD_MAX) throw new RangeError(`BR Code payload would be ${body.length + 4} characters (max ${PAYLOAD_MAX})`);
  return body + crc16(body);
}

/** Reads a payload: checks its CRC, its TLV structure and every field this module writes. */
export function parseBrCode(payload: string): BrCodeParse {
  const structure = (message: string) => ({ ok: false, reason: 'structure', message }) as const;
  const field = (message: string) => ({ ok: false, reason: 'field', message }) as const;

  if (payload.length > PAYLOAD_MAX) return structure(`longer than ${PAYLOAD_MAX} characters`);
  if (!PRINTABLE.test(payload)) return structure('characters outside printable ASCII');
  const crcAt = payload.length - 8;
  if (crcAt < 0 || payload.slice(crcAt, crcAt + 4) !== '6304' || !/^[0-9A-Fa-f]{4}$/.test(payload.slice(-4))) return structure('does not end with a CRC field (6304 and 4 hex digits)');
  // Checked first: any one mistyped character, wherever it is, shows up here.
  if (crc16(payload.slice(0, -4)) !== payload.slice(-4).toUpperCase()) return { ok: false, reason: 'crc', message: 'the CRC does not match the payload' };

  const top = readTlv(payload.slice(0, crcAt));
  if (typeof top === 'string') return structure(top);
  if (top.has('63')) return structure('field 63 (CRC) appears before the end');
  if (payload.slice(0, 6) !== '000201') return field('field 00 (payload format) must come first and be "01"');

  const initiation = top.get('01');
  if (initiation !== undefined && initiation !== '11' && initiation !== '12') return field(`field 01 (point of initiation) must be "11" or "12", got "${initiation}"`);

  const accountInfo = top.get('26');
  if (accountInfo === undefined) return field('field 26 (merchant account) is missing');
  const sub = readTlv(accountInfo);
  if (typeof sub === 'string') return field(`field 26: ${sub}`);
  if (sub.get('00')?.toLowerCase() !== PIX_GUI) return field(`field 26 must start with the GUI ${PIX_GUI}`);
  const key = sub.get('01');
  const url = sub.get('25');
  if ((key === undefined) === (url === undefined)) return field('field 26 must hold either a Pix key (01) or a URL (25)');
  if (key === '' || url === '') return field('field 26 has an empty Pix key or URL');
  const description = sub.get('02');
  const account: BrCodeAccount = key !== undefined ? (description !== undefined ? { key, description } : { key }) : { url: url! };

  const mcc = top.get('52');
  if (mcc === undefined || !/^\d{4}$/.test(mcc)) return field('field 52 (merchant category) must be 4 digits');
  if (top.get('53') !== '986') return field('field 53 (currency) must be "986" (BRL)');
  let amount: number | null = null;
  const amountText = top.get('54');
  if (amountText !== undefined) {
    const m = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(amountText);
    if (!m || amountText.length > 13) return field(`field 54 (amount) is not an amount: "${amountText}"`);
    amount = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
    if (amount === 0) return field('field 54 (amount) is zero');
  }
  if (top.get('58') !== 'BR') return field('field 58 (country) must be "BR"');
  const name = top.get('59');
  if (!name || name.length > NAME_MAX) return field(`field 59 (merchant name) must be 1..${NAME_MAX} characters`);
  const city = top.get('60');
  if (!city || city.length > CITY_MAX) return field(`field 60 (merchant city) must be 1..${CITY_MAX} characters`);

  const additional = top.get('62');
  if (additional === undefined) return field('field 62 (additional data) is missing');
  const extra = readTlv(additional);
  if (typeof extra === 'string') return field(`field 62: ${extra}`);
  const txid = extra.get('05');
  if (txid === undefined) return field('field 62 has no txid (05)');
  if (txid !== NO_TXID && !TXID.test(txid)) return field(`field 62-05 (txid) must be "***" or 1..${TXID_MAX} letters and digits, got "${txid}"`);

  return {
    ok: true,
    fields: {
      account,
      merchantName: name,
      merchantCity: city,
      amount,
      txid: txid === NO_TXID ? null : txid,
      pointOfInitiation: initiation === '12' ? 'one-time' : initiation === '11' ? 'reusable' : null,
      merchantCategoryCode: mcc,
    },
  };
}

function tlv(id: string, value: string): string {
  if (value.length > VALUE_MAX) throw new RangeError(`BR Code field ${id} would be ${value.length} characters (max ${VALUE_MAX})`);
  return id + String(value.length).padStart(2, '0') + value;
}

function checkAscii(what: string, value: string): void {
  if (!value || !PRINTABLE.test(value)) throw new RangeError(`BR Code ${what} must be non-empty printable ASCII, got "${value}"`);
}

/** The fields of a TLV run by ID, or what is wrong with it (a cut field, a repeated ID). */
function readTlv(text: string): Map<string, string> | string {
  const fields = new Map<string, string>();
  let at = 0;
  while (at < text.length) {
    const id = text.slice(at, at + 2);
    const len = text.slice(at + 2, at + 4);
    if (!/^\d{2}$/.test(id) || !/^\d{2}$/.test(len)) return `no field header at character ${at}`;
    const end = at + 4 + Number(len);
    if (end > text.length) return `field ${id} runs past the end`;
    if (fields.has(id)) return `field ${id} appears twice`;
    fields.set(id, text.slice(at + 4, end));
    at = end;
  }
  return fields;
}
