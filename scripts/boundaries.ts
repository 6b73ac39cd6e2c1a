/**
 * The house's dependency rules, checked over every source file (src/, db/, scripts/, bench/,
 * tests/), .astro files included: run by src/architecture.test.ts in `npm test`, or alone with
 * `npm run boundaries`. docs/architecture.md explains the rules. Besides wrong-way imports and
 * cycles, it fails on a door export that nothing outside its feature uses, and on a feature table
 * in docs/architecture.md that differs from the code (`npm run boundaries -- --write-docs`
 * rewrites the table).
 *
 * Why not dependency-cruiser: it is the usual tool and supports Node 22 and 24, but it cannot
 * read .astro files (its issue #1007 is still open), and half of our imports live in .astro
 * frontmatter and scripts. Biome's restricted imports and eslint-plugin-boundaries are weighed
 * in docs/architecture.md. TypeScript's own `preProcessFile` finds every import, export-from and
 * dynamic import of a file (type-only ones included, comments ignored); the rules are below as
 * data. An .astro `<script>` is browser code whatever folder its file is in. For door exports,
 * the doors and the files that import another feature's door are parsed in full
 * (`ts.createSourceFile`) to see which names each import takes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export type Layer = 'top' | 'feature' | 'lib' | 'server' | 'db' | 'external';

export interface Violation {
  file: string;
  imports: string;
  rule: string;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = /\.(ts|tsx|mts|mjs|astro)$/;
const DOORS = new Set(['index', 'index.server', 'ui', 'sandbox.server']);

/** One import of a file: its specifier, and whether it sits in an .astro `<script>` (browser code whatever the file). */
export interface ImportRef {
  spec: string;
  inScript: boolean;
}

const specifiers = (code: string): string[] => ts.preProcessFile(code, true, true).importedFiles.map((f) => f.fileName);

/** A piece of a file that holds code: the whole file, or an .astro file's frontmatter (server) and each `<script>` (browser). */
export interface CodeBlock {
  code: string;
  inScript: boolean;
}

