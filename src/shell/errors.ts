/**
 * The error catalogue of SPEC 8 applied to every data provider call: react-admin puts `error.message`
 * in a toast, so the message is shaped here (by the catalogue's one implementation, `errorMessage` in
 * ./errorCatalogue.ts)
 * and the toast component renders it.
 *
 * A 422 answers `{message, errors: {field: [lines]}}` (SPEC 7, DESIGN 5). The lines the apps can say
 * in the user's language are translated (a required field, SPEC 5's min-length sentence, a maximum
 * length, the password rules), the rest are shown as the server wrote them. The error then carries
 * both of SPEC 8's renderings: `message` is the toast (the message, then each field's other lines, one
 * a line, with at least one line break: the toast shows line one in bold), and `body.errors` becomes what react-admin's forms put
 * under each input (`{field: 'its lines'}`, one string per field) plus `root.serverError`, the toast
 * react-admin's form shows on a refused submit, so a form says it once, the same way.
 */
import { useCallback } from 'react';
import { useNotify, type DataProvider } from 'react-admin';
import { errorMessage, statusOf } from './errorCatalogue.ts';
import { passwordRuleKey } from '../authProvider/password-rules.ts';

type ServerTexts = typeof import('../../common/server-texts.ts');
let texts: ServerTexts | undefined;
/**
 * The server's texts are a chunk of their own, not part of the first download (issue 17's budget):
 * fetched as the app starts, and there long before an answer needs shaping; the catalogue's calls wait
 * for it (withErrorCatalogue), and a line met before it came is shown as the server wrote it.
 */
export const serverTextsLoaded: Promise<void> = import('../../common/server-texts.ts').then(
  (module) => {
    texts = module;
  },
  () => undefined,
);
const matchServerText = (line: string) => texts?.matchServerText(line);

/** Toasts with this message are not shown (403, 404, 'Unauthenticated.', a cancelled request). */
export const SILENT = 'app.errors.silent';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A form's errors as react-admin sets them on its inputs, with the toast under `root.serverError`. */
export interface FormErrors {
  [field: string]: string | { serverError: string };
  root: { serverError: string };
}

const SHAPED = Symbol('shaped by the error catalogue');

/** A request that a newer one replaced, or that the page abandoned: no error to show. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export { statusOf };

/** 403 and 404 answer no toast (SPEC 8): the record is not there for this caller. */
export const isNotThere = (error: unknown) => statusOf(error) === 403 || statusOf(error) === 404;

/** The server's wording of its field rules (server/schema/validate.ts) -> the apps' keys. */
const FIELD_RULES: {
  pattern: RegExp;
  key: string;
  args: (label: string, n: string) => Record<string, unknown>;
}[] = [
  {
    pattern: /^The (\S+) field is required\.$/,
    key: 'app.errors.required',
    args: (label) => ({ field: label }),
  },
  {
    pattern: /^The (\S+) must be at least (\d+) characters long\.$/,
    key: 'app.errors.min_length',
    args: (label, n) => ({ subject: label, length: Number(n) }),
  },
  {
    pattern: /^The (\S+) may not be longer than (\d+) characters\.$/,
    key: 'app.errors.max_length',
    args: (label, n) => ({ subject: label, length: Number(n) }),
  },
];

/**
 * The server's verdicts on a file (server/files/kinds.ts, 422) and on an upload's size (upload.ts, 413),
 * whatever field carried them -> the apps' keys, with the values the text names.
 */
const FILE_RULES: { pattern: RegExp; key: string; names: string[] }[] = [
  {
    pattern: /^Files of type \.(\S+) are not allowed\. Allowed are /,
    key: 'app.errors.file_type',
    names: ['extension'],
  },
  {
    pattern: /^Files without an extension are not allowed\. Allowed are /,
    key: 'app.errors.file_no_extension',
    names: [],
  },
  { pattern: /^The file is empty\.$/, key: 'app.errors.file_empty', names: [] },
  {
    pattern: /^The content of the file does not match its extension \.(\S+)\. Allowed are /,
    key: 'app.errors.file_mismatch',
    names: ['extension'],
  },
  { pattern: /^The file is too large: the limit is (.+)\.$/, key: 'app.upload.too_large', names: ['limit'] },
  { pattern: /^At most (\d+) files can be sent at once\.$/, key: 'app.upload.too_many', names: ['count'] },
];

/** One line of a 422 in the user's language where the apps know its words; else as the server wrote it. */
export function translateLine(
  line: string,
  field: string,
  resource: string | undefined,
  translate: Translate | undefined,
): string {
  if (!translate) return line;
  const rule = passwordRuleKey({ password: [line] });
  if (rule) return translate(rule);
  for (const { pattern, key, names } of FILE_RULES) {
    const match = pattern.exec(line);
    if (match) return translate(key, Object.fromEntries(names.map((n, i) => [n, match[i + 1] ?? ''])));
  }
  for (const { pattern, key, args } of FIELD_RULES) {
    const match = pattern.exec(line);
    // Only a line about its own field: its label is the one to name.
    if (!match || match[1] !== field) continue;
    const fallback = field.charAt(0).toUpperCase() + field.slice(1).replace(/_/g, ' ');
    const label = resource ? translate(`resources.${resource}.fields.${field}`, { _: fallback }) : fallback;
    return translate(key, args(label, match[2] ?? ''));
  }
  const known = matchServerText(line);
  if (known) return translate(`app.server.${known.key}`, serverTextValues(known.values, resource, translate));
  return line;
}

