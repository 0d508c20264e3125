/**
 * The JSON types a schema allows, as a list: `type` may be one name, a list of names (`['string',
 * 'null']`), or absent (any type, an empty list here).
 */
export const jsonTypes = (schema: { type?: unknown } | undefined): string[] => {
  const type = schema?.type;
  if (Array.isArray(type)) return type.filter((t): t is string => typeof t === 'string');
  return typeof type === 'string' ? [type] : [];
};
