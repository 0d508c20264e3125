/**
 * The schemas' words (x-i18n of each schema and enumeration) as react-admin message trees, and what is
 * missing from them. Labels are data beside the schemas, so a new resource brings its own; the apps merge
 * these trees under their own texts (src/i18n), and a unit test holds every schema to completeness.
 */
import type { Registry } from './registry.ts';
import { LABEL_LOCALES, type LabelLocale, type ResourceLabels } from './types.ts';

export interface SchemaMessages {
  resources: Record<string, ResourceLabels>;
  enums: Record<string, Record<string, string>>;
}

/** `resources.<name>.*` and `enums.<enumeration>.<id>` of one language, as the schemas write them. */
export function schemaMessages(registry: Registry, locale: LabelLocale): SchemaMessages {
  const resources: Record<string, ResourceLabels> = {};
  for (const r of registry.resources.values()) {
    const labels = r.labels[locale];
    if (labels) resources[r.name] = labels;
  }
  const enums: Record<string, Record<string, string>> = {};
  for (const [name, enumeration] of Object.entries(registry.enums)) {
    const labels = enumeration['x-i18n']?.[locale];
    if (labels) enums[name] = labels;
  }
  return { resources, enums };
}

const PLURAL = /^\S.* \|\|\|\| \S.*$/;
const text = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/**
 * Every gap in the schemas' words, one line each ('de tickets.fields.status_id: missing'): a name without
 * its singular and plural form, a missing empty-list text, an unlabelled field, relation or enumeration
 * value, and a label for a field the schema does not have. Empty when complete.
 */
export function missingLabels(registry: Registry): string[] {
  const problems: string[] = [];
  for (const locale of LABEL_LOCALES) {
    for (const r of registry.resources.values()) {
      const labels = r.labels[locale];
      const at = `${locale} ${r.name}`;
      if (!labels) {
        problems.push(`${at}: no x-i18n.${locale}`);
        continue;
      }
      if (!text(labels.name) || !PLURAL.test(labels.name)) problems.push(`${at}.name: 'One |||| Many'`);
      if (!text(labels.empty)) problems.push(`${at}.empty: missing`);
      // The portal's own word for the resource (its menu entry): in every language once in one.
      const portalNamed = LABEL_LOCALES.some((l) => r.labels[l]?.portal_name !== undefined);
      if (portalNamed && (!text(labels.portal_name) || !PLURAL.test(labels.portal_name)))
        problems.push(`${at}.portal_name: 'One |||| Many'`);
      const known = [...Object.keys(r.fields), ...Object.keys(r.relations)];
      for (const name of known) {
        if (!text(labels.fields?.[name])) problems.push(`${at}.fields.${name}: missing`);
      }
      for (const name of Object.keys(labels.fields ?? {})) {
        if (!known.includes(name)) problems.push(`${at}.fields.${name}: no such field or relation`);
      }
    }
    for (const [name, enumeration] of Object.entries(registry.enums)) {
      const labels = enumeration['x-i18n']?.[locale] ?? {};
      for (const value of enumeration.values) {
        if (!text(labels[String(value.id)])) problems.push(`${locale} enums.${name}.${value.id}: missing`);
      }
    }
  }
  return problems;
}
