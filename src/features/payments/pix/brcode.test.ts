import { describe, expect, it } from 'vitest';
import { cleanText, crc16, formatAmount, generateBrCode, parseBrCode, type BrCodeFields } from './brcode';

/** The example in the Central Bank's "Manual de Padrões para Iniciação do Pix". */
const MANUAL = '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';
/** A dynamic code a PSP issued (Woovi's sandbox, in its documented CHARGE_COMPLETED webhook). */
const WOOVI = '00020101021226980014br.gov.bcb.pix2576api.woovi-sandbox.com/api/testaccount/qr/v1/d983a07836cf48ed9a65764d3c18427352040000530398654040.015802BR5921Lucas_Aprigio_Sandbox6009Sao_Paulo62290525d983a07836cf48ed9a65764d363046759';

const base: BrCodeFields = { account: { key: 'pix@inkpass.example' }, merchantName: 'Inkpass', merchantCity: 'Sao Paulo', amount: 1990, txid: null };
const withCrc = (body: string) => body + '6304' + crc16(body + '6304');
const tlv = (id: string, value: string) => id + String(value.length).padStart(2, '0') + value;
/** A payload body (before the CRC) with these fields changed from a minimal valid one. */
const bodyWith = (over: { amount?: string; name?: string; city?: string; txid?: string }) =>
  tlv('00', '01') + tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('01', '+5511999999999')) + tlv('52', '0000') + tlv('53', '986') +
  (over.amount === undefined ? '' : tlv('54', over.amount)) + tlv('58', 'BR') + tlv('59', over.name ?? 'X') + tlv('60', over.city ?? 'Y') + tlv('62', tlv('05', over.txid ?? '***'));

describe('the BR Code CRC', () => {
  it('is CRC16-CCITT-FALSE: "123456789" gives 29B1', () => {
    expect(crc16('123456789')).toBe('29B1');
    expect(crc16('')).toBe('FFFF');
  });

  it('refuses a payload with any one character changed, wherever it is', () => {
    for (let i = 0; i < MANUAL.length; i++) {
      const c = MANUAL[i]!;
      // A hex digit stays a hex digit in the CRC itself, so the CRC (not the shape) refuses it.
      const other = /[0-9A-F]/.test(c) ? (c === '0' ? '1' : '0') : c === 'x' ? 'y' : 'x';
      const changed = MANUAL.slice(0, i) + other + MANUAL.slice(i + 1);
      // The "6304" tag itself is where the CRC is looked for: changed, there is no CRC to check.
      const tag = i >= MANUAL.length - 8 && i < MANUAL.length - 4;
      expect(parseBrCode(changed), `character ${i}`).toMatchObject({ ok: false, reason: tag ? 'structure' : 'crc' });
    }
  });
});

