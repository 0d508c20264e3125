import type { ActionTexts } from '../../en/app/actions.ts';

/** The apps' texts in Dutch, the actions on records: bulk, invoicing, quote, quick and record actions. */
const actions: ActionTexts = {
  bulk: {
    toolbar: 'Acties voor de geselecteerde rijen',
    selected: '%{smart_count} geselecteerd',
    select_all: 'Alle rijen op deze pagina selecteren',
    select_row: 'Rij %{label} selecteren',
    select_card: '%{label} selecteren',
    select_all_cards: 'Alles op deze pagina selecteren',
    none: 'Niemand',
    all_of_filter: 'Alle %{smart_count} rijen van het filter geselecteerd',
    select_filter: 'Alle %{smart_count} rijen van het filter selecteren',
    only_page: 'Alleen de rijen op deze pagina',
    changed: '%{smart_count} %{name} gewijzigd',
    close: 'Sluiten',
    merge: 'Samenvoegen',
    confirm_close: 'De %{smart_count} geselecteerde rijen sluiten?',
    merge_title: 'Samenvoegen in %{kept}',
    confirm_merge:
      '%{merged} wordt samengevoegd in %{kept}, de rij die het eerst is geselecteerd: de berichten, tijd en andere gegevens gaan naar %{kept} en %{merged} wordt gesloten. Er wordt niets verwijderd. |||| %{merged} worden samengevoegd in %{kept}, de rij die het eerst is geselecteerd: hun berichten, tijd en andere gegevens gaan naar %{kept} en %{merged} worden gesloten. Er wordt niets verwijderd.',
  },
  invoicing: {
    invoice: 'Factureren',
    deinvoice: 'Niet factureren',
    invoiced: 'Regel toegevoegd aan conceptfactuur.',
    deinvoiced: 'Regel verwijderd van conceptfactuur.',
    open_only: 'Alleen niet gefactureerd',
    on_draft_invoice: 'Op conceptfactuur',
    on_sent_invoice: 'Gefactureerd (%{code})',
    download_csv: 'CSV downloaden',
    state_draft: 'Concept',
    state_invoiced: 'Gefactureerd',
    export: 'Exporteren',
    exported: 'Factuur geëxporteerd.',
    re_export_requested: 'Opnieuw exporteren aangevraagd.',
    restore: 'Terugzetten naar concept',
    restore_confirm:
      'Deze factuur terugzetten naar concept? Het externe nummer vervalt en de factuur kan weer worden aangepast.',
    restored: 'Factuur teruggezet naar concept.',
  },
  quote_actions: {
    send: 'Versturen',
    send_again: 'Opnieuw versturen',
    sent: 'Offerte verstuurd naar %{email}.',
    decline: 'Afwijzen',
    decline_confirm: 'Deze offerte afwijzen? De klant kan haar daarna niet meer accepteren.',
    declined: 'Offerte afgewezen.',
    duplicate: 'Dupliceren',
    duplicated: 'Offerte gedupliceerd.',
    download: 'PDF downloaden',
    downloaded: 'PDF gedownload.',
  },
  quick_actions: {
    label: 'Snelle acties',
    assign_to_me: 'Aan mij toewijzen',
    nobody: 'Niemand',
  },
  record_actions: {
    label: 'Acties',
    close: 'Sluiten',
    restore: 'Herstellen',
    clone: 'Klonen',
    merge: 'Samenvoegen',
    archive: 'Archiveren',
    archived: 'Gearchiveerd',
    archived_since: 'Gearchiveerd sinds %{date}',
    ticket_closed: 'Ticket gesloten.',
    ticket_restored: 'Ticket hersteld.',
    ticket_cloned: 'Ticket gekloond.',
    tickets_merged: 'Tickets samengevoegd.',
    company_archived: 'Bedrijf gearchiveerd.',
    companies_merged: 'Bedrijven samengevoegd.',
    group_archived: 'Ticketgroep gearchiveerd.',
    group_restored: 'Ticketgroep hersteld.',
    archive_company_confirm: 'Weet je zeker dat je dit bedrijf wilt archiveren?',
    merge_tickets_title: 'Tickets samenvoegen in %{label}',
    merge_tickets_intro:
      'Kies tickets van hetzelfde bedrijf. Hun berichten, tijd en producten gaan naar dit ticket; de gekozen tickets worden gesloten.',
    merge_tickets_confirm:
      '%{merged} wordt samengevoegd in %{kept}: de berichten, tijd en producten gaan naar %{kept} en %{merged} wordt gesloten. Er wordt niets verwijderd. |||| %{merged} worden samengevoegd in %{kept}: hun berichten, tijd en producten gaan naar %{kept} en %{merged} worden gesloten. Er wordt niets verwijderd.',
    merge_companies_title: 'Bedrijven samenvoegen in %{label}',
    merge_companies_intro:
      'Kies de bedrijven die in dit bedrijf opgaan. Hun tickets, contracten, klanten en andere gegevens gaan naar dit bedrijf; de gekozen bedrijven worden verwijderd.',
    merge_companies_confirm:
      '%{merged} wordt samengevoegd in %{kept}: de tickets, contracten, klanten en andere gegevens gaan naar %{kept} en daarna wordt %{merged} verwijderd. |||| %{merged} worden samengevoegd in %{kept}: hun tickets, contracten, klanten en andere gegevens gaan naar %{kept} en daarna worden %{merged} verwijderd.',
    merge_search: 'Zoeken',
    merge_next: 'Verder',
  },
};

export default actions;