/** The code of a file (for .astro, its frontmatter, which runs on the server, and its scripts, which run in the browser). */
export function codeBlocks(file: string, source: string): CodeBlock[] {
  if (!file.endsWith('.astro')) return [{ code: source, inScript: false }];
  const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(source);
  // Scripts are looked for in the template only, so a string in the frontmatter is never taken for one.
  const template = fm ? source.slice(fm[0].length) : source;
  const scripts = [...template.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  return [...(fm ? [{ code: fm[1]!, inScript: false }] : []), ...scripts.map((code) => ({ code, inScript: true }))];
}

/** The imports of a file's source (for .astro, of its frontmatter and of its scripts). */
export function importsOf(file: string, source: string): ImportRef[] {
  return codeBlocks(file, source).flatMap(({ code, inScript }) => specifiers(code).map((spec) => ({ spec, inScript })));
}

/** Where a specifier points, as a path relative to the repository (null for packages). */
export function resolveSpecifier(from: string, spec: string): string | null {
  let target: string;
  if (spec.startsWith('~/')) target = `src/${spec.slice(2)}`;
  else if (spec.startsWith('@db/')) target = `db/${spec.slice(4)}`;
  else if (spec.startsWith('.')) target = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  else return null;
  return target;
}

/** A module path with its extension, when the file exists (specifiers may omit it). */
function withExtension(target: string, exists: (p: string) => boolean): string {
  // A feature folder resolves to its browser door.
  if (/^src\/features\/[^/]+$/.test(target)) return `${target}/index.ts`;
  if (SOURCE.test(target) || /\.(css|json)$/.test(target)) return target;
  for (const ext of ['.ts', '.tsx', '.mjs', '.mts', '.astro', '/index.ts']) if (exists(target + ext)) return target + ext;
  return target;
}

export function layerOf(file: string): Layer {
  if (file.startsWith('src/features/')) return 'feature';
  if (file.startsWith('src/lib/')) return 'lib';
  if (file.startsWith('src/server/')) return 'server';
  // The schema and migrations; the seed and the migration runner are tools like scripts/.
  if (file.startsWith('db/') && !file.startsWith('db/seed/') && file !== 'db/migrate.ts') return 'db';
  if (file.startsWith('src/') || file.startsWith('db/') || /^(scripts|bench|tests)\//.test(file) || !file.includes('/')) return 'top';
  return 'external';
}

const featureOf = (file: string) => /^src\/features\/([^/]+)\//.exec(file)?.[1] ?? null;
// With or without the extension: a specifier that resolves to no file still names what it wants.
const isServerFile = (file: string) => /\.server(\.ts)?$/.test(file) || file.startsWith('src/server/');
/** Code that runs in the browser: it must never pull in server code. */
const isBrowserCode = (file: string) => /\.client\.ts$|\.tsx$/.test(file) || file.startsWith('src/lib/') || (featureOf(file) !== null && file.endsWith('/index.ts'));

/** Checks one import (`inScript`: it sits in an .astro `<script>`); returns the broken rule, if any. */
export function checkImport(from: string, to: string, inScript = false): string | null {
  const a = layerOf(from);
  const b = layerOf(to);
  const fa = featureOf(from);
  const fb = featureOf(to);
  const home = (f: string) => /^src\/(pages|middleware)\//.exec(f)?.[1];
  if (home(to) && home(to) !== home(from)) return 'nothing imports pages or the middleware';
  if ((to.startsWith('src/components/') || to.startsWith('src/layouts/')) && a !== 'top') return 'only pages use shared components and layouts';
  if ((a === 'lib' || a === 'server' || a === 'db') && b === 'feature') return `${a}/ never imports a feature (the dependency points the wrong way)`;
  if (a === 'lib' && b === 'server') return 'lib/ is browser-safe and never imports server/';
  if (a === 'db' && (b === 'lib' || b === 'server') && !to.startsWith('src/lib/')) return 'db/ (schema, migrations) stands alone';
  if (/\/repository[^/]*\.server(\.ts)?$/.test(to) && fa !== fb) return 'a repository is private to its feature';
  if (b === 'feature' && fa !== fb) {
    const name = to.slice(`src/features/${fb}/`.length).replace(/\.(ts|mjs)$/, '');
    if (!DOORS.has(name) && !to.endsWith('.css')) return `other features, pages and tools use the ${fb} feature only through its doors (index.ts, index.server.ts, ui.ts, and the payments feature's sandbox.server.ts)`;
  }
  if (isBrowserCode(from) && isServerFile(to)) return 'browser code never imports server code';
  // Astro bundles a component's <script> for the browser: a server module there would ship to it (or fail the build).
  if (inScript && isServerFile(to)) return 'an .astro <script> runs in the browser and never imports server code';
  return null;
}

/** Cycles in the graph of features (an edge when a feature imports another's door). */
export function featureCycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const m of edges.get(n) ?? []) {
      if (state.get(m) === 'open') cycles.push([...stack.slice(stack.indexOf(m)), m]);
      else if (!state.has(m)) visit(m);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of [...edges.keys()].sort()) if (!state.has(n)) visit(n);
  return cycles;
}

/** What an importer takes from a module: some names, or '*' when it may use any of them (`export *`, a namespace passed on whole). */
export type Taken = ReadonlySet<string> | '*';

const parse = (file: string, code: string) =>
  ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);

const hasModifier = (node: ts.Node, kind: ts.SyntaxKind) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === kind);

const bindingNames = (name: ts.BindingName): string[] =>
  ts.isIdentifier(name) ? [name.text] : name.elements.flatMap((e) => (ts.isOmittedExpression(e) ? [] : bindingNames(e.name)));