describe('parsing and generating a BR Code', () => {
  it("reads the manual's example and writes it back byte for byte", () => {
    const parsed = parseBrCode(MANUAL);
    expect(parsed).toEqual({
      ok: true,
      fields: {
        account: { key: '123e4567-e12b-12d1-a456-426655440000' },
        merchantName: 'Fulano de Tal',
        merchantCity: 'BRASILIA',
        amount: null,
        txid: null,
        pointOfInitiation: null,
        merchantCategoryCode: '0000',
      },
    });
    if (!parsed.ok) throw new Error(parsed.message);
    expect(generateBrCode(parsed.fields)).toBe(MANUAL);
  });

  it('reads a dynamic code a PSP issued (URL, one-time, amount, txid) and writes it back byte for byte', () => {
    const parsed = parseBrCode(WOOVI);
    expect(parsed).toMatchObject({
      ok: true,
      fields: { account: { url: 'api.woovi-sandbox.com/api/testaccount/qr/v1/d983a07836cf48ed9a65764d3c184273' }, amount: 1, txid: 'd983a07836cf48ed9a65764d3', pointOfInitiation: 'one-time', merchantName: 'Lucas_Aprigio_Sandbox', merchantCity: 'Sao_Paulo' },
    });
    if (!parsed.ok) throw new Error(parsed.message);
    expect(generateBrCode(parsed.fields)).toBe(WOOVI);
  });

  it('writes the fields in order, amount and txid included, and reads them back', () => {
    const code = generateBrCode({ ...base, txid: 'ORDER123', pointOfInitiation: 'one-time' });
    expect(code).toBe(withCrc('000201' + '010212' + '2641' + '0014br.gov.bcb.pix' + '0119pix@inkpass.example' + '52040000' + '5303986' + '540519.90' + '5802BR' + '5907Inkpass' + '6009Sao Paulo' + '6212' + '0508ORDER123'));
    expect(parseBrCode(code)).toEqual({ ok: true, fields: { ...base, txid: 'ORDER123', pointOfInitiation: 'one-time', merchantCategoryCode: '0000' } });
    const dynamic = generateBrCode({ ...base, account: { url: 'pix.example.com/qr/v2/9d36b84f' }, amount: null });
    expect(parseBrCode(dynamic)).toMatchObject({ ok: true, fields: { account: { url: 'pix.example.com/qr/v2/9d36b84f' }, amount: null } });
    const described = generateBrCode({ ...base, account: { key: '+5511999999999', description: 'Pacote de chaves' } });
    expect(parseBrCode(described)).toMatchObject({ ok: true, fields: { account: { key: '+5511999999999', description: 'Pacote de chaves' } } });
  });

  it('formats amounts from integer cents and reads them back', () => {
    expect(formatAmount(1)).toBe('0.01');
    expect(formatAmount(12345)).toBe('123.45');
    expect(formatAmount(100)).toBe('1.00');
    expect(formatAmount(999_999_999_999)).toBe('9999999999.99');
    for (const bad of [0, -1, 1.5, 1_000_000_000_000, Number.NaN]) expect(() => formatAmount(bad), String(bad)).toThrow(RangeError);
    const amountIn = (amount: string) => parseBrCode(withCrc(bodyWith({ amount })));
    expect(amountIn('0.01')).toMatchObject({ ok: true, fields: { amount: 1 } });
    expect(amountIn('10')).toMatchObject({ ok: true, fields: { amount: 1000 } });
    expect(amountIn('10.5')).toMatchObject({ ok: true, fields: { amount: 1050 } });
    for (const bad of ['1,00', '0.00', '1.234', '-1.00', '.50']) expect(amountIn(bad), bad).toMatchObject({ ok: false, reason: 'field' });
  });

  it('cleans and cuts the merchant name (25) and city (15): accents stripped, printable ASCII only', () => {
    expect(cleanText('São José dos Campos Ltda e Filhos', 25)).toBe('Sao Jose dos Campos Ltda');
    expect(cleanText('São José dos Campos', 15)).toBe('Sao Jose dos Ca');
    expect(cleanText('Açaí & Cia — Niterói', 25)).toBe('Acai & Cia  Niteroi');
    expect(cleanText('  Inkpass\tQuadrinhos 漫画 ', 25)).toBe('InkpassQuadrinhos');
    const code = generateBrCode({ ...base, merchantName: 'São José dos Campos Ltda e Filhos', merchantCity: 'São José dos Campos' });
    expect(code).toContain('5924Sao Jose dos Campos Ltda6015Sao Jose dos Ca');
    expect(parseBrCode(code)).toMatchObject({ ok: true, fields: { merchantName: 'Sao Jose dos Campos Ltda', merchantCity: 'Sao Jose dos Ca' } });
    expect(() => generateBrCode({ ...base, merchantName: '漫画' })).toThrow(/name is empty/);
    expect(() => generateBrCode({ ...base, merchantCity: ' ' })).toThrow(/city is empty/);
  });

  it('keeps the txid to 1..25 letters and digits ("***" when there is none)', () => {
    expect(generateBrCode({ ...base, txid: 'A'.repeat(25) })).toContain(`62290525${'A'.repeat(25)}6304`);
    for (const bad of ['A'.repeat(26), 'order-123', 'pedido 1', '***', '', 'pedidoº1']) expect(() => generateBrCode({ ...base, txid: bad }), bad).toThrow(/txid/);
    const txidIn = (txid: string) => parseBrCode(withCrc(bodyWith({ txid })));
    expect(txidIn('abc123XYZ')).toMatchObject({ ok: true, fields: { txid: 'abc123XYZ' } });
    expect(txidIn('***')).toMatchObject({ ok: true, fields: { txid: null } });
    expect(txidIn('A'.repeat(26))).toMatchObject({ ok: false, reason: 'field' });
    expect(txidIn('ab-c')).toMatchObject({ ok: false, reason: 'field' });
  });

  it('keeps every field within its length and the account to a key or a URL without scheme', () => {
    expect(() => generateBrCode({ ...base, account: { key: 'k'.repeat(78) } })).toThrow(/field 26/);
    expect(generateBrCode({ ...base, account: { key: 'k'.repeat(77) } })).toContain('2699');
    expect(() => generateBrCode({ ...base, account: { key: 'k'.repeat(60), description: 'd'.repeat(20) } })).toThrow(/field 26/);
    expect(() => generateBrCode({ ...base, account: { url: 'https://pix.example.com/qr/1' } })).toThrow(/scheme/);
    expect(() => generateBrCode({ ...base, account: { key: 'chave com ç' } })).toThrow(/Pix key/);
    expect(() => generateBrCode({ ...base, merchantCategoryCode: '12' })).toThrow(/category/);

    const body = (name: string, city: string) => bodyWith({ name, city });
    expect(parseBrCode(withCrc(body('N'.repeat(25), 'C'.repeat(15))))).toMatchObject({ ok: true });
    expect(parseBrCode(withCrc(body('N'.repeat(26), 'C')))).toMatchObject({ ok: false, reason: 'field', message: expect.stringMatching(/59/) });
    expect(parseBrCode(withCrc(body('N', 'C'.repeat(16))))).toMatchObject({ ok: false, reason: 'field', message: expect.stringMatching(/60/) });
  });

  it('refuses what is not a well-formed BR Code, with the reason', () => {
    expect(parseBrCode('')).toMatchObject({ ok: false, reason: 'structure' });
    expect(parseBrCode(MANUAL.slice(0, -8))).toMatchObject({ ok: false, reason: 'structure' });
    expect(parseBrCode(MANUAL + ' ')).toMatchObject({ ok: false, reason: 'structure' });
    expect(parseBrCode('x'.repeat(600))).toMatchObject({ ok: false, reason: 'structure' });
    expect(parseBrCode(MANUAL.replace('Tal', 'Tál'))).toMatchObject({ ok: false, reason: 'structure' });
    // A length that runs past the end, a field twice, a stray CRC field: right CRC, broken TLV.
    expect(parseBrCode(withCrc('0002015999X'))).toMatchObject({ ok: false, reason: 'structure' });
    expect(parseBrCode(withCrc('0002010002015802BR'))).toMatchObject({ ok: false, reason: 'structure' });
    expect(parseBrCode(withCrc('0002016304ABCD'))).toMatchObject({ ok: false, reason: 'structure' });
    // Right CRC and TLV, wrong fields.
    const fields = (body: string) => parseBrCode(withCrc(body));
    expect(fields(MANUAL.slice(0, -8).replace('5303986', '5303840'))).toMatchObject({ ok: false, reason: 'field', message: expect.stringMatching(/53/) });
    expect(fields(MANUAL.slice(0, -8).replace('br.gov.bcb.pix', 'br.gov.bcb.xyz'))).toMatchObject({ ok: false, reason: 'field', message: expect.stringMatching(/GUI/) });
    expect(fields(MANUAL.slice(0, -8).replace('5802BR', '5802US'))).toMatchObject({ ok: false, reason: 'field' });
    expect(fields(MANUAL.slice(0, -8).replace('62070503***', ''))).toMatchObject({ ok: false, reason: 'field', message: expect.stringMatching(/62/) });
    expect(fields(MANUAL.slice(0, -8).replace('000201', '000202'))).toMatchObject({ ok: false, reason: 'field', message: expect.stringMatching(/00/) });
    expect(fields(MANUAL.slice(0, -8).replace('000201', '000201010213'))).toMatchObject({ ok: false, reason: 'field', message: expect.stringMatching(/01/) });
  });
});
