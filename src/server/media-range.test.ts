import { describe, expect, it } from 'vitest';
import { byteRange, videoType } from './media';

describe('promotional video serving', () => {
  it('knows WebM and MP4, and nothing else, as videos', () => {
    expect(videoType('series/a/promo.webm')).toBe('video/webm');
    expect(videoType('series/a/promo.MP4')).toBe('video/mp4');
    expect(videoType('series/a/promo.webp')).toBeNull();
  });

  it('reads one simple byte range', () => {
    expect(byteRange('bytes=0-', 100)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=10-19', 100)).toEqual({ start: 10, end: 19 });
    expect(byteRange('bytes=90-500', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
  });

  it('answers the whole file for no or several ranges, and refuses one outside the file', () => {
    expect(byteRange(null, 100)).toBeNull();
    expect(byteRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(byteRange('items=0-1', 100)).toBeNull();
    expect(byteRange('bytes=100-', 100)).toBeUndefined();
    expect(byteRange('bytes=20-10', 100)).toBeUndefined();
    expect(byteRange('bytes=-0', 100)).toBeUndefined();
  });
});