/** The names a module exports; `export * from` is followed through `resolve` (a path, and the source there, or null). */
export function exportedNames(file: string, source: string, resolve: (from: string, spec: string) => { file: string; source: string } | null, seen = new Set<string>()): Set<string> {
  const out = new Set<string>();
  if (seen.has(file)) return out;
  seen.add(file);
  for (const st of parse(file, source).statements) {
    if (ts.isExportDeclaration(st)) {
      if (st.exportClause && ts.isNamedExports(st.exportClause)) for (const e of st.exportClause.elements) out.add(e.name.text);
      else if (st.exportClause) out.add(st.exportClause.name.text); // export * as ns from
      else if (st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier)) {
        const target = resolve(file, st.moduleSpecifier.text);
        // `export *` never passes on a default export.
        if (target) for (const n of exportedNames(target.file, target.source, resolve, seen)) if (n !== 'default') out.add(n);
      }
    } else if (ts.isExportAssignment(st)) out.add('default');
    else if (hasModifier(st, ts.SyntaxKind.ExportKeyword)) {
      if (hasModifier(st, ts.SyntaxKind.DefaultKeyword)) out.add('default');
      else if (ts.isVariableStatement(st)) for (const d of st.declarationList.declarations) bindingNames(d.name).forEach((n) => out.add(n));
      else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st) || ts.isModuleDeclaration(st)) && st.name && ts.isIdentifier(st.name)) out.add(st.name.text);
    }
  }
  return out;
}

const merge = (a: Set<string> | '*', b: Taken): Set<string> | '*' => (a === '*' || b === '*' ? '*' : new Set([...a, ...b]));

/** What is read of a module bound to `local` (a namespace import, a dynamic import kept whole, a `.then` parameter): `local.name` and `local.Name` in types; any other use takes everything. */
function membersOf(local: string, scope: ts.Node, declaration: ts.Node, extra = ''): Taken {
  const names = new Set<string>();
  let all = false;
  const visit = (node: ts.Node): void => {
    if (all) return;
    if (ts.isIdentifier(node) && node.text === local && node !== declaration) {
      const p = node.parent;
      if (ts.isPropertyAccessExpression(p) && p.expression === node) names.add(p.name.text);
      else if (ts.isQualifiedName(p) && p.left === node) names.add(p.right.text);
      else if (!(ts.isPropertyAccessExpression(p) && p.name === node) && !(ts.isPropertyAssignment(p) && p.name === node) && !(ts.isQualifiedName(p) && p.right === node)) all = true;
    }
    ts.forEachChild(node, visit);
  };
  visit(scope);
  // An .astro template uses its frontmatter's names (`<ns.Card />`, `{ns.label}`), outside the code parsed here.
  for (const m of extra.matchAll(new RegExp(`(?<![\\w$.])${local.replace(/\$/g, '\\$')}\\.([A-Za-z_$][\\w$]*)`, 'g'))) names.add(m[1]!);
  if (extra && new RegExp(`(?<![\\w$.])${local.replace(/\$/g, '\\$')}(?![\\w$.])`).test(extra)) all = true;
  return all ? '*' : names;
}

/** What a binding of a whole module takes: destructured names, or the members read of a name it is bound to. */
function takenByBinding(name: ts.BindingName, scope: ts.Node, template: string): Taken {
  if (ts.isIdentifier(name)) return membersOf(name.text, scope, name, template);
  if (ts.isArrayBindingPattern(name)) return '*';
  const out = new Set<string>();
  for (const e of name.elements) {
    if (e.dotDotDotToken) return '*';
    const key = e.propertyName ?? e.name;
    if (ts.isIdentifier(key) || ts.isStringLiteral(key)) out.add(key.text);
    else return '*';
  }
  return out;
}

