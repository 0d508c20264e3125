import type { WorkspaceMessages } from '../en/workspace.ts';

/** De werkplek van de operator (issue 18) in het Nederlands: zoeken in de balk en de sneltoetsen. */
const workspaceMessages: WorkspaceMessages = {
  workspace: {
    search: {
      label: 'Zoek tickets, bedrijven, klanten, assets, offertes en facturen',
      placeholder: 'Zoeken… (/)',
      results: 'Zoekresultaten',
      too_short: 'Typ minstens %{smart_count} tekens.',
      searching: 'Zoeken…',
      none: 'Niets gevonden voor “%{text}”.',
      failed: 'Het zoeken is mislukt. Probeer het opnieuw.',
      count: '%{smart_count} resultaat |||| %{smart_count} resultaten',
    },
    answers: {
      button: 'Standaardantwoord',
      title: 'Standaardantwoord invoegen',
      search: 'Zoeken op titel',
      category: 'Categorie',
      all_categories: 'Alle categorieën',
      no_category: 'Geen categorie',
      none: 'Geen standaardantwoorden gevonden.',
      failed: 'De standaardantwoorden konden niet worden geladen. Probeer het opnieuw.',
      list: 'Standaardantwoorden',
      hint: 'Kies een antwoord om het bij de cursor in te voegen; de plaatshouders worden voor dit ticket ingevuld.',
      close: 'Sluiten',
    },
    templates: {
      new_ticket: 'Nieuw ticket van sjabloon',
    },
    shortcuts: {
      title: 'Sneltoetsen',
      button: 'Sneltoetsen',
      hint: 'Sneltoetsen doen niets zolang je in een veld typt.',
      close: 'Sluiten',
      key: 'Toets',
      action: 'Wat hij doet',
      groups: {
        everywhere: 'Overal',
        list: 'In een lijst',
        ticket: 'Op een ticket',
      },
      actions: {
        search: 'Zoeken',
        help: 'Deze sneltoetsen tonen',
        next: 'Volgende rij',
        previous: 'Vorige rij',
        open: 'De gekozen rij openen',
        reply: 'De klant antwoorden',
        note: 'Een interne notitie schrijven',
        close: 'Het ticket sluiten',
        macros: 'Macro’s: daarna past het cijfer van een macro hem toe',
      },
    },
  },
};

export default workspaceMessages;
