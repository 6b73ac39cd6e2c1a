import { type Kysely, sql } from 'kysely';

// Frozen once landed. Issue 30: the spec's promotional visuals (section 3: visual type IMAGE,
// ANIMATED_IMAGE, ANIMATION or VIDEO, a fit, coloring, label and button), at most one per series,
// and the per-series chapter preview (how many first pages of a locked chapter anyone may see).
// `media_key` is the visual itself (a still or animated image, or a video); `poster_key` the still
// a video shows before it plays (required for ANIMATION and VIDEO by the catalogue's rule, not
// here: a check cannot name the other column portably). Label and button texts are the English
// site's, with `_pt` twins for the Portuguese site (as tags' name_pt); null shows the default.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createTable('series_promotions')
    .addColumn('series_id', 'integer', (c) => c.primaryKey().references('series.id').onDelete('cascade'))
    .addColumn('visual_type', 'text', (c) => c.notNull().check(sql`visual_type in ('IMAGE', 'ANIMATED_IMAGE', 'ANIMATION', 'VIDEO')`))
    .addColumn('fit', 'text', (c) => c.notNull().defaultTo('COVER').check(sql`fit in ('COVER', 'CONTAIN', 'FILL', 'FIT_WIDTH', 'FIT_HEIGHT', 'NONE', 'SCALE_DOWN')`))
    .addColumn('media_key', 'text', (c) => c.notNull())
    .addColumn('poster_key', 'text')
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('background_color', 'text', (c) => c.notNull())
    .addColumn('text_color', 'text', (c) => c.notNull())
    .addColumn('label', 'text')
    .addColumn('label_pt', 'text')
    .addColumn('button', 'text')
    .addColumn('button_pt', 'text')
    .addColumn('modified_at', 'bigint', (c) => c.notNull())
    .execute();
  // 0: no preview. Capped by the catalogue's rule (PREVIEW_PAGES_MAX), checked here too.
  await db.schema.alterTable('series').addColumn('preview_pages', 'integer', (c) => c.notNull().defaultTo(0).check(sql`preview_pages between 0 and 10`)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('series').dropColumn('preview_pages').execute();
  await db.schema.dropTable('series_promotions').ifExists().execute();
}
