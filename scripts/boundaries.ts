/**
 * The house's dependency rules, checked over every source file (src/, db/, scripts/, bench/,
 * tests/), .astro files included: run by src/architecture.test.ts in `npm test`, or alone with
 * `npx tsx scripts/boundaries.ts`. docs/architecture.md explains the rules.
 *
 * Why not dependency-cruiser: it is the usual tool and supports Node 22 and 24, but it cannot
 * read .astro files (its issue #1007 is still open), and half of our imports live in .astro
 * frontmatter and scripts. Biome's restricted imports and eslint-plugin-boundaries are weighed
 * in docs/architecture.md. TypeScript's own `preProcessFile` finds every import, export-from and
 * dynamic import of a file (type-only ones included, comments ignored); the rules are below as
 * data. An .astro `<script>` is browser code whatever folder its file is in.
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

/** The imports of a file's source (for .astro, of its frontmatter, which runs on the server, and of its scripts, which run in the browser). */
export function importsOf(file: string, source: string): ImportRef[] {
  if (!file.endsWith('.astro')) return specifiers(source).map((spec) => ({ spec, inScript: false }));
  const fm = /^---\r?\n([\s\S]*?)\r?\n---/.exec(source);
  // Scripts are looked for in the template only, so a string in the frontmatter is never taken for one.
  const template = fm ? source.slice(fm[0].length) : source;
  const scripts = [...template.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  return [
    ...(fm ? specifiers(fm[1]!) : []).map((spec) => ({ spec, inScript: false })),
    ...scripts.flatMap(specifiers).map((spec) => ({ spec, inScript: true })),
  ];
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

/** Every violation in a set of files (path relative to the repository -> source). */
export function checkFiles(files: ReadonlyMap<string, string>, exists: (p: string) => boolean = (p) => files.has(p)): { violations: Violation[]; cycles: string[][] } {
  const violations: Violation[] = [];
  const edges = new Map<string, Set<string>>();
  for (const [file, source] of files) {
    for (const { spec, inScript } of importsOf(file, source)) {
      const raw = resolveSpecifier(file, spec);
      if (raw === null) continue;
      const to = withExtension(raw, exists);
      const rule = checkImport(file, to, inScript);
      if (rule) violations.push({ file, imports: spec, rule });
      const fa = featureOf(file);
      const fb = featureOf(to);
      if (fa && fb && fa !== fb) {
        if (!edges.has(fa)) edges.set(fa, new Set());
        edges.get(fa)!.add(fb);
      }
    }
  }
  return { violations, cycles: featureCycles(edges) };
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
  const { violations, cycles } = checkFiles(repositoryFiles(), (p) => fs.existsSync(path.join(ROOT, p)));
  for (const v of violations) console.log(`${v.file}: imports ${v.imports}: ${v.rule}`);
  for (const c of cycles) console.log(`cycle between features: ${c.join(' -> ')}`);
  console.log(violations.length + cycles.length === 0 ? 'boundaries: ok' : `boundaries: ${violations.length} wrong-way imports, ${cycles.length} cycles`);
  process.exit(violations.length + cycles.length === 0 ? 0 : 1);
}
