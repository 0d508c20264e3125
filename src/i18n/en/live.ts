/** The bell, its notifications and the lists' "new records" bar (src/live/) in English. */
const liveMessages = {
  live: {
    bell: {
      label: 'Notifications: %{smart_count} unread',
      title: 'Notifications',
      read_all: 'Mark all read',
      failed: 'The notifications could not be loaded.',
      empty: 'No notifications.',
      unread: 'unread',
      email_choices: 'Also by e-mail',
    },
    /** A list's bar when records were added since it loaded; `name` is the resource's (plural) name. */
    new_records: '%{smart_count} new %{name}',
  },
};

export type LiveMessages = typeof liveMessages;

export default liveMessages;
