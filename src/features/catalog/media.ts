/** URLs for media keys. Public images (covers, banners, thumbnails) are served by /media/; chapter pages only through signed URLs. */
export const PUBLIC_MEDIA_PREFIXES = ['series/', 'pool/thumbs/'] as const;

export function isPublicMediaKey(key: string): boolean {
  return /^[a-z0-9][a-z0-9/_.-]*$/.test(key) && !key.includes('..') && PUBLIC_MEDIA_PREFIXES.some((p) => key.startsWith(p));
}

export type SeriesImages = Partial<Record<'cover' | 'full_cover' | 'zoom_cover' | 'thumbnail' | 'thumbnail_140' | 'thumbnail_70' | 'banner' | 'showcase' | 'preview' | 'wallpaper' | 'logo', string>>;

export function parseImages(json: string): SeriesImages {
  try {
    const v = JSON.parse(json);
    return v && typeof v === 'object' ? (v as SeriesImages) : {};
  } catch {
    return {};
  }
}

export function parseJsonArray<T = unknown>(json: string | null | undefined): T[] {
  if (!json) return [];
  try {
    const v = JSON.parse(json);
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

/** A JSON object column (availability strategy, free availability); `{}` for anything else. */
export function parseJsonObject(json: string | null | undefined): Record<string, unknown> {
  if (!json) return {};
  try {
    const v = JSON.parse(json);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Makes a site path absolute on the current host (null stays null). */
export type AbsoluteUrl = (path: string | null) => string | null;

/** The AbsoluteUrl for a request's own origin (Astro.url is validated against allowedDomains). */
export function absoluteUrl(url: URL): AbsoluteUrl {
  const origin = url.origin;
  return (path) => (path ? origin + path : null);
}
