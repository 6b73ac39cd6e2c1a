import { describe, expect, it } from 'vitest';
import { HINT_ICONS, HINT_ICON_PATHS, isHintIcon, readHints } from './hints';

describe('hint icons (spec section 3)', () => {
  it('are one closed list of about 40, with the five the spec names, each but NONE drawn', () => {
    expect(HINT_ICONS).toEqual(expect.arrayContaining(['NONE', 'BELL', 'ADD', 'BOOKMARK', 'GOOGLE']));
    expect(HINT_ICONS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(HINT_ICONS).size).toBe(HINT_ICONS.length);
    for (const icon of HINT_ICONS) if (icon !== 'NONE') expect(HINT_ICON_PATHS[icon]).toMatch(/^M[\d .,a-zA-Z-]+$/);
    expect(isHintIcon('BELL')).toBe(true);
    expect(isHintIcon('bell')).toBe(false);
    expect(isHintIcon('<svg>')).toBe(false);
  });

  it('read stored hints as the spec has them: an unknown icon is NONE, a hint without text is dropped', () => {
    expect(readHints([{ text: 'New chapters every Friday', icon: 'BELL' }, { text: 'Old', icon: 'sparkle-emoji' }, { text: '  ', icon: 'ADD' }, null, 'x', { icon: 'ADD' }, { text: 'Pt', icon: 'ADD', language: 'pt-br' }]))
      .toEqual([{ text: 'New chapters every Friday', icon: 'BELL' }, { text: 'Old', icon: 'NONE' }, { text: 'Pt', icon: 'ADD', language: 'pt-br' }]);
  });
});
