/** The comments feature's components for pages. */
export { default as Comment } from './Comment.astro';
export { default as SeriesComments } from './SeriesComments.astro';
