/**
 * The dependency rules of docs/architecture.md, checked over the whole repository (.astro files
 * included) by scripts/boundaries.ts, and shown to catch each kind of wrong import, each unused
 * door export and a feature table that says something else than the code.
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkFiles, exportedNames, featureTable, repositoryFiles, tableProblems, takenNames, withFeatureTable } from '../scripts/boundaries';

const check = (files: Record<string, string>, kept: Record<string, string> = {}) => checkFiles(new Map(Object.entries(files)), undefined, kept);

describe('the repository', () => {
  const findings = checkFiles(repositoryFiles());

  it('has no wrong-way import and no cycle between features', () => {
    expect(findings.violations.map((v) => `${v.file}: ${v.imports}: ${v.rule}`)).toEqual([]);
    expect(findings.cycles).toEqual([]);
  });

  it('exports from its doors only what something outside the feature uses', () => {
    expect(findings.unusedExports).toEqual([]);
    expect(findings.staleKept).toEqual([]);
  });

  it('lists every feature and what it uses in docs/architecture.md (npm run boundaries -- --write-docs)', () => {
    expect(tableProblems(fs.readFileSync(new URL('../docs/architecture.md', import.meta.url), 'utf8'), findings.features)).toEqual([]);
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

describe('what a door exports', () => {
  const files = new Map(Object.entries({
    'src/features/a/index.ts': "export { x, y as z, type T } from './x';\nexport type { U } from './u';\nexport * from './all';\nexport * as ns from './ns';\nexport const k = 1, { l, m: [n] } = o;\nexport function f() {}\nexport class C {}\nexport interface I {}\nexport type V = 1;\nexport enum E { A }\nexport default 3;",
    'src/features/a/all.ts': "export function fromAll() {}\nexport { deeper } from './deeper';\nexport * from './index';\nexport default 1;",
  }));
  const resolve = (from: string, spec: string) => {
    const file = `src/features/a/${spec.slice(2)}.ts`;
    return files.has(file) ? { file, source: files.get(file)! } : null;
  };

  it('names re-exports under their new names, declarations, and follows export * (without its default)', () => {
    expect([...exportedNames('src/features/a/index.ts', files.get('src/features/a/index.ts')!, resolve)].sort()).toEqual(
      ['C', 'E', 'I', 'T', 'U', 'V', 'deeper', 'default', 'f', 'fromAll', 'k', 'l', 'n', 'ns', 'x', 'z'],
    );
  });
});

describe('what an importer takes', () => {
  const taken = (file: string, source: string) => Object.fromEntries([...takenNames(file, source)].map(([spec, t]) => [spec, t === '*' ? '*' : [...t].sort()]));

  it('reads named, renamed, type and default imports, and named re-exports under their old names', () => {
    expect(taken('src/pages/a.ts', "import D, { a, b as c, type T } from 'm';\nimport type { U } from 'm';\nexport { e as f } from 'n';\nexport * from 'o';")).toEqual({
      m: ['T', 'U', 'a', 'b', 'default'],
      n: ['e'],
      o: '*',
    });
  });

  it('reads what a namespace import uses, and takes everything when the namespace itself is passed on', () => {
    expect(taken('src/pages/a.ts', "import * as m from 'm';\nm.a();\nconst v: m.T = m.b;\nconst o = { m: 1 };")).toEqual({ m: ['T', 'a', 'b'] });
    expect(taken('src/pages/a.ts', "import * as m from 'm';\nuse(m);")).toEqual({ m: '*' });
  });

  it('reads dynamic imports: destructured, property of the awaited module, bound then read, .then callbacks, type imports', () => {
    const source = [
      "const { a, b: c } = await import('m1');",
      "const x = (await import('m2')).d;",
      "async function g() { const mod = await import('m3'); return mod.e + mod.f; }",
      "import('m4').then((lib) => lib.g());",
      "import('m5').then(({ h }) => h());",
      "let t: import('m6').T;",
      "let u: Promise<import('m6').U.V>;",
      "const whole = await import('m7'); use(whole);",
      "await import('m8');",
      "const later = import('m9'); import('m10').catch(() => null);",
    ].join('\n');
    expect(taken('tests/x.test.ts', source)).toEqual({ m1: ['a', 'b'], m2: ['d'], m3: ['e', 'f'], m4: ['g'], m5: ['h'], m6: ['T', 'U'], m7: '*', m8: [], m9: '*', m10: '*' });
  });

  it("reads an .astro file's frontmatter, its template's use of a namespace, and its scripts", () => {
    const source = "---\nimport { A } from 'm1';\nimport * as ui from 'm2';\n---\n<ui.Card /><A />\n<script>\n  import { s } from 'm3';\n  s();\n</script>";
    expect(taken('src/pages/p.astro', source)).toEqual({ m1: ['A'], m2: ['Card'], m3: ['s'] });
  });
});

describe('unused door exports', () => {
  const feature = (name: string, files: Record<string, string>) =>
    Object.fromEntries(Object.entries(files).map(([f, s]) => [`src/features/${name}/${f}`, s]));
  const catalog = feature('catalog', {
    'index.ts': "export { a, b, c, d } from './rules';",
    'index.server.ts': "export { load, type Row, unused } from './x.server';",
    'ui.ts': "export { default as Card } from './Card.astro';",
    'rules.ts': '',
    'x.server.ts': "import { b } from './index';",
  });

  it('reports what nothing outside the feature takes from a door, by feature/door: name', () => {
    const { unusedExports } = check({
      ...catalog,
      'src/pages/p.astro': "---\nimport { load } from '~/features/catalog/index.server';\nimport { Card } from '~/features/catalog/ui';\n---\n<script>import { a } from '~/features/catalog';</script>",
      'tests/t.test.ts': "const { c } = await import('~/features/catalog');\nlet r: import('~/features/catalog/index.server').Row;",
    });
    // b is used only inside the feature: that does not count.
    expect(unusedExports).toEqual(['catalog/index.server: unused', 'catalog/index: b', 'catalog/index: d']);
  });

  it('counts another feature, a tool, a bench and db/ as users, and takes every name on export *', () => {
    const { unusedExports } = check({
      ...catalog,
      ...feature('reader', { 'reader.server.ts': "import { unused } from '../catalog/index.server';" }),
      'scripts/tool.ts': "import { load, type Row } from '~/features/catalog/index.server';",
      'bench/b.ts': "import { Card } from '~/features/catalog/ui';\nimport { a } from '~/features/catalog';",
      'db/seed/s.ts': "export * from '~/features/catalog';",
    });
    expect(unusedExports).toEqual([]);
  });

  it('keeps a listed name, and reports a listed name that is used or gone', () => {
    const kept = { 'catalog/index: d': 'a reason', 'catalog/index: a': 'stale: used', 'catalog/index: zz': 'stale: gone' };
    const { unusedExports, staleKept } = check({ ...catalog, 'src/pages/p.ts': "import { a, b, c } from '~/features/catalog';\nimport { load, unused, type Row } from '~/features/catalog/index.server';\nimport { Card } from '~/features/catalog/ui';" }, kept);
    expect(unusedExports).toEqual([]);
    expect(staleKept).toEqual(['catalog/index: a', 'catalog/index: zz']);
  });
});

describe('the feature table', () => {
  const { features } = check({
    'src/features/catalog/index.ts': '',
    'src/features/accounts/index.server.ts': '',
    'src/features/library/index.server.ts': "import { a } from '~/features/catalog';\nimport { b } from '~/features/accounts/index.server';",
    'src/features/reader/index.ts': "import { c } from '~/features/library/index.server';",
    'src/features/reader/ui.ts': '',
  });
  const table = featureTable(features);
  const doc = (t: string) => `# Architecture\n\nprose\n\n<!-- features:start -->\n${t}\n<!-- features:end -->\n\nmore prose\n`;

  it('lists each feature after the features it uses, with its doors', () => {
    expect(table).toBe([
      '| feature | uses | doors |',
      '| --- | --- | --- |',
      '| accounts | — | index.server.ts |',
      '| catalog | — | index.ts |',
      '| library | accounts, catalog | index.server.ts |',
      '| reader | library | index.ts, ui.ts |',
    ].join('\n'));
    expect(tableProblems(doc(table), features)).toEqual([]);
  });

  it('finds a missing feature, a wrong dependency, an unknown feature and missing markers; writing puts the real table back', () => {
    const wrong = table.replace('| reader | library |', '| reader | catalog, library |').replace('| accounts | — | index.server.ts |\n', '') + '\n| shop | — | index.ts |';
    expect(tableProblems(doc(wrong), features)).toEqual([
      'the table lists shop, which is not a feature',
      'the table omits accounts',
      'reader uses library; the table says catalog, library',
    ]);
    expect(tableProblems('no table', features)).toEqual(['no feature table between <!-- features:start --> and <!-- features:end -->']);
    expect(withFeatureTable(doc(wrong), features)).toBe(doc(table));
  });
});
