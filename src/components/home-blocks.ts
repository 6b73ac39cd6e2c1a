/**
 * The home page's blocks that arrive after the first document (docs/decisions.md, "Home blocks
 * load as the reader nears them"), in page order. The first document carries the header, the
 * slideshow and the reader's own shelves; each of these is a link in its place until
 * /fragments/home/{block}/ (src/pages/fragments/home/[block].astro) replaces it.
 */
export const HOME_DEFERRED_BLOCKS = ['latest', 'schedule', 'simulpub', 'newest', 'showcase', 'recommended', 'featured', 'popular', 'collection', 'genres'] as const;
export type HomeDeferredBlock = (typeof HOME_DEFERRED_BLOCKS)[number];

export function isHomeDeferredBlock(name: string | undefined): name is HomeDeferredBlock {
  return (HOME_DEFERRED_BLOCKS as readonly string[]).includes(name ?? '');
}

/** The fragment's URL. */
export function homeFragmentPath(block: HomeDeferredBlock): string {
  return `/fragments/home/${block}/`;
}
