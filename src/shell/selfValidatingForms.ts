/**
 * The apps' forms check themselves: a required field says '{field} is required' (or react-admin's
 * 'Verplicht') in the user's language, and a wrong value is answered by the form's own validators or
 * the server's 422. The browser's own bubbles ('Please fill out this field.', 'Please include an '@'
 * in the email address.') would speak the browser's language instead, and stop the submit before the
 * form could say anything.
 *
 * react-admin's <Form> leaves `noValidate` off by default, and MUI passes `required` and `type="email"`
 * on to the input, so every form of the apps, whoever renders it, gets `novalidate` here, in one place.
 */
import { useEffect } from 'react';

const UNMARKED = 'form:not([novalidate])';

/** Marks the forms under `root` now and whenever forms are added; returns the stop function. */
export function keepFormsSelfValidating(root: ParentNode & Node): () => void {
  const mark = () => {
    for (const form of root.querySelectorAll<HTMLFormElement>(UNMARKED)) form.noValidate = true;
  };
  mark();
  const observer = new MutationObserver(mark);
  observer.observe(root, { childList: true, subtree: true });
  return () => observer.disconnect();
}

export function useSelfValidatingForms(): void {
  useEffect(() => keepFormsSelfValidating(document.body), []);
}
