/**
 * The studio's sections and the capability each needs (docs/staff.md). The home page lists the
 * ones the signed-in member of staff holds; each section's page checks its capability itself.
 */
import type { Capability } from '~/server/staff';
import type { MessageKey } from '~/lib/i18n';
import { STUDIO_AUDIT_PATH, STUDIO_MODERATION_PATH, STUDIO_NEW_CHAPTER_PATH, STUDIO_PAYMENTS_PATH, STUDIO_PRICES_PATH, STUDIO_READERS_PATH, STUDIO_SERIES_PATH, STUDIO_SHOP_PATH, STUDIO_STAFF_PATH } from '~/lib/paths';

export interface StudioSection {
  path: string;
  /** The capabilities that open it (any one of them: the support desk reads with support or money). */
  capability: Capability | readonly Capability[];
  title: MessageKey;
  description: MessageKey;
}

const SECTIONS: readonly StudioSection[] = [
  { path: STUDIO_SERIES_PATH, capability: 'content', title: 'studio.section.series', description: 'studio.section.seriesText' },
  { path: STUDIO_PRICES_PATH, capability: 'pricing', title: 'studio.section.prices', description: 'studio.section.pricesText' },
  { path: STUDIO_SHOP_PATH, capability: 'pricing', title: 'studio.section.shop', description: 'studio.section.shopText' },
  { path: STUDIO_NEW_CHAPTER_PATH, capability: 'content', title: 'studio.section.chapters', description: 'studio.section.chaptersText' },
  { path: STUDIO_READERS_PATH, capability: ['support', 'money'], title: 'studio.section.readers', description: 'studio.section.readersText' },
  { path: STUDIO_PAYMENTS_PATH, capability: ['support', 'money'], title: 'studio.section.payments', description: 'studio.section.paymentsText' },
  { path: STUDIO_MODERATION_PATH, capability: 'moderation', title: 'studio.section.moderation', description: 'studio.section.moderationText' },
  { path: STUDIO_AUDIT_PATH, capability: 'admin', title: 'studio.section.audit', description: 'studio.section.auditText' },
  { path: STUDIO_STAFF_PATH, capability: 'admin', title: 'studio.section.staff', description: 'studio.section.staffText' },
];

export function studioSections(capabilities: readonly Capability[]): StudioSection[] {
  return SECTIONS.filter((s) => (typeof s.capability === 'string' ? [s.capability] : s.capability).some((c) => capabilities.includes(c)));
}
