/**
 * The chapter manifest, in the spirit of Readium's DiViNa profile of the WebPub manifest
 * (https://readium.org/webpub-manifest/profiles/divina): metadata, links and a readingOrder of
 * page images with their sizes. Pure: the caller decides access and signs the page URLs.
 * A chapter the reader may not read gets no readingOrder at all (and the endpoint answers 403/404).
 */
import type { Format } from '~/features/catalog';
import { defaultMode, progressionFor, type Progression } from './modes';

export const WEBPUB_CONTEXT = 'https://readium.org/webpub-manifest/context.jsonld';
export const DIVINA_PROFILE = 'https://readium.org/webpub-manifest/profiles/divina';
export const MANIFEST_TYPE = 'application/divina+json';

export interface ManifestLink {
  rel?: string;
  href: string;
  type: string;
  title?: string;
}

export interface ManifestPage {
  href: string;
  type: 'image/webp';
  width: number;
  height: number;
}

export interface Manifest {
  '@context': string;
  metadata: {
    '@type': 'http://schema.org/ComicIssue';
    conformsTo: string;
    identifier: string;
    title: string;
    subtitle?: string;
    language: string;
    readingProgression: Progression;
    presentation: { overflow: 'scrolled' | 'paginated'; continuous: boolean; fit: 'width' | 'contain'; spread: 'none' };
    numberOfPages?: number;
    number: number;
    belongsTo: { series: { name: string; identifier: string; position: number; href: string }[] };
    format: Format;
  };
  links: ManifestLink[];
  readingOrder?: ManifestPage[];
}

export interface AdjacentChapter {
  /** Manifest URL of that chapter. */
  href: string;
  title: string;
}

export interface ManifestInput {
  /** This manifest's own URL. */
  selfHref: string;
  /** The HTML reader page of this chapter. */
  readerHref: string;
  identifier: string;
  /** Display name of the chapter ("Chapter 12.5"). */
  title: string;
  subtitle?: string | null;
  language: string;
  number: number;
  format: Format;
  series: { name: string; identifier: string; href: string };
  prev?: AdjacentChapter | null;
  next?: AdjacentChapter | null;
  /** Signed page URLs with sizes; null (or omitted) when the chapter may not be read. */
  pages?: readonly { href: string; width: number; height: number }[] | null;
}

/** Builds the manifest for one chapter. Without `pages` there is no readingOrder. */
export function buildManifest(input: ManifestInput): Manifest {
  const readingProgression = progressionFor(defaultMode(input.format));
  const scrolled = readingProgression === 'ttb';
  const links: ManifestLink[] = [
    { rel: 'self', href: input.selfHref, type: MANIFEST_TYPE },
    { rel: 'alternate', href: input.readerHref, type: 'text/html' },
  ];
  if (input.prev) links.push({ rel: 'prev', href: input.prev.href, type: MANIFEST_TYPE, title: input.prev.title });
  if (input.next) links.push({ rel: 'next', href: input.next.href, type: MANIFEST_TYPE, title: input.next.title });

  const manifest: Manifest = {
    '@context': WEBPUB_CONTEXT,
    metadata: {
      '@type': 'http://schema.org/ComicIssue',
      conformsTo: DIVINA_PROFILE,
      identifier: input.identifier,
      title: input.title,
      ...(input.subtitle ? { subtitle: input.subtitle } : {}),
      language: input.language,
      readingProgression,
      presentation: scrolled
        ? { overflow: 'scrolled', continuous: true, fit: 'width', spread: 'none' }
        : { overflow: 'paginated', continuous: false, fit: 'contain', spread: 'none' },
      number: input.number,
      belongsTo: { series: [{ name: input.series.name, identifier: input.series.identifier, position: input.number, href: input.series.href }] },
      format: input.format,
    },
    links,
  };
  if (input.pages) {
    manifest.metadata.numberOfPages = input.pages.length;
    manifest.readingOrder = input.pages.map((p) => ({ href: p.href, type: 'image/webp', width: p.width, height: p.height }));
  }
  return manifest;
}
