/** Die Bildschirme der Wissensdatenbank (Issue 39, Punkt 4), auf Deutsch. */
const knowledgeMessages = {
  knowledge: {
    suggestions: 'Diese Artikel beantworten vielleicht Ihre Frage',
    suggestions_hint: 'Öffnen Sie einen Artikel; löst er Ihre Frage, ist kein Ticket nötig.',
    solved: 'Das hat es gelöst',
    not_solved: 'Zurück zu meinem Ticket',
    solved_thanks: 'Schön, dass es geholfen hat. Es wurde kein Ticket erstellt.',
    failed: 'Der Artikel konnte nicht geladen werden.',
    link_button: 'Artikel-Link',
    link_title: 'Einen Link zu einem Artikel einfügen',
    link_hint: 'Geben Sie einige Wörter ein; wählen Sie einen Artikel, um seinen Link am Cursor einzufügen.',
    link_search: 'Artikel suchen',
    link_none: 'Keine Artikel gefunden.',
    link_list: 'Artikel',
    close: 'Schließen',
  },
};

export default knowledgeMessages;
