import type { ScreenTexts } from '../../en/app/screens.ts';
import type { DeepPartial } from '../../types.ts';

/**
 * The apps' texts in German, the shared screens and inputs: pages, date badges and pickers, time,
 * uploads, tabs, common words.
 */
const screens: DeepPartial<ScreenTexts> = {
  pages: {
    not_found: 'Seite nicht gefunden',
    not_found_text: 'Die gesuchte Seite existiert nicht oder wurde verschoben.',
    access_denied: 'Zugriff verweigert',
    access_denied_text: 'Sie sind nicht berechtigt, diese Seite zu öffnen.',
    home: 'Zur Startseite',
    back: 'Zurück',
    back_to_tickets: 'Zurück zu den Tickets',
    back_to_quote: 'Zurück zum Angebot',
    sign_in_to_open: 'Anmelden, um diese Seite zu öffnen',
    attempted_path: 'Angeforderte Seite:',
    portal_not_found: 'Portal nicht gefunden',
    portal_not_found_text: 'Dieses Portal existiert nicht. Prüfen Sie die verwendete Adresse.',
    portal_not_found_named: 'Das Portal „%{name}“ existiert nicht. Prüfen Sie die verwendete Adresse.',
  },
  due_date: {
    past: 'Überfällig',
    upcoming: 'Bald fällig',
    none: 'Keine Frist',
  },
  sla_badge: {
    met: 'Rechtzeitig erfüllt',
    none: 'Keine SLA-Frist',
    paused: 'Pausiert',
    breached: 'Verletzt',
  },
  contract_end: {
    green: 'Läuft',
    yellow: 'Endet innerhalb eines Monats',
    red: 'Beendet',
    none: 'Kein Enddatum',
  },
  date_picker: {
    label: 'Frist',
    clear: 'Löschen',
    now: 'Jetzt',
  },
  time_input: {
    hint: 'hh:mm oder Minuten',
    invalid: 'Geben Sie eine Zeit als hh:mm oder eine Anzahl Minuten ein',
  },
  custom_fields: {
    required: 'Pflichtfeld',
  },
  upload: {
    too_large: 'Die Datei ist zu groß: die Grenze liegt bei %{limit}.',
    too_many: 'Es können höchstens %{count} Dateien auf einmal gesendet werden.',
  },
  tabs: {
    label: 'Registerkarten des Datensatzes',
    scroll_left: 'Nach links scrollen',
    scroll_right: 'Nach rechts scrollen',
    add: '%{type} hinzufügen',
    form: '%{type} hier hinzufügen',
  },
  common: {
    loading: 'Wird geladen…',
    download: 'Herunterladen',
    refresh: 'Aktualisieren',
    close: 'Schließen',
    save: 'Speichern',
    cancel: 'Abbrechen',
    empty_value: '—',
  },
};

export default screens;
