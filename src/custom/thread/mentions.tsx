/**
 * '@' mentions of operators in the editor (SPEC 5, back office). Typing '@' and letters lists the
 * operators whose name starts a word with them; arrow keys move, Enter or Tab picks, Escape closes.
 * The list is a small DOM popup of its own (a listbox under the caret), so the editor needs no other
 * UI library. A mention is stored as `<span class="mention" data-type="mention" data-id data-label>`,
 * which the server's sanitiser keeps.
 */
import Mention from '@tiptap/extension-mention';
import type { SuggestionKeyDownProps, SuggestionProps } from '@tiptap/suggestion';

export interface MentionCandidate {
  id: number | string;
  label: string;
}

const MAX_ITEMS = 8;

export function matchCandidates(candidates: MentionCandidate[], query: string): MentionCandidate[] {
  const q = query.trim().toLowerCase();
  return candidates
    .filter(
      (c) =>
        q === '' ||
        c.label
          .toLowerCase()
          .split(/\s+/)
          .some((w) => w.startsWith(q)),
    )
    .slice(0, MAX_ITEMS);
}

class MentionPopup {
  private root = document.createElement('ul');
  private items: MentionCandidate[] = [];
  private selected = 0;
  private command: ((item: { id: string; label: string }) => void) | null = null;

  constructor() {
    this.root.setAttribute('role', 'listbox');
    this.root.className = 'mention-popup';
    Object.assign(this.root.style, {
      position: 'fixed',
      zIndex: '1500',
      margin: '0',
      padding: '4px 0',
      listStyle: 'none',
      background: '#ffffff',
      color: '#000000',
      border: '1px solid #9e9e9e',
      borderRadius: '4px',
      boxShadow: '0 2px 8px rgba(0,0,0,0.2)',
      minWidth: '180px',
    });
    document.body.appendChild(this.root);
  }

  update(props: SuggestionProps<MentionCandidate>) {
    this.items = props.items;
    this.command = (item) => props.command(item);
    this.selected = Math.min(this.selected, Math.max(0, this.items.length - 1));
    const rect = props.clientRect?.();
    if (rect) {
      this.root.style.left = `${rect.left}px`;
      this.root.style.top = `${rect.bottom + 4}px`;
    }
    this.render();
  }

  private render() {
    this.root.replaceChildren(
      ...this.items.map((item, i) => {
        const li = document.createElement('li');
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', String(i === this.selected));
        li.textContent = item.label;
        Object.assign(li.style, {
          padding: '4px 12px',
          cursor: 'pointer',
          background: i === this.selected ? '#e3f2fd' : 'transparent',
        });
        li.addEventListener('mousedown', (e) => {
          e.preventDefault();
          this.pick(i);
        });
        return li;
      }),
    );
    this.root.style.display = this.items.length ? 'block' : 'none';
  }

  private pick(i: number) {
    const item = this.items[i];
    if (item) this.command?.({ id: String(item.id), label: item.label });
  }

  keyDown({ event }: SuggestionKeyDownProps): boolean {
    if (!this.items.length) return false;
    if (event.key === 'ArrowDown') this.selected = (this.selected + 1) % this.items.length;
    else if (event.key === 'ArrowUp')
      this.selected = (this.selected - 1 + this.items.length) % this.items.length;
    else if (event.key === 'Enter' || event.key === 'Tab') {
      this.pick(this.selected);
      return true;
    } else if (event.key === 'Escape') {
      this.destroy();
      return true;
    } else return false;
    this.render();
    return true;
  }

  destroy() {
    this.root.remove();
  }
}

/** The Mention extension over a list of candidates, read (from the ref) when '@' is typed. */
export function mentionExtension(candidates: { readonly current: MentionCandidate[] }) {
  return Mention.configure({
    HTMLAttributes: { class: 'mention' },
    suggestion: {
      char: '@',
      items: ({ query }) => matchCandidates(candidates.current, query),
      render: () => {
        let popup: MentionPopup | null = null;
        return {
          onStart: (props) => {
            popup = new MentionPopup();
            popup.update(props);
          },
          onUpdate: (props) => popup?.update(props),
          onKeyDown: (props) => popup?.keyDown(props) ?? false,
          onExit: () => {
            popup?.destroy();
            popup = null;
          },
        };
      },
    },
  });
}
