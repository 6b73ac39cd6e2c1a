import { describe, expect, it } from 'vitest';
import { backTo, missingData, networkFailure, noticeOf, outcomeOf, parseNotice, slotsText, SUBSCRIBE_RELOAD_MS, type SubscribeMessages } from './subscribe-button';
import { createT, type MessageKey } from '~/lib/i18n';

const message = (locale: 'en' | 'pt-BR', key: MessageKey, values?: Record<string, string | number>) => createT(locale)(key, values);

/** The button's messages as the page writes them, from the catalogue (`{n}` left as a placeholder). */
function messagesFor(locale: 'en' | 'pt-BR'): SubscribeMessages {
  return {
    pending: message(locale, 'subscribe.button.pending'),
    done: message(locale, 'subscribe.button.done'),
    slotsNone: message(locale, 'subscribe.slots.none'),
    slotsOne: message(locale, 'subscribe.slots.one', { n: '{n}' }),
    slotsOther: message(locale, 'subscribe.slots.other', { n: '{n}' }),
    failed: message(locale, 'subscribe.button.failed'),
    retry: message(locale, 'subscribe.button.retry'),
    missing: message(locale, 'subscribe.error.missing'),
  };
}
const pt = messagesFor('pt-BR');
const en = messagesFor('en');

describe('the subscribe button', () => {
  it('says the spec\'s words on the Portuguese site, and their English equivalents', () => {
    expect([pt.pending, pt.done, pt.failed, pt.retry, pt.missing]).toEqual([
      'Assinando...', 'Série Assinada', 'Erro ao assinar série', 'Erro ao assinar a série. Por favor, tente novamente.', 'Erro: Dados de assinatura não encontrados',
    ]);
    expect([en.pending, en.done]).toEqual(['Subscribing...', 'Series subscribed']);
    expect(SUBSCRIBE_RELOAD_MS).toBe(1500);
  });

  it('counts the slots left in each language, with 0 said in words', () => {
    expect(slotsText(2, pt, 'pt-BR')).toBe('2 vagas restantes');
    expect(slotsText(1, pt, 'pt-BR')).toBe('1 vaga restante');
    expect(slotsText(0, pt, 'pt-BR')).toBe('Nenhuma vaga restante');
    expect(slotsText(7, en, 'en')).toBe('7 slots left');
    expect(slotsText(1, en, 'en')).toBe('1 slot left');
    expect(slotsText(-3, en, 'en')).toBe('No slots left');
  });

  it('a success shows "Series subscribed" with the slots left', () => {
    expect(outcomeOf(200, { success: true, error: null, slots_left: 2 }, pt, 'pt-BR')).toEqual({ kind: 'subscribed', text: 'Série Assinada', slots: '2 vagas restantes' });
    expect(outcomeOf(200, { success: true, error: null, slots_left: 0 }, en, 'en')).toEqual({ kind: 'subscribed', text: 'Series subscribed', slots: 'No slots left' });
  });

  it('a refusal shows the server\'s error; no plan (402) comes with the plans link', () => {
    const noPlan = message('pt-BR', 'subscribe.error.noPlan');
    expect(outcomeOf(402, { success: false, error: noPlan, slots_left: 0 }, pt, 'pt-BR')).toEqual({ kind: 'failed', text: noPlan, plans: true });
    const noSlots = message('en', 'subscribe.error.noSlots', { slots: 3 });
    expect(outcomeOf(409, { success: false, error: noSlots, slots_left: 0 }, en, 'en')).toEqual({ kind: 'failed', text: noSlots, plans: false });
    // A 200 that is not a success is a failure too.
    expect(outcomeOf(200, { success: false, error: 'Nope' }, en, 'en')).toEqual({ kind: 'failed', text: 'Nope', plans: false });
  });

  it('an answer without an error says "Erro ao assinar série"; no answer or not JSON asks to try again', () => {
    expect(outcomeOf(500, { success: false }, pt, 'pt-BR')).toEqual({ kind: 'failed', text: 'Erro ao assinar série', plans: false });
    expect(outcomeOf(409, { success: false, error: '  ' }, pt, 'pt-BR')).toEqual({ kind: 'failed', text: 'Erro ao assinar série', plans: false });
    expect(outcomeOf(502, undefined, pt, 'pt-BR')).toEqual({ kind: 'failed', text: 'Erro ao assinar a série. Por favor, tente novamente.', plans: false });
    expect(outcomeOf(200, [1, 2], en, 'en')).toEqual({ kind: 'failed', text: en.retry, plans: false });
    expect(networkFailure(pt)).toEqual({ kind: 'failed', text: 'Erro ao assinar a série. Por favor, tente novamente.', plans: false });
  });

  it('a button without a series id says the data is missing', () => {
    expect(missingData(pt)).toEqual({ kind: 'failed', text: 'Erro: Dados de assinatura não encontrados', plans: false });
    expect(missingData(en).text).toBe('Error: subscription data not found');
  });
});

describe('the subscribe form without JavaScript', () => {
  it('goes back to the page, at the button, saying why nothing was added', () => {
    expect(noticeOf(200)).toBeNull();
    expect([402, 409, 404, 422, 415].map(noticeOf)).toEqual(['noPlan', 'noSlots', 'unavailable', 'missing', 'missing']);
    expect(backTo('/comics/s/', null)).toBe('/comics/s/#subscribe');
    expect(backTo('/comics/s/?order=asc&subscribe=noPlan', 'noSlots')).toBe('/comics/s/?order=asc&subscribe=noSlots#subscribe');
    expect(backTo('/comics/s/?subscribe=noPlan', null)).toBe('/comics/s/#subscribe');
  });
  it('reads only the notices it knows', () => {
    expect(parseNotice('noPlan')).toBe('noPlan');
    expect(parseNotice('<b>')).toBeNull();
    expect(parseNotice(null)).toBeNull();
  });
});
