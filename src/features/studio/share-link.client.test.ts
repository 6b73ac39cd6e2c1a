import { describe, expect, it } from 'vitest';
import { shareOutcome } from './share-link.client';

describe('what the share button reports (spec section 8)', () => {
  it('a made link is copied; a refusal with a reason shows "Link generation failed: {data}"; anything else the status', () => {
    expect(shareOutcome(200, { success: true, data: 'http://x/l/abc' })).toEqual({ kind: 'link', link: 'http://x/l/abc' });
    expect(shareOutcome(422, { success: false, data: 'Links can only lead to this site.' })).toEqual({ kind: 'failed', data: 'Links can only lead to this site.' });
    expect(shareOutcome(403, { success: false, data: 'No permission' })).toEqual({ kind: 'failed', data: 'No permission' });
    // The limiter's and the guard's refusals, a proxy's error page: no reason in the spec's shape.
    expect(shareOutcome(429, { detail: 'Too many', success: false })).toEqual({ kind: 'requestFailed', status: 429 });
    expect(shareOutcome(502, null)).toEqual({ kind: 'requestFailed', status: 502 });
    expect(shareOutcome(200, { success: true, data: 42 })).toEqual({ kind: 'requestFailed', status: 200 });
  });
});
