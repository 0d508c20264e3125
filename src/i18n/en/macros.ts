/** Macros and the automation's action editor (issue 37, items 1 and 3), in English. */
const macrosMessages = {
  macros: {
    button: 'Macros',
    menu: 'Apply a macro',
    none: 'No macros yet.',
    manage: 'Manage macros',
    shortcut_hint: 'm, then %{digit}',
    applied:
      'Macro "%{name}" applied to %{smart_count} ticket. |||| Macro "%{name}" applied to %{smart_count} tickets.',
    bulk: 'Macro…',
  },
  automation_actions: {
    action: 'Action %{number}',
    type: 'What it does',
    types: {
      set: 'Set a field',
      note: 'Add an internal note',
      reply: 'Reply to the client with a standard answer',
      mail_operators: 'Mail operators a standard answer',
      notify: 'Notify operators',
    },
    field: 'Field',
    value: 'New value',
    body: 'Note',
    text: 'Text',
    standard_answer: 'Standard answer',
    to: 'To',
    recipients: {
      assigned: 'The assigned operator',
      group: "The ticket group's operators",
    },
  },
};

export default macrosMessages;