/** What a dynamic `import('…')` takes: `const { a } = await import(…)`, `(await import(…)).a`, `const m = await import(…)` then `m.a`, `import(…).then((m) => m.a)`. */
function takenByDynamicImport(call: ts.CallExpression, template: string): Taken {
  let node: ts.Node = call;
  let awaited = false;
  while (ts.isParenthesizedExpression(node.parent) || ts.isAwaitExpression(node.parent)) {
    awaited ||= ts.isAwaitExpression(node.parent);
    node = node.parent;
  }
  const p = node.parent;
  // `void import(…)` or `await import(…)` alone only load the module for its effects.
  if (ts.isExpressionStatement(p) || ts.isVoidExpression(p)) return new Set();
  if (awaited) {
    if (ts.isPropertyAccessExpression(p) && p.expression === node) return new Set([p.name.text]);
    if (ts.isVariableDeclaration(p) && p.initializer === node) {
      let scope: ts.Node = p;
      while (scope.parent && !ts.isBlock(scope) && !ts.isSourceFile(scope)) scope = scope.parent;
      return takenByBinding(p.name, scope, ts.isSourceFile(scope) ? template : '');
    }
    return '*';
  }
  // Not awaited: the promise of the module, read in a `.then` callback.
  if (ts.isPropertyAccessExpression(p) && p.expression === node && p.name.text === 'then' && ts.isCallExpression(p.parent) && p.parent.expression === p) {
    const cb = p.parent.arguments[0];
    if (cb && (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb))) return cb.parameters[0] ? takenByBinding(cb.parameters[0].name, cb.body, '') : new Set();
  }
  return '*';
}

