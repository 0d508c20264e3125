import type { ScreenTexts } from '../../en/app/screens.ts';

/**
 * The apps' texts in Dutch, the shared screens and inputs: pages, date badges and pickers, time,
 * uploads, tabs, common words.
 */
const screens: ScreenTexts = {
  pages: {
    not_found: 'Pagina niet gevonden',
    not_found_text: 'De pagina die je zoekt bestaat niet of is verplaatst.',
    access_denied: 'Geen toegang',
    access_denied_text: 'Je hebt geen rechten om deze pagina te openen.',
    home: 'Naar de startpagina',
    back: 'Terug',
    back_to_tickets: 'Terug naar de tickets',
    back_to_quote: 'Terug naar de offerte',
    sign_in_to_open: 'Inloggen om deze pagina te openen',
    attempted_path: 'Gevraagde pagina:',
    portal_not_found: 'Portal niet gevonden',
    portal_not_found_text: 'Dit portal bestaat niet. Controleer het adres dat je gebruikt.',
    portal_not_found_named: 'Het portal "%{name}" bestaat niet. Controleer het adres dat je gebruikt.',
  },
  due_date: {
    past: 'Verlopen',
    upcoming: 'Binnenkort',
    none: 'Geen deadline',
  },
  sla_badge: {
    met: 'Op tijd gehaald',
    none: 'Geen SLA-termijn',
    paused: 'Gepauzeerd',
    breached: 'Overschreden',
  },
  contract_end: {
    green: 'Loopt',
    yellow: 'Loopt binnen een maand af',
    red: 'Afgelopen',
    none: 'Geen einddatum',
  },
  date_picker: {
    label: 'Deadline',
    clear: 'Wissen',
    now: 'Nu',
  },
  time_input: {
    hint: 'uu:mm of minuten',
    invalid: 'Vul een tijd in als uu:mm of een aantal minuten',
  },
  custom_fields: {
    required: 'verplicht',
  },
  upload: {
    too_large: 'Het bestand is te groot: de grens is %{limit}.',
    too_many: 'Er kunnen hoogstens %{count} bestanden tegelijk worden verstuurd.',
  },
  tabs: {
    label: 'Tabbladen van het record',
    scroll_left: 'Naar links scrollen',
    scroll_right: 'Naar rechts scrollen',
    add: '%{type} toevoegen',
    form: '%{type} hier toevoegen',
  },
  common: {
    loading: 'Laden…',
    download: 'Downloaden',
    refresh: 'Vernieuwen',
    close: 'Sluiten',
    save: 'Opslaan',
    cancel: 'Annuleren',
    empty_value: '—',
  },
};

export default screens;
