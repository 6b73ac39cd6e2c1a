import { describe, expect, it } from 'vitest';
import { excerpt, EXCERPT_MAX } from './series.server';
import { parseBody } from './rules';

describe('excerpt (the series page\'s latest comments)', () => {
  it('keeps a short comment whole and cuts a long one with an ellipsis', () => {
    expect(excerpt('short')).toBe('short');
    const cut = excerpt('a'.repeat(EXCERPT_MAX + 50));
    expect(cut).toBe(`${'a'.repeat(EXCERPT_MAX)}…`);
  });

  it('never reveals a spoiler the cut left open', () => {
    const body = `${'x'.repeat(EXCERPT_MAX - 10)} ||the killer is the butler, as everyone guessed||`;
    const cut = excerpt(body);
    expect(cut).not.toContain('killer');
    expect(parseBody(cut).some((s) => s.spoiler)).toBe(false);
    // A spoiler closed inside the cut stays hidden as a spoiler.
    const closed = excerpt(`||secret|| ${'y'.repeat(EXCERPT_MAX)}`);
    expect(parseBody(closed).filter((s) => s.spoiler).map((s) => s.text).join('')).toBe('secret');
  });
});
