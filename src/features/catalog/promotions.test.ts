import { describe, expect, it } from 'vitest';
import { PREVIEW_PAGES_MAX, VISUAL_FITS, fitStyle, isMotion, parsePreviewPages, previewPageCount, promotionProblem } from './promotions';

const good = { visual_type: 'VIDEO', fit: 'COVER', media_key: 'series/a/promo.webm', poster_key: 'series/a/poster.webp', width: 640, height: 360, background_color: '#000000', text_color: '#ffffff' };

describe('promotional visuals', () => {
  it('plays ANIMATION and VIDEO in a video, IMAGE and ANIMATED_IMAGE in an image', () => {
    expect(isMotion('ANIMATION')).toBe(true);
    expect(isMotion('VIDEO')).toBe(true);
    expect(isMotion('IMAGE')).toBe(false);
    expect(isMotion('ANIMATED_IMAGE')).toBe(false);
  });

  it('draws every fit of the spec, the platform ones as object-fit', () => {
    expect(VISUAL_FITS.map((f) => fitStyle(f))).toEqual([
      'object-fit:cover', 'object-fit:contain', 'object-fit:fill', 'object-fit:cover;object-position:50% 0', 'object-fit:cover;object-position:0 50%', 'object-fit:none', 'object-fit:scale-down',
    ]);
  });

  it('accepts a well-formed visual of each type', () => {
    expect(promotionProblem(good)).toBeNull();
    expect(promotionProblem({ ...good, visual_type: 'ANIMATION', media_key: 'series/a/x.mp4' })).toBeNull();
    expect(promotionProblem({ ...good, visual_type: 'ANIMATED_IMAGE', media_key: 'series/a/x.gif', poster_key: null })).toBeNull();
    expect(promotionProblem({ ...good, visual_type: 'IMAGE', media_key: 'series/a/x.webp', poster_key: null, fit: 'FIT_WIDTH' })).toBeNull();
  });

  it('refuses a video without a poster, a file of the wrong kind, an unknown type or fit, a bad size or colour', () => {
    expect(promotionProblem({ ...good, poster_key: null })).toBe('poster_key');
    expect(promotionProblem({ ...good, poster_key: 'series/a/poster.webm' })).toBe('poster_key');
    expect(promotionProblem({ ...good, media_key: 'series/a/promo.gif' })).toBe('media_key');
    expect(promotionProblem({ ...good, visual_type: 'ANIMATED_IMAGE', media_key: 'series/a/x.webm' })).toBe('media_key');
    expect(promotionProblem({ ...good, visual_type: 'IMAGE', media_key: 'series/a/x.gif', poster_key: null })).toBe('media_key');
    expect(promotionProblem({ ...good, visual_type: 'GIF' })).toBe('visual_type');
    expect(promotionProblem({ ...good, fit: 'STRETCH' })).toBe('fit');
    expect(promotionProblem({ ...good, width: 0 })).toBe('size');
    expect(promotionProblem({ ...good, height: 1.5 })).toBe('size');
    expect(promotionProblem({ ...good, background_color: 'red' })).toBe('coloring');
    expect(promotionProblem({ ...good, text_color: '#fff' })).toBe('coloring');
  });
});

describe('chapter preview pages', () => {
  it('shows the setting, but never more than half the chapter nor the maximum', () => {
    expect(previewPageCount(3, 20)).toBe(3);
    expect(previewPageCount(3, 6)).toBe(3);
    expect(previewPageCount(3, 5)).toBe(2);
    expect(previewPageCount(3, 1)).toBe(0);
    expect(previewPageCount(50, 200)).toBe(PREVIEW_PAGES_MAX);
  });

  it('shows nothing for a series without a preview or a bad setting', () => {
    expect(previewPageCount(0, 20)).toBe(0);
    expect(previewPageCount(-2, 20)).toBe(0);
    expect(previewPageCount(1.5, 20)).toBe(0);
    expect(previewPageCount(3, 0)).toBe(0);
  });

  it('reads the studio field: a whole number from 0 to the maximum, empty as 0', () => {
    expect(parsePreviewPages('3')).toBe(3);
    expect(parsePreviewPages(' 0 ')).toBe(0);
    expect(parsePreviewPages('')).toBe(0);
    expect(parsePreviewPages(null)).toBe(0);
    expect(parsePreviewPages(String(PREVIEW_PAGES_MAX))).toBe(PREVIEW_PAGES_MAX);
    expect(parsePreviewPages(String(PREVIEW_PAGES_MAX + 1))).toBeNull();
    expect(parsePreviewPages('-1')).toBeNull();
    expect(parsePreviewPages('2.5')).toBeNull();
    expect(parsePreviewPages('three')).toBeNull();
  });
});
