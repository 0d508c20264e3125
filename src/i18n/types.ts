import type { TranslationMessages } from 'ra-core';

/**
 * An interface as a closed tree: index signatures dropped, optional keys made required, every leaf a string.
 * Applied to react-admin's `TranslationMessages` (the type of ra-language-english's object) it lists every key
 * of react-admin 5, so a translation typed with it fails the type check when a key is missing or misspelt.
 */
export type Strict<T> = {
  [K in keyof T as string extends K ? never : number extends K ? never : K]-?: NonNullable<
    T[K]
  > extends string
    ? string
    : Strict<NonNullable<T[K]>>;
};

/** A message tree with its literal strings widened to `string`: the type of a translation of `T`. */
export type Messages<T> = { [K in keyof T]: T[K] extends string ? string : Messages<T[K]> };

/** A translation that may leave keys out (German: missing keys fall back to English). */
export type DeepPartial<T> = { [K in keyof T]?: T[K] extends string ? string : DeepPartial<T[K]> };

/** react-admin's own keys: `{ ra: { action: …, boolean: …, page: …, … } }`. */
export type RaMessages = Strict<TranslationMessages>;
