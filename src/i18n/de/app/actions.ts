import type { ActionTexts } from '../../en/app/actions.ts';
import type { DeepPartial } from '../../types.ts';

/** The apps' texts in German, the actions on records: bulk, invoicing, quote, quick and record actions. */
const actions: DeepPartial<ActionTexts> = {
  bulk: {
    toolbar: 'Aktionen für die ausgewählten Zeilen',
    selected: '%{smart_count} ausgewählt',
    select_all: 'Alle Zeilen dieser Seite auswählen',
    select_row: 'Zeile %{label} auswählen',
    select_card: '%{label} auswählen',
    select_all_cards: 'Alle auf dieser Seite auswählen',
    none: 'Niemand',
    all_of_filter: 'Alle %{smart_count} Zeilen des Filters ausgewählt',
    select_filter: 'Alle %{smart_count} Zeilen des Filters auswählen',
    only_page: 'Nur die Zeilen dieser Seite',
    changed: '%{smart_count} %{name} geändert',
    close: 'Schließen',
    merge: 'Zusammenführen',
    confirm_close: 'Die %{smart_count} ausgewählten Zeilen schließen?',
    merge_title: 'In %{kept} zusammenführen',
    confirm_merge:
      '%{merged} wird in %{kept} zusammengeführt, die zuerst ausgewählte Zeile: Nachrichten, Zeiten und andere Daten gehen an %{kept}, und %{merged} wird geschlossen. Es wird nichts gelöscht. |||| %{merged} werden in %{kept} zusammengeführt, die zuerst ausgewählte Zeile: ihre Nachrichten, Zeiten und anderen Daten gehen an %{kept}, und %{merged} werden geschlossen. Es wird nichts gelöscht.',
  },
  invoicing: {
    invoice: 'Abrechnen',
    deinvoice: 'Nicht abrechnen',
    invoiced: 'Zeile zum Rechnungsentwurf hinzugefügt.',
    deinvoiced: 'Zeile aus dem Rechnungsentwurf entfernt.',
    open_only: 'Nur nicht abgerechnet',
    on_draft_invoice: 'Auf dem Rechnungsentwurf',
    on_sent_invoice: 'Abgerechnet (%{code})',
    download_csv: 'CSV herunterladen',
    state_draft: 'Entwurf',
    state_invoiced: 'Abgerechnet',
    export: 'Exportieren',
    exported: 'Rechnung exportiert.',
    re_export_requested: 'Erneuter Export angefordert.',
    restore: 'Zurück zum Entwurf',
    restore_confirm:
      'Diese Rechnung zurück zum Entwurf setzen? Die externe Nummer entfällt und die Rechnung kann wieder geändert werden.',
    restored: 'Rechnung zurück zum Entwurf gesetzt.',
  },
  quote_actions: {
    send: 'Senden',
    send_again: 'Erneut senden',
    sent: 'Angebot an %{email} gesendet.',
    decline: 'Ablehnen',
    decline_confirm: 'Dieses Angebot ablehnen? Der Kunde kann es danach nicht mehr annehmen.',
    declined: 'Angebot abgelehnt.',
    duplicate: 'Duplizieren',
    duplicated: 'Angebot dupliziert.',
    download: 'PDF herunterladen',
    downloaded: 'PDF heruntergeladen.',
  },
  quick_actions: {
    label: 'Schnellaktionen',
    assign_to_me: 'Mir zuweisen',
    nobody: 'Niemand',
  },
  record_actions: {
    label: 'Aktionen',
    close: 'Schließen',
    restore: 'Wiederherstellen',
    clone: 'Klonen',
    merge: 'Zusammenführen',
    archive: 'Archivieren',
    archived: 'Archiviert',
    archived_since: 'Archiviert seit %{date}',
    ticket_closed: 'Ticket geschlossen.',
    ticket_restored: 'Ticket wiederhergestellt.',
    ticket_cloned: 'Ticket geklont.',
    tickets_merged: 'Tickets zusammengeführt.',
    company_archived: 'Firma archiviert.',
    companies_merged: 'Firmen zusammengeführt.',
    group_archived: 'Ticketgruppe archiviert.',
    group_restored: 'Ticketgruppe wiederhergestellt.',
    archive_company_confirm: 'Möchten Sie diese Firma wirklich archivieren?',
    merge_tickets_title: 'Tickets in %{label} zusammenführen',
    merge_tickets_intro:
      'Wählen Sie Tickets derselben Firma. Ihre Nachrichten, Zeiten und Produkte gehen an dieses Ticket; die gewählten Tickets werden geschlossen.',
    merge_tickets_confirm:
      '%{merged} wird in %{kept} zusammengeführt: Nachrichten, Zeiten und Produkte gehen an %{kept}, und %{merged} wird geschlossen. Es wird nichts gelöscht. |||| %{merged} werden in %{kept} zusammengeführt: ihre Nachrichten, Zeiten und Produkte gehen an %{kept}, und %{merged} werden geschlossen. Es wird nichts gelöscht.',
    merge_companies_title: 'Firmen in %{label} zusammenführen',
    merge_companies_intro:
      'Wählen Sie die Firmen, die in dieser Firma aufgehen. Ihre Tickets, Verträge, Kunden und weiteren Daten gehen an diese Firma; die gewählten Firmen werden gelöscht.',
    merge_companies_confirm:
      '%{merged} wird in %{kept} zusammengeführt: Tickets, Verträge, Kunden und andere Daten gehen an %{kept}, danach wird %{merged} gelöscht. |||| %{merged} werden in %{kept} zusammengeführt: ihre Tickets, Verträge, Kunden und anderen Daten gehen an %{kept}, danach werden %{merged} gelöscht.',
    merge_search: 'Suchen',
    merge_next: 'Weiter',
  },
};

export default actions;
