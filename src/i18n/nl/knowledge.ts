/** De schermen van de kennisbank (issue 39, item 4), in het Nederlands. */
const knowledgeMessages = {
  knowledge: {
    suggestions: 'Deze artikelen beantwoorden misschien uw vraag',
    suggestions_hint: 'Open een artikel om het te lezen; lost het uw vraag op, dan is geen ticket nodig.',
    solved: 'Dit heeft het opgelost',
    not_solved: 'Terug naar mijn ticket',
    solved_thanks: 'Fijn dat het geholpen heeft. Er is geen ticket aangemaakt.',
    failed: 'Het artikel kon niet worden geladen.',
    link_button: 'Artikellink',
    link_title: 'Een link naar een artikel invoegen',
    link_hint: 'Typ een paar woorden; kies een artikel om de link bij de cursor in te voegen.',
    link_search: 'Artikelen zoeken',
    link_none: 'Geen artikelen gevonden.',
    link_list: 'Artikelen',
    close: 'Sluiten',
  },
};

export default knowledgeMessages;
