// The import graph of src/ (issue 13): no import circle anywhere, no CLI command module importing
// another, and every folder importing only the folders below it, by the table in README's "Layout of
// the code" (read from the README, so the docs and this test cannot disagree). Every edge counts:
// `import`, `import type`, `export ... from`, `import()` (also in types) and worker files loaded with
// `new URL('./x.js', import.meta.url)`; the last only for the layers: a worker is a module graph of
// its own thread, which may import the module that starts it (tui/replay-worker.ts does).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..');
const SRC = join(ROOT, 'src');

interface Edge {
  from: string;
  to: string;
  spec: string;
  worker: boolean;
}

interface Spec {
  spec: string;
  worker: boolean;
}

/** The relative module specifiers one source text loads. */
export function specifiers(fileName: string, text: string): Spec[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: Spec[] = [];
  const literal = (n: ts.Node | undefined, worker = false) => {
    if (n && ts.isStringLiteralLike(n)) out.push({ spec: n.text, worker });
  };
  const visit = (n: ts.Node) => {
    if (ts.isImportDeclaration(n) || ts.isExportDeclaration(n)) literal(n.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(n) && ts.isExternalModuleReference(n.moduleReference)) literal(n.moduleReference.expression);
    else if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) literal(n.arguments[0]);
    else if (ts.isImportTypeNode(n) && ts.isLiteralTypeNode(n.argument)) literal(n.argument.literal);
    else if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'URL' && n.arguments?.length === 2 && /import\.meta\.url/.test(n.arguments[1].getText(sf))) {
      literal(n.arguments[0], true);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out.filter((s) => s.spec.startsWith('.'));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** `./x.js` from a file of src/ to the .ts/.tsx file it names; null outside src/ (package.json). */
function resolveSpec(from: string, spec: string): string | null {
  const abs = resolve(dirname(from), spec);
  if (relative(SRC, abs).startsWith('..')) return null;
  const base = abs.replace(/\.jsx?$/, '');
  for (const candidate of [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(candidate)) return relative(SRC, candidate);
  throw new Error(`${relative(SRC, from)}: cannot resolve ${spec}`);
}

function graph(): { files: string[]; edges: Edge[] } {
  const files = sourceFiles(SRC).sort();
  const edges: Edge[] = [];
  for (const f of files) {
    for (const { spec, worker } of specifiers(f, readFileSync(f, 'utf8'))) {
      const to = resolveSpec(f, spec);
      if (to) edges.push({ from: relative(SRC, f), to, spec, worker });
    }
  }
  return { files: files.map((f) => relative(SRC, f)), edges };
}

/** The strongly connected components with more than one node, or a node importing itself (Tarjan). */
export function circles(nodes: string[], edges: Array<{ from: string; to: string }>): string[][] {
  const next = new Map<string, string[]>(nodes.map((n) => [n, []]));
  for (const e of edges) next.get(e.from)?.push(e.to);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || next.get(v)!.includes(v)) out.push(scc.sort());
    }
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return out;
}

/** README's layer table: `src/<folder>` -> the folders it may import (besides itself). */
export function layerTable(readme: string): Map<string, string[]> {
  const section = readme.split(/^## Layout of the code$/m)[1]?.split(/^## /m)[0] ?? '';
  const table = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const m = /^\| `src\/([\w-]+)` \|.*\| ([^|]*) \|$/.exec(line);
    if (m) table.set(m[1], [...m[2].matchAll(/`([\w-]+)`/g)].map((x) => x[1]));
  }
  return table;
}

const layerOf = (file: string) => file.split('/')[0];

describe('the import graph of src/', () => {
  const { files, edges } = graph();
  const table = layerTable(readFileSync(join(ROOT, 'README.md'), 'utf8'));

  it('is read completely (the known edges are there)', () => {
    expect(files.length).toBeGreaterThan(100);
    const has = (from: string, to: string) => edges.some((e) => e.from === from && e.to === to);
    expect(has('cli/main.ts', 'cli/analyze.ts')).toBe(true);
    expect(edges.some((e) => e.from === 'timeline/pool.ts' && e.to === 'timeline/worker.ts' && e.worker)).toBe(true); // by URL
    expect(edges.some((e) => e.to === 'tui/run.tsx')).toBe(true); // loaded with import()
  });

  it('has no import circle', () => {
    const imports = edges.filter((e) => !e.worker);
    const found = circles(files, imports).map((c) => {
      const inner = imports.filter((e) => c.includes(e.from) && c.includes(e.to));
      return `${c.join(', ')}: ${inner.map((e) => `${e.from} -> ${e.to}`).join('; ')}`;
    });
    expect(found).toEqual([]);
  });

  it('has no CLI command module importing another', () => {
    const commands = files.filter((f) => f.startsWith('cli/') && /export function \w+Command\(/.test(readFileSync(join(SRC, f), 'utf8')));
    expect(commands).toEqual(expect.arrayContaining(['cli/analyze.ts', 'cli/events.ts', 'cli/replay.ts', 'cli/rules.ts', 'cli/tui.ts']));
    const bad = edges.filter((e) => commands.includes(e.from) && commands.includes(e.to)).map((e) => `${e.from} -> ${e.to}`);
    expect(bad).toEqual([]);
  });

  it("imports only downwards, by README's layer table", () => {
    expect([...new Set(files.map(layerOf))].sort()).toEqual([...table.keys()].sort());
    const bad = edges
      .filter((e) => layerOf(e.from) !== layerOf(e.to) && !table.get(layerOf(e.from))!.includes(layerOf(e.to)))
      .map((e) => `${e.from} -> ${e.to}`);
    expect(bad).toEqual([]);
  });

  it("has a layer table that is itself a ladder (no two folders allowed to import each other, even through others)", () => {
    const nodes = [...table.keys()];
    const allowed = nodes.flatMap((from) => table.get(from)!.map((to) => ({ from, to })));
    expect(allowed.filter((e) => !table.has(e.to))).toEqual([]);
    expect(circles(nodes, allowed)).toEqual([]);
  });
});

describe('the import graph helpers', () => {
  it('see every way of loading a module', () => {
    const text = [
      "import a from './a.js';",
      "import type { B } from '../b.js';",
      "export { c } from './c.js';",
      "export * from './d.js';",
      "import 'node:fs';",
      "const e = await import('./e.js');",
      "let f: import('./f.js').F;",
      "const w = new URL('./w.js', import.meta.url);",
      "const s = './not-a-module.js';",
    ].join('\n');
    expect(specifiers('x.ts', text).map((s) => `${s.spec}${s.worker ? ' (worker)' : ''}`)).toEqual(['./a.js', '../b.js', './c.js', './d.js', './e.js', './f.js', './w.js (worker)']);
  });

  it('find circles, also through several files and of one file', () => {
    const e = (from: string, to: string) => ({ from, to });
    expect(circles(['a', 'b', 'c'], [e('a', 'b'), e('b', 'c')])).toEqual([]);
    expect(circles(['a', 'b', 'c', 'd'], [e('a', 'b'), e('b', 'c'), e('c', 'a'), e('c', 'd')])).toEqual([['a', 'b', 'c']]);
    expect(circles(['a'], [e('a', 'a')])).toEqual([['a']]);
  });

  it("read README's layer table", () => {
    const readme = '## Layout of the code\n\n| folder | what | may import |\n|---|---|---|\n| `src/util` | errors | none |\n| `src/parse` | layouts | `util`, `ingest` |\n\n## Next\n| `src/x` | y | `z` |\n';
    expect([...layerTable(readme)]).toEqual([
      ['util', []],
      ['parse', ['util', 'ingest']],
    ]);
  });
});
