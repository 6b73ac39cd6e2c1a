/**
 * The dependency rules of docs/architecture.md, checked over the whole repository (.astro files
 * included) by scripts/boundaries.ts, and shown to catch each kind of wrong import.
 */
import { describe, expect, it } from 'vitest';
import { checkFiles, repositoryFiles } from '../scripts/boundaries';

const check = (files: Record<string, string>) => checkFiles(new Map(Object.entries(files)));

describe('the repository', () => {
  it('has no wrong-way import and no cycle between features', () => {
    const { violations, cycles } = checkFiles(repositoryFiles());
    expect(violations.map((v) => `${v.file}: ${v.imports}: ${v.rule}`)).toEqual([]);
    expect(cycles).toEqual([]);
  });
});

describe('the boundary check', () => {
  const feature = (name: string, files: Record<string, string>) =>
    Object.fromEntries(Object.entries(files).map(([f, s]) => [`src/features/${name}/${f}`, s]));

  it('refuses lib and server importing a feature', () => {
    const { violations } = check({
      'src/lib/x.ts': "import { a } from '~/features/catalog';",
      'src/server/y.ts': "import { b } from '../features/catalog/index.server';",
      ...feature('catalog', { 'index.ts': '', 'index.server.ts': '' }),
    });
    expect(violations.map((v) => v.file)).toEqual(['src/lib/x.ts', 'src/server/y.ts']);
  });

  it('refuses reaching past a door, in .ts and in .astro frontmatter and scripts', () => {
    const { violations } = check({
      ...feature('catalog', { 'index.ts': '', 'rules.ts': '', 'repository.server.ts': '' }),
      ...feature('reader', { 'reader.server.ts': "import { finalPrice } from '~/features/catalog/rules';\nimport { q } from '../catalog/repository.server';" }),
      'src/pages/a.astro': "---\nimport { x } from '~/features/catalog/rules';\n---\n<p/>",
      'src/pages/b.astro': "---\n---\n<script>\n  import { y } from '~/features/catalog/rules';\n</script>",
      'src/pages/ok.astro': "---\nimport { z } from '~/features/catalog';\n---",
    });
    expect(violations.map((v) => `${v.file} ${v.imports}`)).toEqual([
      'src/features/reader/reader.server.ts ~/features/catalog/rules',
      'src/features/reader/reader.server.ts ../catalog/repository.server',
      'src/pages/a.astro ~/features/catalog/rules',
      'src/pages/b.astro ~/features/catalog/rules',
    ]);
    expect(violations.some((v) => /repository is private/.test(v.rule))).toBe(true);
  });

  it('refuses browser code importing server code', () => {
    const { violations } = check({
      ...feature('library', { 'favorites.client.ts': "import { x } from './favorites.server';", 'favorites.server.ts': '', 'index.ts': "import { y } from '~/server/db';" }),
      'src/lib/z.ts': "import { config } from '~/server/config.mjs';",
    });
    expect(violations.map((v) => v.file).sort()).toEqual(['src/features/library/favorites.client.ts', 'src/features/library/index.ts', 'src/lib/z.ts']);
  });

  it("refuses an .astro <script> importing server code, which its frontmatter may", () => {
    const { violations } = check({
      ...feature('catalog', { 'index.ts': '', 'index.server.ts': '', 'series.server.ts': '' }),
      'src/pages/a.astro': "---\nimport { load } from '~/features/catalog/index.server';\n---\n<script>\n  import { initSeries } from '~/features/catalog';\n</script>",
      'src/pages/b.astro': "---\n---\n<p/>\n<script>\n  import { load } from '~/features/catalog/index.server';\n</script>",
      'src/components/C.astro': "---\nconst html = '<script>import { x } from \"~/server/db\";</script>';\n---\n<script>import { db } from '~/server/db';</script>",
      ...feature('library', { 'Star.astro': "---\n---\n<script>\n  import { f } from './favorites.server';\n</script>", 'favorites.server.ts': '' }),
    });
    expect(violations.map((v) => `${v.file} ${v.imports}`)).toEqual([
      'src/pages/b.astro ~/features/catalog/index.server',
      'src/components/C.astro ~/server/db',
      'src/features/library/Star.astro ./favorites.server',
    ]);
    expect(violations.every((v) => /<script> runs in the browser/.test(v.rule))).toBe(true);
  });

  it('finds a cycle between features, even through doors', () => {
    const { cycles } = check({
      ...feature('a', { 'index.ts': "import { b } from '~/features/b';" }),
      ...feature('b', { 'index.ts': "import { c } from '~/features/c';" }),
      ...feature('c', { 'index.server.ts': "import { a } from '~/features/a';" }),
    });
    expect(cycles).toEqual([['a', 'b', 'c', 'a']]);
  });

  it('lets features use their own files, lib, server, db and other doors', () => {
    const { violations, cycles } = check({
      ...feature('catalog', { 'index.ts': "import { r } from './rules';", 'rules.ts': "import { p } from '~/lib/paths';", 'x.server.ts': "import { db } from '~/server/db';\nimport type { S } from '@db/schema';" }),
      ...feature('reader', { 'reader.server.ts': "import { c } from '~/features/catalog';\nimport { d } from '~/features/catalog/index.server';" }),
    });
    expect(violations).toEqual([]);
    expect(cycles).toEqual([]);
  });
});
