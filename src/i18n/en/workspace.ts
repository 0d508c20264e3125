/** The operator's workspace (issue 18) in English: the app bar's search and the keyboard shortcuts. */
const workspaceMessages = {
  workspace: {
    search: {
      label: 'Search tickets, companies, clients, assets, quotes and invoices',
      placeholder: 'Search… (/)',
      results: 'Search results',
      too_short: 'Type at least %{smart_count} characters.',
      searching: 'Searching…',
      none: 'Nothing found for “%{text}”.',
      failed: 'The search failed. Try again.',
      count: '%{smart_count} result |||| %{smart_count} results',
    },
    answers: {
      button: 'Standard answer',
      title: 'Insert a standard answer',
      search: 'Search by title',
      category: 'Category',
      all_categories: 'All categories',
      no_category: 'No category',
      none: 'No standard answers found.',
      failed: 'The standard answers could not be loaded. Try again.',
      list: 'Standard answers',
      hint: 'Choose an answer to insert it at the cursor; its placeholders are filled in for this ticket.',
      close: 'Close',
    },
    templates: {
      new_ticket: 'New ticket from template',
    },
    shortcuts: {
      title: 'Keyboard shortcuts',
      button: 'Keyboard shortcuts',
      hint: 'Shortcuts do nothing while you type in a field.',
      close: 'Close',
      key: 'Key',
      action: 'What it does',
      groups: {
        everywhere: 'Everywhere',
        list: 'In a list',
        ticket: 'On a ticket',
      },
      actions: {
        search: 'Search',
        help: 'Show these shortcuts',
        next: 'Next row',
        previous: 'Previous row',
        open: 'Open the selected row',
        reply: 'Reply to the client',
        note: 'Write an internal note',
        close: 'Close the ticket',
        macros: 'Macros: then a macro’s digit applies it',
      },
    },
  },
};

export type WorkspaceMessages = typeof workspaceMessages;

export default workspaceMessages;
