/** The studio's components, for its pages. */
export { default as SeriesForm } from './SeriesForm.astro';
