import type { Plugin } from 'vite';
import { labelsOf, withoutDocs, withoutLabels } from './label-split.ts';
import { LABEL_LOCALES, type LabelLocale } from './types.ts';

/**
 * The schemas' words (x-i18n, a third of schemas/*.json in three languages) leave the registry that both
 * apps load first: in the build `schemas/x.json` is bundled without them, and everywhere (build, dev,
 * tests: vite.config.ts and vitest.config.ts) `schemas/x.json?labels=nl` is a module of the Dutch words
 * only, which the Dutch messages chunk imports (src/i18n/nl/index.ts). In dev and tests the registry
 * keeps its words: nothing there reads them, and the server's files are read whole anyway. The build
 * leaves out the schemas' documentation as well (withoutDocs).
 */
export function schemaLabelsApart(): Plugin {
  const file = /\/schemas\/([^/?]+)\.json(?:\?labels=([a-z]+))?$/;
  let build = false;
  return {
    name: 'schema-labels-apart',
    enforce: 'pre',
    configResolved(config) {
      build = config.command === 'build';
    },
    transform(code, id) {
      const m = file.exec(id);
      if (!m) return undefined;
      const locale = m[2] as LabelLocale | undefined;
      if (locale === undefined) {
        return build
          ? { code: JSON.stringify(withoutDocs(withoutLabels(m[1]!, JSON.parse(code)))), map: null }
          : undefined;
      }
      if (!LABEL_LOCALES.includes(locale)) throw new Error(`No labels in '${locale}'.`);
      // With a query the file is no longer taken for JSON: it becomes the module it would have been.
      return {
        code: `export default ${JSON.stringify(labelsOf(m[1]!, JSON.parse(code), locale))};`,
        map: null,
        moduleType: 'js',
      };
    },
  };
}
