import englishMessages from 'ra-language-english';
import type { RaMessages } from '../types.ts';

/**
 * react-admin's own keys in English: ra-language-english as it is. Its declared type is the open
 * `TranslationMessages`; tests/browser/i18n-messages.test.ts checks at run time that the object has exactly the keys
 * of `RaMessages`, the closed tree the Dutch and German files are typed against.
 */
const ra = englishMessages as unknown as RaMessages;

export default ra;