/** For each module a file imports (by specifier), what it takes of it: static, dynamic and type imports, and re-exports. */
export function takenNames(file: string, source: string): Map<string, Taken> {
  const out = new Map<string, Set<string> | '*'>();
  const add = (spec: string, taken: Taken) => out.set(spec, merge(out.get(spec) ?? new Set(), taken));
  const template = file.endsWith('.astro') ? source.replace(/^---\r?\n[\s\S]*?\r?\n---/, '') : '';
  for (const { code, inScript } of codeBlocks(file, source)) {
    const sf = parse(file, code);
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        const spec = node.moduleSpecifier.text;
        const clause = node.importClause;
        const names = new Set<string>();
        let taken: Taken = names;
        if (clause?.name) names.add('default');
        const bindings = clause?.namedBindings;
        if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.add((e.propertyName ?? e.name).text);
        else if (bindings) taken = merge(names, membersOf(bindings.name.text, sf, bindings.name, inScript ? '' : template));
        add(spec, taken);
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        const clause = node.exportClause;
        add(node.moduleSpecifier.text, clause && ts.isNamedExports(clause) ? new Set(clause.elements.map((e) => (e.propertyName ?? e.name).text)) : '*');
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0])) {
        add(node.arguments[0].text, takenByDynamicImport(node, inScript ? '' : template));
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        let q = node.qualifier;
        while (q && ts.isQualifiedName(q)) q = q.left;
        add(node.argument.literal.text, q ? new Set([q.text]) : '*');
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

/** A feature's door, from its path: `src/features/<feature>/<door>.ts`. */
export function doorOf(file: string): { feature: string; door: string } | null {
  const m = /^src\/features\/([^/]+)\/([^/]+)\.ts$/.exec(file);
  return m && DOORS.has(m[2]!) ? { feature: m[1]!, door: m[2]! } : null;
}

/**
 * Door exports that nothing outside their feature uses but that stay, as `feature/door: name`
 * with the reason. Every other unused door export fails the check; keep this list short.
 */
export const UNUSED_EXPORTS_KEPT: Readonly<Record<string, string>> = {
  // The refunds' seam, exported for the refund owner (commerce/refunds.server.ts) the lead writes
  // against it: remove these three once it imports them.
};

/** A feature: the features it imports (through their doors) and its doors. */
export interface FeatureNode {
  uses: Set<string>;
  doors: string[];
}

export interface Findings {
  violations: Violation[];
  cycles: string[][];
  /** `feature/door: name` for each door export that nothing outside the feature uses (tests, tools and benches count as users). */
  unusedExports: string[];
  /** Entries of the kept list that are used after all, or no longer exported. */
  staleKept: string[];
  features: Map<string, FeatureNode>;
}

/** Every violation in a set of files (path relative to the repository -> source), and the features' graph. */
export function checkFiles(files: ReadonlyMap<string, string>, exists: (p: string) => boolean = (p) => files.has(p), kept: Readonly<Record<string, string>> = UNUSED_EXPORTS_KEPT): Findings {
  const violations: Violation[] = [];
  const features = new Map<string, FeatureNode>();
  const node = (f: string) => features.get(f) ?? features.set(f, { uses: new Set(), doors: [] }).get(f)!;
  // What code outside each door's feature takes from it, by door file.
  const used = new Map<string, Set<string> | '*'>();
  const resolve = (from: string, spec: string): string | null => {
    const raw = resolveSpecifier(from, spec);
    return raw === null ? null : withExtension(raw, exists);
  };
  for (const [file, source] of files) {
    const fa = featureOf(file);
    if (fa) node(fa);
    let outsideDoor = false;
    for (const { spec, inScript } of importsOf(file, source)) {
      const to = resolve(file, spec);
      if (to === null) continue;
      const rule = checkImport(file, to, inScript);
      if (rule) violations.push({ file, imports: spec, rule });
      const fb = featureOf(to);
      if (fa && fb && fa !== fb) node(fa).uses.add(fb);
      if (fb !== fa && doorOf(to)) outsideDoor = true;
    }
    // Only files that use another feature's door are parsed in full.
    if (!outsideDoor) continue;
    for (const [spec, taken] of takenNames(file, source)) {
      const to = resolve(file, spec);
      if (to !== null && doorOf(to) && featureOf(to) !== fa) used.set(to, merge(used.get(to) ?? new Set(), taken));
    }
  }
  const unusedExports: string[] = [];
  for (const [file, source] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const door = doorOf(file);
    if (!door) continue;
    node(door.feature).doors.push(file.slice(`src/features/${door.feature}/`.length));
    const taken = used.get(file) ?? new Set();
    if (taken === '*') continue;
    const exported = exportedNames(file, source, (from, spec) => {
      const to = resolve(from, spec);
      const src = to === null ? undefined : files.get(to);
      return to === null || src === undefined ? null : { file: to, source: src };
    });
    for (const name of [...exported].sort()) if (!taken.has(name)) unusedExports.push(`${door.feature}/${door.door}: ${name}`);
  }
  const edges = new Map([...features].map(([f, n]) => [f, n.uses]));
  return {
    violations,
    cycles: featureCycles(edges),
    unusedExports: unusedExports.filter((u) => !(u in kept)),
    staleKept: Object.keys(kept).filter((k) => !unusedExports.includes(k)),
    features,
  };
}

export const TABLE_START = '<!-- features:start -->';
export const TABLE_END = '<!-- features:end -->';

/** The features from the bottom up (a feature after everything it uses), then by name. */
function featureOrder(features: ReadonlyMap<string, FeatureNode>): string[] {
  const depth = new Map<string, number>();
  const depthOf = (f: string, path: Set<string>): number => {
    if (depth.has(f)) return depth.get(f)!;
    if (path.has(f)) return 0; // a cycle, reported on its own
    path.add(f);
    const d = Math.max(-1, ...[...(features.get(f)?.uses ?? [])].map((u) => depthOf(u, path))) + 1;
    path.delete(f);
    depth.set(f, d);
    return d;
  };
  return [...features.keys()].sort((a, b) => depthOf(a, new Set()) - depthOf(b, new Set()) || (a < b ? -1 : 1));
}

/** The table of features, what each uses and its doors, as docs/architecture.md shows it between the markers. */
export function featureTable(features: ReadonlyMap<string, FeatureNode>): string {
  const rows = featureOrder(features).map((f) => {
    const n = features.get(f)!;
    return `| ${f} | ${[...n.uses].sort().join(', ') || '—'} | ${n.doors.join(', ') || '—'} |`;
  });
  return ['| feature | uses | doors |', '| --- | --- | --- |', ...rows].join('\n');
}

/** How the table in a document differs from the features' real graph (empty when it is right). */
export function tableProblems(doc: string, features: ReadonlyMap<string, FeatureNode>): string[] {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) return [`no feature table between ${TABLE_START} and ${TABLE_END}`];
  const cells = (line: string) => line.trim().replace(/^\||\|$/g, '').split('|').map((c) => c.trim());
  const list = (cell = '') => (cell === '—' || cell === '' ? [] : cell.split(',').map((x) => x.trim()).sort());
  const rows = doc.slice(start + TABLE_START.length, end).split('\n').filter((l) => l.trim().startsWith('|')).slice(2).map(cells);
  const listed = new Map(rows.map((r) => [r[0]!, { uses: list(r[1]), doors: list(r[2]) }]));
  const problems: string[] = [];
  for (const f of [...listed.keys()].filter((f) => !features.has(f)).sort()) problems.push(`the table lists ${f}, which is not a feature`);
  for (const f of [...features.keys()].sort()) {
    const row = listed.get(f);
    const real = features.get(f)!;
    if (!row) {
      problems.push(`the table omits ${f}`);
      continue;
    }
    const uses = [...real.uses].sort();
    if (row.uses.join() !== uses.join()) problems.push(`${f} uses ${uses.join(', ') || 'no feature'}; the table says ${row.uses.join(', ') || '—'}`);
    if (row.doors.join() !== [...real.doors].sort().join()) problems.push(`${f} has the doors ${real.doors.join(', ')}; the table says ${row.doors.join(', ') || '—'}`);
  }
  return problems;
}

