/** The server door of the studio feature (staff tools; docs/staff.md). */
export { createShareLink, followShareLink } from './links.server';
