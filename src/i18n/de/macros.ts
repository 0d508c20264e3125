/** Makros und der Aktionseditor der Automatisierung (Issue 37, Punkte 1 und 3), auf Deutsch. */
const macrosMessages = {
  macros: {
    button: 'Makros',
    menu: 'Makro anwenden',
    none: 'Noch keine Makros.',
    manage: 'Makros verwalten',
    shortcut_hint: 'm, dann %{digit}',
    applied:
      'Makro „%{name}“ auf %{smart_count} Ticket angewendet. |||| Makro „%{name}“ auf %{smart_count} Tickets angewendet.',
    bulk: 'Makro…',
  },
  automation_actions: {
    action: 'Aktion %{number}',
    type: 'Was sie tut',
    types: {
      set: 'Ein Feld setzen',
      note: 'Eine interne Notiz hinzufügen',
      reply: 'Dem Kunden mit einem Textbaustein antworten',
      mail_operators: 'Mitarbeitenden einen Textbaustein mailen',
      notify: 'Mitarbeitende benachrichtigen',
    },
    field: 'Feld',
    value: 'Neuer Wert',
    body: 'Notiz',
    text: 'Text',
    standard_answer: 'Textbaustein',
    to: 'An',
    recipients: {
      assigned: 'Der zugewiesene Mitarbeitende',
      group: 'Die Mitarbeitenden der Ticketgruppe',
    },
  },
};

export default macrosMessages;