/** The apps' key of one of the server's texts (`app.server.<key>`), for texts shown as they come. */
export function serverTextKey(line: string): string | undefined {
  const known = matchServerText(line);
  return known && `app.server.${known.key}`;
}

/**
 * A server text's values for its translation: a field's name becomes its label and a record kind the
 * resource's name, in the user's language (common/server-texts.ts); the rest as the server sent them.
 */
function serverTextValues(
  values: Record<string, string>,
  resource: string | undefined,
  translate: Translate,
): Record<string, string> {
  const named = { ...values };
  if (values.field !== undefined && resource)
    named.field = translate(`resources.${resource}.fields.${values.field}`, { _: values.field });
  if (values.resource !== undefined && resource)
    named.resource = translate(`resources.${resource}.name`, { smart_count: 1, _: values.resource });
  return named;
}

/** The lines of a 422's `errors`, per field, translated where the apps can. */
function fieldLines(
  errors: Record<string, unknown>,
  resource: string | undefined,
  translate: Translate | undefined,
): Record<string, string[]> {
  return Object.fromEntries(
    Object.entries(errors).map(([field, value]) => [
      field,
      (Array.isArray(value) ? value : [value]).map((l) =>
        translateLine(String(l), field, resource, translate),
      ),
    ]),
  );
}

/** The text of a failed call without a message of its own worth showing (5xx, no answer). */
function failureKey(status: number | undefined): string | undefined {
  if (status === 0) return 'app.errors.network';
  if (status === 503) return 'app.errors.unavailable';
  if (status !== undefined && status >= 500) return 'app.errors.server';
  return undefined;
}

/**
 * Shapes a failed call's error in place for the toast and the forms (see the file's comment); a cancelled
 * request is left as it is. `resource` names the fields' labels; `translate` says the known lines in
 * the user's language.
 */
export function shapeError<E>(error: E, resource?: string, translate?: Translate): E {
  if (isAbort(error) || !error || typeof error !== 'object') return error;
  const target = error as E & { message?: string; body?: unknown; [SHAPED]?: true };
  if (target[SHAPED]) return error;
  target[SHAPED] = true;
  const status = statusOf(error);
  const failure = failureKey(status);
  if (failure) {
    target.message = failure;
    return error;
  }
  const shaped = errorMessage(error);
  if (shaped === null) {
    target.message = SILENT;
    return error;
  }
  if (typeof shaped === 'string') {
    // Not a 422, but maybe a line the apps know (a 413's 'The file is too large: …').
    target.message = translateLine(shaped, '', resource, translate);
    return error;
  }
  const body = (target.body ?? {}) as { message?: unknown; errors?: Record<string, unknown> };
  const raw = body.errors && typeof body.errors === 'object' ? body.errors : {};
  const lines = fieldLines(raw, resource, translate);
  // The message is usually the first line itself (server/http/errors.ts): then it is said the same way.
  const first = Object.entries(raw).find(([, v]) => (Array.isArray(v) ? v[0] : v) === shaped.message);
  const message = first ? lines[first[0]]![0]! : shaped.message;
  const all = Object.values(lines).flat();
  // A line break marks the toast as a 422's, message in bold, also when no other line follows.
  const others = all.filter((l) => l !== message);
  const toast = others.length ? [message, ...others].join('\n') : `${message}\n`;
  target.message = toast;
  const formErrors: FormErrors = { root: { serverError: toast } };
  for (const [field, list] of Object.entries(lines))
    if (field !== 'root') formErrors[field] = list.join('\n');
  target.body = { ...body, errors: formErrors };
  return error;
}

/** The call's first argument names the resource for the data provider's methods that take one. */
const resourceOf = (args: unknown[]) => (typeof args[0] === 'string' ? args[0] : undefined);

export function withErrorCatalogue<T extends DataProvider>(provider: T, translate?: Translate): T {
  return new Proxy(provider, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const result = (value as (...a: unknown[]) => unknown).apply(target, args);
        return result instanceof Promise
          ? result.catch(async (e: unknown) => {
              await serverTextsLoaded;
              throw shapeError(e, resourceOf(args), translate);
            })
          : result;
      };
    },
  });
}

/**
 * The toast of a failed call made outside react-admin's own hooks (a list's rows, a detail's record, a
 * form of our own): the catalogue's text, nothing for a silent error or a cancelled request.
 */
export function useNotifyError(): (error: unknown) => void {
  const notify = useNotify();
  return useCallback(
    (error: unknown) => {
      if (isAbort(error)) return;
      const message = (error as { message?: unknown } | null)?.message;
      const text = typeof message === 'string' && message !== '' ? message : 'app.errors.generic';
      if (text !== SILENT) notify(text, { type: 'error' });
    },
    [notify],
  );
}
