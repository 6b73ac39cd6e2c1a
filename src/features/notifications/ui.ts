/** The notifications feature's components, for pages (docs/architecture.md "doors"). */
export { default as Bell } from './Bell.astro';
export { default as NotifyButton } from './NotifyButton.astro';
export { default as PushSettings } from './PushSettings.astro';
