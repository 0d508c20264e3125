/** The apps' texts in English, the actions on records: bulk, invoicing, quote, quick and record actions. */
const actions = {
  bulk: {
    toolbar: 'Actions for the selected rows',
    selected: '%{smart_count} selected',
    select_all: 'Select all rows on this page',
    select_row: 'Select row %{label}',
    select_card: 'Select %{label}',
    select_all_cards: 'Select all on this page',
    none: 'Nobody',
    all_of_filter: 'All %{smart_count} rows of the filter selected',
    select_filter: 'Select all %{smart_count} rows of the filter',
    only_page: 'Only the rows on this page',
    changed: '%{smart_count} %{name} changed',
    close: 'Close',
    merge: 'Merge',
    confirm_close: 'Close the %{smart_count} selected rows?',
    merge_title: 'Merge into %{kept}',
    confirm_merge:
      '%{merged} is merged into %{kept}, the row selected first: its messages, time and other data move to %{kept}, and %{merged} is closed. Nothing is deleted. |||| %{merged} are merged into %{kept}, the row selected first: their messages, time and other data move to %{kept}, and %{merged} are closed. Nothing is deleted.',
  },
  invoicing: {
    invoice: 'Invoice',
    deinvoice: 'De-invoice',
    invoiced: 'Line added to the draft invoice.',
    deinvoiced: 'Line removed from the draft invoice.',
    open_only: 'Not invoiced only',
    on_draft_invoice: 'On the draft invoice',
    on_sent_invoice: 'Invoiced (%{code})',
    download_csv: 'Download CSV',
    state_draft: 'Draft',
    state_invoiced: 'Invoiced',
    export: 'Export',
    exported: 'Invoice exported.',
    re_export_requested: 'Re-export requested.',
    restore: 'Restore to concept',
    restore_confirm:
      'Restore this invoice to concept? Its external number is cleared and the invoice can be changed again.',
    restored: 'Invoice restored to concept.',
  },
  quote_actions: {
    send: 'Send',
    send_again: 'Send again',
    sent: 'Quote sent to %{email}.',
    decline: 'Decline',
    decline_confirm: 'Decline this quote? The client can no longer accept it afterwards.',
    declined: 'Quote declined.',
    duplicate: 'Duplicate',
    duplicated: 'Quote duplicated.',
    download: 'Download PDF',
    downloaded: 'PDF downloaded.',
  },
  quick_actions: {
    label: 'Quick actions',
    assign_to_me: 'Assign to me',
    nobody: 'Nobody',
  },
  record_actions: {
    label: 'Actions',
    close: 'Close',
    restore: 'Restore',
    clone: 'Clone',
    merge: 'Merge',
    archive: 'Archive',
    archived: 'Archived',
    archived_since: 'Archived since %{date}',
    ticket_closed: 'Ticket closed.',
    ticket_restored: 'Ticket restored.',
    ticket_cloned: 'Ticket cloned.',
    tickets_merged: 'Tickets merged.',
    company_archived: 'Company archived.',
    companies_merged: 'Companies merged.',
    group_archived: 'Ticket group archived.',
    group_restored: 'Ticket group restored.',
    archive_company_confirm: 'Do you really want to archive this company?',
    merge_tickets_title: 'Merge tickets into %{label}',
    merge_tickets_intro:
      'Choose tickets of the same company. Their messages, time and products move to this ticket; the chosen tickets are closed.',
    merge_tickets_confirm:
      '%{merged} is merged into %{kept}: its messages, time and products move to %{kept}, and %{merged} is closed. Nothing is deleted. |||| %{merged} are merged into %{kept}: their messages, time and products move to %{kept}, and %{merged} are closed. Nothing is deleted.',
    merge_companies_title: 'Merge companies into %{label}',
    merge_companies_intro:
      'Choose the companies to merge into this one. Their tickets, contracts, clients and other data move to this company; the chosen companies are deleted.',
    merge_companies_confirm:
      '%{merged} is merged into %{kept}: its tickets, contracts, clients and other data move to %{kept}, and %{merged} is then deleted. |||| %{merged} are merged into %{kept}: their tickets, contracts, clients and other data move to %{kept}, and %{merged} are then deleted.',
    merge_search: 'Search',
    merge_next: 'Next',
  },
};

export type ActionTexts = typeof actions;

export default actions;
