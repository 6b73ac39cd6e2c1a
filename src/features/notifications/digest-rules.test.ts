import { describe, expect, it } from 'vitest';
import { digestChoice } from './digest-rules';

describe('the digest settings form', () => {
  it('takes the frequency the reader chose, whatever the box says', () => {
    expect(digestChoice({ digest: 'weekly', box: false, was: 'off' })).toBe('weekly');
    expect(digestChoice({ digest: 'off', box: true, was: 'daily' })).toBe('off');
    expect(digestChoice({ digest: 'daily', box: true, was: 'weekly' })).toBe('daily');
  });
  it('with the frequency untouched, the box turns the digest on daily or off', () => {
    expect(digestChoice({ digest: 'off', box: true, was: 'off' })).toBe('daily');
    expect(digestChoice({ digest: 'weekly', box: false, was: 'weekly' })).toBe('off');
    expect(digestChoice({ digest: 'weekly', box: true, was: 'weekly' })).toBe('weekly');
    expect(digestChoice({ digest: 'off', box: false, was: 'off' })).toBe('off');
  });
  it('an unknown or missing frequency counts as untouched', () => {
    expect(digestChoice({ digest: 'hourly', box: true, was: 'weekly' })).toBe('weekly');
    expect(digestChoice({ digest: null, box: true, was: 'off' })).toBe('daily');
  });
});
