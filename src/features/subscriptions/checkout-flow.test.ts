import { describe, expect, it } from 'vitest';
import en from '../../../i18n/en.json';
import pt from '../../../i18n/pt-BR.json';
import { afterCardAnswer, afterPixAnswer, afterStatus, COPIED_LABEL_MS, COUNTDOWN_TICK_MS, failureMessage, planUrl, REDIRECT_DELAY_MS, splitAround, STATUS_POLL_MS, SUBSCRIBE_MESSAGES } from './checkout-flow';

const UNEXPECTED = 'Erro inesperado!';
const pixOk = {
  success: true, first_payment: true, pix_copia_e_cola: '00020101021226…6304ABCD', pix_expires_at: '2026-07-31T12:30:00.000Z', check: 'chg123',
  trial_error: false, error: null, message: null, qr_svg: '<svg role="img"></svg>',
};

describe('the subscription checkout: timings (spec constants)', () => {
  it('polls every 20 s, ticks every second, keeps "Copiado!" 2 s and redirects after 1.5 s', () => {
    expect([STATUS_POLL_MS, COUNTDOWN_TICK_MS, COPIED_LABEL_MS, REDIRECT_DELAY_MS]).toEqual([20_000, 1_000, 2_000, 1_500]);
  });
});

describe('the subscription checkout: its messages', () => {
  it('names only keys both catalogues have', () => {
    for (const key of Object.values(SUBSCRIBE_MESSAGES)) {
      expect(en, key).toHaveProperty([key]);
      expect(pt, key).toHaveProperty([key]);
    }
  });
  it('says the spec\'s Portuguese words', () => {
    const ptm = pt as Record<string, string>;
    expect(ptm[SUBSCRIBE_MESSAGES.unexpected]).toBe('Erro inesperado!');
    expect(ptm[SUBSCRIBE_MESSAGES['pix.copied']]).toBe('Copiado!');
    expect(ptm[SUBSCRIBE_MESSAGES['pix.expired']]).toBe('QR Code expirado! Gere um novo pagamento.');
    expect(ptm[SUBSCRIBE_MESSAGES.trialUsed]).toBe('Detectamos que o período de teste já foi utilizado em sua conta, este recurso foi desativado. Atualize a página para escolher outro plano.');
    expect((en as Record<string, string>)[SUBSCRIBE_MESSAGES.unexpected]).toBe('Unexpected error!');
  });
});

describe('the Pix call\'s answer', () => {
  it('a first payment shows the QR, the code and the expiry', () => {
    expect(afterPixAnswer(pixOk, UNEXPECTED)).toEqual({
      step: { kind: 'pix', expired: false, charge: { check: 'chg123', code: pixOk.pix_copia_e_cola, qrSvg: pixOk.qr_svg, expiresAtMs: Date.parse(pixOk.pix_expires_at) } },
      error: null,
    });
  });
  it('a missing QR becomes null (the placeholder), an unreadable expiry NaN (shown expired)', () => {
    const r = afterPixAnswer({ ...pixOk, qr_svg: null, pix_expires_at: 'soon' }, UNEXPECTED);
    expect(r.step.kind).toBe('pix');
    if (r.step.kind !== 'pix') return;
    expect(r.step.charge.qrSvg).toBeNull();
    expect(r.step.charge.expiresAtMs).toBeNaN();
  });
  it('a trial (success without a first payment) goes straight to the confirmation with the server\'s words', () => {
    expect(afterPixAnswer({ ...pixOk, first_payment: false, pix_copia_e_cola: null, check: null, message: 'Seu teste grátis de 7 dias começou.' }, UNEXPECTED))
      .toEqual({ step: { kind: 'done', message: 'Seu teste grátis de 7 dias começou.' }, error: null });
    expect(afterPixAnswer({ success: true, first_payment: false }, UNEXPECTED)).toEqual({ step: { kind: 'done', message: null }, error: null });
  });
  it('trial_error replaces the form with the notice, whatever else the answer says', () => {
    expect(afterPixAnswer({ success: false, trial_error: true, error: 'trial', message: 'x' }, UNEXPECTED)).toEqual({ step: { kind: 'trialUsed' }, error: null });
  });
  it('a refusal keeps the form and shows the server\'s message', () => {
    expect(afterPixAnswer({ success: false, trial_error: false, error: 'subscribed', message: 'Você já tem uma assinatura ativa.' }, UNEXPECTED))
      .toEqual({ step: { kind: 'form' }, error: 'Você já tem uma assinatura ativa.' });
    expect(afterPixAnswer({ detail: 'Forbidden origin' }, UNEXPECTED)).toEqual({ step: { kind: 'form' }, error: 'Forbidden origin' });
  });
  it('names the field the server refused, so the form can mark and focus it', () => {
    expect(afterPixAnswer({ success: false, error: 'pix_doc', message: 'Informe um CPF ou CNPJ válido.' }, UNEXPECTED))
      .toEqual({ step: { kind: 'form' }, error: 'Informe um CPF ou CNPJ válido.', field: 'doc' });
    expect(afterPixAnswer({ success: false, error: 'pix_name', message: 'Informe o nome completo.' }, UNEXPECTED))
      .toEqual({ step: { kind: 'form' }, error: 'Informe o nome completo.', field: 'name' });
  });
  it('"Erro inesperado!" when the server gave no words, no JSON, or a success it cannot show', () => {
    for (const body of [null, undefined, 'oops', 42, {}, { success: false, error: 'x', message: '  ' }, { ...pixOk, check: null }, { ...pixOk, pix_copia_e_cola: '' }]) {
      expect(afterPixAnswer(body, UNEXPECTED), JSON.stringify(body)).toEqual({ step: { kind: 'form' }, error: UNEXPECTED });
    }
  });
});