/** The document with the table between its markers replaced by the real one. */
export function withFeatureTable(doc: string, features: ReadonlyMap<string, FeatureNode>): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`no ${TABLE_START} … ${TABLE_END} markers`);
  return `${doc.slice(0, start)}${TABLE_START}\n${featureTable(features)}\n${doc.slice(end)}`;
}

/** The repository's source files. */
export function repositoryFiles(root = ROOT): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules') walk(rel);
      } else if (SOURCE.test(entry.name)) out.set(rel, fs.readFileSync(path.join(root, rel), 'utf8'));
    }
  };
  for (const dir of ['src', 'db', 'scripts', 'bench', 'tests']) if (fs.existsSync(path.join(root, dir))) walk(dir);
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { violations, cycles, unusedExports, staleKept, features } = checkFiles(repositoryFiles(), (p) => fs.existsSync(path.join(ROOT, p)));
  for (const v of violations) console.log(`${v.file}: imports ${v.imports}: ${v.rule}`);
  for (const c of cycles) console.log(`cycle between features: ${c.join(' -> ')}`);
  if (unusedExports.length) {
    console.log('door exports that nothing outside their feature uses (stop exporting them, or keep one in UNUSED_EXPORTS_KEPT with its reason):');
    for (const u of unusedExports) console.log(u);
  }
  for (const k of staleKept) console.log(`UNUSED_EXPORTS_KEPT: ${k}: used outside its feature, or no longer exported; remove the entry`);
  const docPath = path.join(ROOT, 'docs/architecture.md');
  const doc = fs.readFileSync(docPath, 'utf8');
  let problems = tableProblems(doc, features);
  if (problems.length && process.argv.includes('--write-docs')) {
    fs.writeFileSync(docPath, withFeatureTable(doc, features));
    console.log('docs/architecture.md: feature table rewritten');
    problems = [];
  }
  if (problems.length) {
    for (const p of problems) console.log(`docs/architecture.md: ${p}`);
    console.log(`the table should read (npm run boundaries -- --write-docs writes it):\n${featureTable(features)}`);
  }
  const failures = violations.length + cycles.length + unusedExports.length + staleKept.length + problems.length;
  console.log(
    failures === 0
      ? 'boundaries: ok'
      : `boundaries: ${violations.length} wrong-way imports, ${cycles.length} cycles, ${unusedExports.length + staleKept.length} unused door exports, ${problems.length} feature table differences`,
  );
  process.exit(failures === 0 ? 0 : 1);
}
