// @vitest-environment jsdom
/**
 * The keyboard shortcuts (issue 18 item 8) never fire while the user types: in a text field, a select,
 * a combobox or the rich text editor (contenteditable); nor with Ctrl, Alt or Meta held.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isShortcutPress, isTyping } from '../../src/custom/shortcuts/keys.ts';

function element(html: string): HTMLElement {
  document.body.innerHTML = html;
  return document.querySelector('[data-target]')!;
}

function press(target: HTMLElement, init: KeyboardEventInit = {}): KeyboardEvent {
  const event = new KeyboardEvent('keydown', { key: 'j', bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('isTyping', () => {
  it.each([
    ['a text input', '<input data-target type="text">'],
    ['a search input', '<input data-target type="search">'],
    ['an input without a type', '<input data-target>'],
    ['a textarea', '<textarea data-target></textarea>'],
    ['a select', '<select data-target><option>a</option></select>'],
    ['a MUI select (role combobox)', '<div role="combobox" tabindex="0" data-target></div>'],
    ['an option of an open list', '<ul role="listbox"><li tabindex="0" data-target>a</li></ul>'],
  ])('is true in %s', (_, html) => {
    expect(isTyping(element(html))).toBe(true);
  });

  it('is true in the rich text editor (contenteditable), down to its paragraphs', () => {
    const editor = element('<div contenteditable="true"><p data-target>tekst</p></div>');
    // jsdom has no isContentEditable: the editor's own element says it.
    Object.defineProperty(editor.parentElement!, 'isContentEditable', { value: true });
    Object.defineProperty(editor, 'isContentEditable', { value: true });
    expect(isTyping(editor)).toBe(true);
  });

  it.each([
    ['a table row', '<table><tbody><tr tabindex="0" data-target><td>1</td></tr></tbody></table>'],
    ['a button', '<button data-target>Sluiten</button>'],
    ['a checkbox', '<input type="checkbox" data-target>'],
    ['the page itself', '<main data-target></main>'],
  ])('is false on %s', (_, html) => {
    expect(isTyping(element(html))).toBe(false);
  });
});

describe('isShortcutPress', () => {
  it('takes a plain key and Shift (? is Shift+/) outside a field', () => {
    const row = element('<main data-target></main>');
    let seen: boolean[] = [];
    document.addEventListener('keydown', (e) => seen.push(isShortcutPress(e)), { once: true });
    press(row);
    document.addEventListener('keydown', (e) => seen.push(isShortcutPress(e)), { once: true });
    press(row, { key: '?', shiftKey: true });
    expect(seen).toEqual([true, true]);
    seen = [];
    for (const modifier of ['ctrlKey', 'altKey', 'metaKey'] as const) {
      document.addEventListener('keydown', (e) => seen.push(isShortcutPress(e)), { once: true });
      press(row, { [modifier]: true });
    }
    expect(seen).toEqual([false, false, false]);
  });

  it('leaves a key typed in a field, or already handled, alone', () => {
    const input = element('<input data-target>');
    const seen: boolean[] = [];
    document.addEventListener('keydown', (e) => seen.push(isShortcutPress(e)), { once: true });
    press(input);
    const main = element('<main data-target></main>');
    main.addEventListener('keydown', (e) => e.preventDefault(), { once: true });
    document.addEventListener('keydown', (e) => seen.push(isShortcutPress(e)), { once: true });
    press(main);
    expect(seen).toEqual([false, false]);
  });
});
