/** A series' images: media keys by kind, from the `images` JSON column (URLs come from mediaUrl in src/lib/paths.ts). */
export type SeriesImages = Partial<Record<'cover' | 'full_cover' | 'zoom_cover' | 'thumbnail' | 'thumbnail_140' | 'thumbnail_70' | 'banner' | 'showcase' | 'preview' | 'wallpaper' | 'logo', string>>;

export function parseImages(json: string): SeriesImages {
  try {
    const v = JSON.parse(json);
    return v && typeof v === 'object' ? (v as SeriesImages) : {};
  } catch {
    return {};
  }
}
