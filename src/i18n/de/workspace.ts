import type { WorkspaceMessages } from '../en/workspace.ts';

/** Der Arbeitsplatz des Operators (Issue 18) auf Deutsch: die Suche in der Leiste und die Tastenkürzel. */
const workspaceMessages: WorkspaceMessages = {
  workspace: {
    search: {
      label: 'Tickets, Firmen, Kunden, Assets, Angebote und Rechnungen suchen',
      placeholder: 'Suchen… (/)',
      results: 'Suchergebnisse',
      too_short: 'Geben Sie mindestens %{smart_count} Zeichen ein.',
      searching: 'Suche läuft…',
      none: 'Nichts gefunden für „%{text}“.',
      failed: 'Die Suche ist fehlgeschlagen. Versuchen Sie es erneut.',
      count: '%{smart_count} Ergebnis |||| %{smart_count} Ergebnisse',
    },
    answers: {
      button: 'Textbaustein',
      title: 'Textbaustein einfügen',
      search: 'Nach Titel suchen',
      category: 'Kategorie',
      all_categories: 'Alle Kategorien',
      no_category: 'Keine Kategorie',
      none: 'Keine Textbausteine gefunden.',
      failed: 'Die Textbausteine konnten nicht geladen werden. Versuchen Sie es erneut.',
      list: 'Textbausteine',
      hint: 'Wählen Sie einen Baustein, um ihn an der Cursorposition einzufügen; die Platzhalter werden für dieses Ticket ausgefüllt.',
      close: 'Schließen',
    },
    templates: {
      new_ticket: 'Neues Ticket aus Vorlage',
    },
    shortcuts: {
      title: 'Tastenkürzel',
      button: 'Tastenkürzel',
      hint: 'Tastenkürzel wirken nicht, während Sie in einem Feld tippen.',
      close: 'Schließen',
      key: 'Taste',
      action: 'Was sie tut',
      groups: {
        everywhere: 'Überall',
        list: 'In einer Liste',
        ticket: 'Auf einem Ticket',
      },
      actions: {
        search: 'Suchen',
        help: 'Diese Tastenkürzel anzeigen',
        next: 'Nächste Zeile',
        previous: 'Vorherige Zeile',
        open: 'Die gewählte Zeile öffnen',
        reply: 'Dem Kunden antworten',
        note: 'Eine interne Notiz schreiben',
        close: 'Das Ticket schließen',
        macros: 'Makros: danach wendet die Ziffer eines Makros es an',
      },
    },
  },
};

export default workspaceMessages;
