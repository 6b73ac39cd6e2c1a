/** The Astro components of the support desk, for pages. */
export { default as GrantForm } from './GrantForm.astro';
