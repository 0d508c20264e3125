import { ValidationError } from '../http/errors.ts';

/**
 * Bounds on what a user keeps in their settings (POST /api/auth/me): they are loaded with every
 * login and every `me`, so their size is every session's cost. A list's columns and filters fit
 * well inside these.
 */
export const CONFIG_LIMITS = { depth: 32, bytes: 16_384, perUser: 200 } as const;

/** How deeply a JSON value nests, counted without recursion and given up on past `limit`. */
function depthOver(value: unknown, limit: number): boolean {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > limit) return true;
    const next: unknown[] = [];
    for (const item of level) {
      if (item !== null && typeof item === 'object') next.push(...Object.values(item));
    }
    level = next;
  }
  return false;
}

/** 422 naming each config whose value nests too deep or is too large, by its index in the body. */
export function checkConfigValues(configs: readonly { name: string; value: unknown }[]): void {
  const errors: Record<string, string[]> = {};
  configs.forEach(({ value }, index) => {
    const key = `relationships.configs.${index}.value`;
    if (depthOver(value, CONFIG_LIMITS.depth)) {
      errors[key] = [`A setting may be nested at most ${CONFIG_LIMITS.depth} levels deep.`];
    } else if (Buffer.byteLength(JSON.stringify(value ?? null)) > CONFIG_LIMITS.bytes) {
      errors[key] = [`A setting may be at most ${CONFIG_LIMITS.bytes} bytes of JSON.`];
    }
  });
  if (Object.keys(errors).length > 0) throw new ValidationError(errors);
}

export function tooManyConfigs(): ValidationError {
  const message = `A user may keep at most ${CONFIG_LIMITS.perUser} settings.`;
  return new ValidationError({ 'relationships.configs': [message] }, message);
}