describe('the status call\'s answer', () => {
  it.each([
    [{ success: true, trial_error: false, state: 'PAID' }, 'paid'],
    [{ success: false, trial_error: false, state: 'PENDING' }, 'waiting'],
    [{ success: false, trial_error: false, state: 'EXPIRED' }, 'closed'],
    [{ success: false, trial_error: false, state: 'FAILED' }, 'closed'],
    [{ success: false, trial_error: true, state: 'PENDING' }, 'trialUsed'],
    [{ detail: 'This payment does not exist.' }, 'waiting'],
    [null, 'waiting'],
  ] as const)('%j -> %s', (body, result) => {
    expect(afterStatus(body)).toBe(result);
  });
});

describe('the card call\'s answer', () => {
  it('success goes to the confirmation (a trial carries the server\'s message)', () => {
    expect(afterCardAnswer({ success: true, error: null, message: null }, UNEXPECTED)).toEqual({ step: { kind: 'done', message: null }, error: null });
    expect(afterCardAnswer({ success: true, error: null, message: 'Trial started' }, UNEXPECTED)).toEqual({ step: { kind: 'done', message: 'Trial started' }, error: null });
  });
  it('a declined card keeps the form with the server\'s message, or the fallback', () => {
    expect(afterCardAnswer({ success: false, error: 'declined', message: 'Your bank declined the payment.' }, UNEXPECTED)).toEqual({ step: { kind: 'form' }, error: 'Your bank declined the payment.' });
    expect(afterCardAnswer({ success: false, error: 'declined', message: null }, UNEXPECTED)).toEqual({ step: { kind: 'form' }, error: UNEXPECTED });
  });
  it('a used trial (error "trial") shows the notice', () => {
    expect(afterCardAnswer({ success: false, error: 'trial', message: 'We detected…' }, UNEXPECTED)).toEqual({ step: { kind: 'trialUsed' }, error: null });
  });
});

describe('failureMessage and splitAround', () => {
  it('prefers message, then detail, then the fallback', () => {
    expect(failureMessage({ message: 'a', detail: 'b' }, 'c')).toBe('a');
    expect(failureMessage({ detail: 'b' }, 'c')).toBe('b');
    expect(failureMessage({ error: 'code_only' }, 'c')).toBe('c');
  });
  it('splits a message around its placeholder so a link can stand there', () => {
    expect(splitAround((email) => `Dúvidas? Escreva para ${email}.`)).toEqual(['Dúvidas? Escreva para ', '.']);
    expect(splitAround(() => 'No placeholder')).toEqual(['No placeholder', '']);
  });
});

describe('the plans page address follows the dialog', () => {
  it('drops ?tier= when the dialog closes, keeping the rest, and puts it back when it opens again', () => {
    expect(planUrl('http://localhost:4321/plans/?tier=premium', null)).toBe('/plans/');
    expect(planUrl('http://localhost:4321/plans/?utm=x&tier=premium#faq', null)).toBe('/plans/?utm=x#faq');
    expect(planUrl('http://br.localhost:4321/planos/', 'basic')).toBe('/planos/?tier=basic');
    expect(planUrl('http://localhost:4321/plans/?tier=a&tier=b', null)).toBe('/plans/');
  });
});
