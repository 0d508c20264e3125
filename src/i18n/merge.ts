import type { TranslationMessages } from 'ra-core';

type Tree = { [key: string]: unknown };

const isTree = (value: unknown): value is Tree =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Merges trees left to right into a new one; later leaves win, nested objects are merged, inputs untouched. */
export function deepMerge(...trees: object[]): TranslationMessages {
  const out: Tree = {};
  for (const tree of trees) {
    for (const [key, value] of Object.entries(tree)) {
      if (value === undefined) continue;
      const current = out[key];
      out[key] = isTree(value) ? deepMerge(isTree(current) ? current : {}, value) : value;
    }
  }
  return out as TranslationMessages;
}
