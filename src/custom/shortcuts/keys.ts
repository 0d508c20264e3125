/**
 * The back office's keyboard shortcuts (issue 18 item 8): one key each, never while the user types.
 * A key typed in a text field, a select, a combobox or the rich text editor (contenteditable) belongs
 * to that field; a key with Ctrl, Alt or Meta belongs to the browser or the system.
 */
import { useEffect, useRef } from 'react';

/** Elements whose keys are typing: every input that takes text, selects, and widgets that act as one. */
const TYPING_ROLES = new Set(['textbox', 'combobox', 'searchbox', 'spinbutton', 'listbox', 'slider']);
const NOT_TYPING_INPUTS = new Set([
  'checkbox',
  'radio',
  'button',
  'submit',
  'reset',
  'file',
  'image',
  'range',
]);

export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLInputElement) return !NOT_TYPING_INPUTS.has(target.type);
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  // A widget that edits text or picks from a list (MUI's select is a role="combobox" div): its keys.
  const role = target.closest('[role]')?.getAttribute('role');
  return !!role && TYPING_ROLES.has(role);
}

/** Whether a key press is a shortcut press: no modifier but Shift, not typed in a field, not handled yet. */
export function isShortcutPress(event: KeyboardEvent): boolean {
  return (
    !event.defaultPrevented && !event.ctrlKey && !event.altKey && !event.metaKey && !isTyping(event.target)
  );
}

/** A handler answers false when the key is not its to take (another list has the focus): it goes on. */
export type ShortcutMap = Record<string, (event: KeyboardEvent) => boolean | void>;

/**
 * Calls the handler of a pressed key (`event.key`: 'j', '?', 'Enter') while `enabled`; the handlers
 * may change at every render without the listener being added again.
 */
export function useShortcuts(shortcuts: ShortcutMap, enabled = true): void {
  const current = useRef(shortcuts);
  useEffect(() => {
    current.current = shortcuts;
  });
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (!isShortcutPress(event)) return;
      const handler = current.current[event.key];
      if (!handler || handler(event) === false) return;
      event.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled]);
}
