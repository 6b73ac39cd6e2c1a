import { describe, expect, it } from 'vitest';
import { INITIAL_COMBO, comboReducer, enterEffect, escapeEffect, keyAction, type ComboAction, type ComboState } from './combobox';

const run = (actions: ComboAction[], from: ComboState = INITIAL_COMBO) => actions.reduce(comboReducer, from);
const results = (count: number): ComboAction => ({ type: 'results', count });

describe('comboReducer', () => {
  it('expands with nothing highlighted when results arrive, and collapses on none', () => {
    expect(run([results(3)])).toEqual({ count: 3, active: -1, expanded: true });
    expect(run([results(3), { type: 'next' }, results(0)])).toEqual({ count: 0, active: -1, expanded: false });
  });
  it('moves down from none to the first option and wraps from the last to the first', () => {
    expect(run([results(3), { type: 'next' }]).active).toBe(0);
    expect(run([results(3), { type: 'next' }, { type: 'next' }, { type: 'next' }]).active).toBe(2);
    expect(run([results(3), { type: 'next' }, { type: 'next' }, { type: 'next' }, { type: 'next' }]).active).toBe(0);
  });
  it('moves up from none to the last option and wraps from the first to the last', () => {
    expect(run([results(3), { type: 'prev' }]).active).toBe(2);
    expect(run([results(3), { type: 'next' }, { type: 'prev' }]).active).toBe(2);
    expect(run([results(3), { type: 'prev' }, { type: 'prev' }]).active).toBe(1);
  });
  it('ignores arrows while there is no list', () => {
    expect(run([{ type: 'next' }])).toEqual(INITIAL_COMBO);
    expect(run([results(2), { type: 'collapse' }, { type: 'prev' }])).toEqual({ count: 0, active: -1, expanded: false });
  });
  it('new results drop the old highlight', () => {
    expect(run([results(5), { type: 'prev' }, results(2)]).active).toBe(-1);
  });
  it('hover highlights an existing option only', () => {
    expect(run([results(3), { type: 'hover', index: 1 }]).active).toBe(1);
    expect(run([results(3), { type: 'hover', index: 3 }]).active).toBe(-1);
    expect(run([results(3), { type: 'hover', index: -1 }]).active).toBe(-1);
  });
  it('treats a bad count as no results', () => {
    expect(run([results(Number.NaN)])).toEqual(INITIAL_COMBO);
    expect(run([results(-4)])).toEqual(INITIAL_COMBO);
  });
});

describe('keyAction', () => {
  it('maps the arrow keys and nothing else', () => {
    expect(keyAction('ArrowDown')).toEqual({ type: 'next' });
    expect(keyAction('ArrowUp')).toEqual({ type: 'prev' });
    for (const k of ['Enter', 'Escape', 'Home', 'End', 'a', 'Tab', 'ArrowLeft']) expect(keyAction(k)).toBeNull();
  });
});

describe('escapeEffect', () => {
  it('collapses a shown list first, then closes', () => {
    const shown = run([results(2)]);
    expect(escapeEffect(shown)).toBe('collapse');
    expect(escapeEffect(comboReducer(shown, { type: 'collapse' }))).toBe('close');
    expect(escapeEffect(INITIAL_COMBO)).toBe('close');
  });
});

describe('enterEffect', () => {
  it('opens the highlighted option, else submits', () => {
    expect(enterEffect(run([results(3), { type: 'next' }, { type: 'next' }]))).toEqual({ open: 1 });
    expect(enterEffect(run([results(3)]))).toBe('submit');
    expect(enterEffect(INITIAL_COMBO)).toBe('submit');
    expect(enterEffect({ count: 2, active: 5, expanded: true })).toBe('submit');
  });
});
