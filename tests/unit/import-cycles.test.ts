/**
 * Issue 16 item 6: no import cycle between the project's modules, and the query builder does not reach
 * into the per-resource code. The graph is read with TypeScript's own parser from every .ts/.tsx file
 * in server/, common/ and src/:
 *
 * - Edges are the static relative imports and re-exports (`import … from`, `export … from`), type-only
 *   ones included: a type-only cycle costs nothing at run time, but it is the same tangle of contracts
 *   living in the modules that implement them, which is what the issue asks to undo (docs/decisions.md).
 *   `typeof import('./x')` in a type counts too, for the same reason.
 * - Lazy imports are edges too: `import('./x')` with a literal specifier, and the files an
 *   `import.meta.glob('./*\/index.ts*')` pattern matches (vite's own expansion; `**` spans folders). A
 *   module loaded later cannot take part in an evaluation-order cycle, but a lazy screen that imports
 *   back the table that lists it is the same tangle, and the bundler must still order the chunks
 *   (docs/decisions.md, 2026-12-02). What no tool can follow is no edge: an `import()` of a computed
 *   specifier, as server/resources/folders.ts imports each folder's index by a URL it builds.
 * - Package imports are no edges (they cannot import us back), nor are JSON, CSS or image files (leaves).
 *
 * Cycles are the strongly connected components (Tarjan) of more than one file, or a file importing itself.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const FOLDERS = ['server', 'common', 'src'];

function sourceFiles(folder: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(folder)) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

/** The file a relative specifier names: as written, .js written for .ts, no extension, or a folder's index. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    `${base}.ts`,
    `${base}.tsx`,
    join(base, 'index.ts'),
    join(base, 'index.tsx'),
  ];
  return candidates.find((c) => /\.tsx?$/.test(c) && existsSync(c) && statSync(c).isFile());
}

/** The patterns of an `import.meta.glob` call: a string or an array of them (`!` excludes are skipped). */
function globPatterns(argument: ts.Expression): string[] {
  const literals = ts.isArrayLiteralExpression(argument) ? [...argument.elements] : [argument];
  return literals.filter(ts.isStringLiteralLike).map((l) => l.text);
}

/** The .ts/.tsx files a relative glob (`./*\/index.ts*`, `**` across folders) names, as vite expands it. */
function globMatches(from: string, pattern: string): string[] {
  if (!pattern.startsWith('.')) return [];
  const absolute = resolve(dirname(from), pattern);
  const first = absolute.search(/[*?{[]/);
  const base = first < 0 ? dirname(absolute) : absolute.slice(0, absolute.lastIndexOf('/', first));
  const regex = new RegExp(
    `^${absolute
      .split('**/')
      .map((part) =>
        part
          .replace(/[.+^$()|\\]/g, '\\$&')
          .replace(/\*/g, '[^/]*')
          .replace(/\?/g, '[^/]'),
      )
      .join('(?:.*/)?')}$`,
  );
  return existsSync(base) ? sourceFiles(base).filter((f) => regex.test(f)) : [];
}

/** The relative modules a file imports (values and types, static and lazy alike). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const specifiers: string[] = [];
  const globs: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      specifiers.push(node.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      const expression = node.moduleReference.expression;
      if (ts.isStringLiteral(expression)) specifiers.push(expression.text);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      specifiers.push(node.argument.literal.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      specifiers.push(node.arguments[0].text);
    } else if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 'glob' &&
      ts.isMetaProperty(node.expression.expression) &&
      node.arguments[0]
    ) {
      globs.push(...globPatterns(node.arguments[0]));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  const out = new Set<string>(globs.flatMap((pattern) => globMatches(file, pattern)));
  for (const specifier of specifiers) {
    if (!specifier.startsWith('.')) continue;
    // JSON, CSS and images are leaves: they import nothing.
    if (/\.(json|css|svg|png)$/.test(specifier)) continue;
    const target = resolveSpecifier(file, specifier);
    if (!target)
      throw new Error(`${relative(ROOT, file)} imports '${specifier}', which names no .ts/.tsx file`);
    out.add(target);
  }
  return [...out];
}

type Graph = Map<string, string[]>;

function buildGraph(): Graph {
  const graph: Graph = new Map();
  for (const folder of FOLDERS)
    for (const file of sourceFiles(join(ROOT, folder))) graph.set(file, importsOf(file));
  return graph;
}

/** Tarjan's strongly connected components, iterative (deep import chains would overflow recursion). */
function stronglyConnected(graph: Graph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of graph.keys()) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components;
}

/** One concrete loop through a component (breadth-first from its first file back to it), for the message. */
function oneLoop(graph: Graph, component: string[]): string[] {
  const members = new Set(component);
  const start = [...component].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

const graph = buildGraph();
const name = (file: string) => relative(ROOT, file);

describe('the import graph', () => {
  it('reads the project (a sanity check that the walk finds files and edges)', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect([...graph.values()].reduce((sum, edges) => sum + edges.length, 0)).toBeGreaterThan(graph.size);
  });

  it('follows lazy imports and import.meta.glob (the resource folders of the apps)', () => {
    const edges = (file: string) => (graph.get(join(ROOT, file)) ?? []).map(name);
    expect(edges('src/resources/overrides.ts')).toContain('src/resources/tickets/index.ts');
    expect(edges('src/resources/tickets/index.ts')).toContain('src/resources/tickets/TicketActions.tsx');
  });

  it('has no import cycle (type-only and lazy imports included)', () => {
    const cycles = stronglyConnected(graph)
      .filter((c) => c.length > 1 || (graph.get(c[0]!) ?? []).includes(c[0]!))
      .map((c) => {
        const files = c.map(name).sort();
        const loop = oneLoop(graph, c).map(name).join(' -> ');
        return `${files.length} files: ${files.join(', ')}\n    e.g. ${loop}`;
      });
    expect(cycles, `import cycles:\n  ${cycles.join('\n  ')}`).toEqual([]);
  });

  it('keeps the query builder (server/query/) free of per-resource code (server/resources/)', () => {
    const leaks = [...graph]
      .filter(([file]) => name(file).startsWith('server/query/'))
      .flatMap(([file, edges]) =>
        edges
          .filter((to) => name(to).startsWith('server/resources/'))
          .map((to) => `${name(file)} -> ${name(to)}`),
      );
    expect(leaks).toEqual([]);
  });
});
