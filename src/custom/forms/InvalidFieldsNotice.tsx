/**
 * Put inside a form whose own 'the form is not valid' notification is turned off
 * (`disableInvalidFormNotification`): after a submit that did not go through, the notification names
 * the fields, by the labels the user sees ('Fill in: Subject, Company.', 'Check: E-mail.'), and the
 * first of them in the form gets the focus. It reads the form's errors after the submit: the
 * form's own checks (required); a server's 422 is said as react-admin says it (its toast names the
 * lines), and its first field gets the focus too.
 */
import { useEffect, useRef } from 'react';
import { useFormContext, useFormState } from 'react-hook-form';
import { useNotify, useResourceContext, useTranslate } from 'react-admin';
import { cleanLabel, errorPaths, inFormOrder, invalidFieldsText, isEmptyValue } from './invalidFields.ts';

/** The input of a field in the form (its own, or a select's hidden one). */
function inputOf(form: HTMLFormElement | null | undefined, path: string): HTMLElement | null {
  return form?.querySelector<HTMLElement>(`[name="${CSS.escape(path)}"]`) ?? null;
}

/** The label the user sees on the field; undefined where the form shows none. */
function shownLabel(input: HTMLElement | null): string | undefined {
  const control = input?.closest('.MuiFormControl-root, .MuiFormControlLabel-root');
  const text = control?.querySelector('label, legend')?.textContent ?? control?.textContent;
  return text ? cleanLabel(text) || undefined : undefined;
}

export function InvalidFieldsNotice() {
  const { control, getValues, setFocus } = useFormContext();
  const { submitCount, errors } = useFormState({ control });
  const seen = useRef(submitCount);
  const marker = useRef<HTMLSpanElement>(null);
  const notify = useNotify();
  const translate = useTranslate();
  const resource = useResourceContext();

  useEffect(() => {
    if (submitCount <= seen.current) return;
    seen.current = submitCount;
    const form = marker.current?.closest('form');
    const inputs = new Map(errorPaths(errors).map((path) => [path, inputOf(form, path)]));
    const elements = form ? [...form.querySelectorAll('*')] : [];
    const paths = inFormOrder([...inputs.keys()], (path) => {
      const at = elements.indexOf(inputs.get(path)!);
      return at < 0 ? Number.MAX_SAFE_INTEGER : at;
    });
    const serverError = errors.root?.serverError?.message;
    if (typeof serverError === 'string') {
      // The server refused the record: its 422 toast already says each line (SPEC 8, the message in
      // bold), so it is said as react-admin says it, not replaced by the fields' names.
      notify(serverError, { type: 'error' });
    } else if (paths.length === 0) {
      if (Object.keys(errors).length > 0) notify('ra.message.invalid_form', { type: 'error' });
      return;
    } else {
      const label = (path: string) =>
        shownLabel(inputs.get(path)!) ??
        translate(`resources.${resource}.fields.${path}`, { _: path.replace(/_/g, ' ') });
      const missing = paths.filter((path) => isEmptyValue(getValues(path)));
      const wrong = paths.filter((path) => !missing.includes(path));
      notify(invalidFieldsText(missing.map(label), wrong.map(label), translate), { type: 'error' });
    }
    if (paths.length === 0) return;
    // The first field to mend takes the focus (the form's own checks focus theirs; the server's not).
    try {
      setFocus(paths[0]!);
    } catch {
      inputs.get(paths[0]!)?.focus();
    }
  }, [submitCount, errors, getValues, setFocus, notify, translate, resource]);

  return <span ref={marker} hidden />;
}
