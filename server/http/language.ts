/**
 * The language of a request: the first language of its Accept-Language that the apps speak (nl, en, de),
 * else Dutch. The apps send the language they show (src/dataProvider/http.ts); translated fields
 * (x-translated) read in it.
 */
import { LANGUAGES, type Language } from '../../common/schema/types.ts';

export function requestLanguage(acceptLanguage: string | string[] | undefined): Language {
  const header = Array.isArray(acceptLanguage) ? acceptLanguage.join(',') : (acceptLanguage ?? '');
  const ranked = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.split(';').map((p) => p.trim());
      const q = params.find((p) => p.startsWith('q='));
      return { primary: (tag ?? '').slice(0, 2).toLowerCase(), q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((l) => (LANGUAGES as readonly string[]).includes(l.primary) && l.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return (ranked[0]?.primary as Language | undefined) ?? 'nl';
}
