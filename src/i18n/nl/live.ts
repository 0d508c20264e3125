import type { LiveMessages } from '../en/live.ts';
import type { Messages } from '../types.ts';

/** The bell, its notifications and the lists' "new records" bar in Dutch (the default language). */
const liveMessages: Messages<LiveMessages> = {
  live: {
    bell: {
      label: 'Meldingen: %{smart_count} ongelezen',
      title: 'Meldingen',
      read_all: 'Alles gelezen',
      failed: 'De meldingen konden niet worden geladen.',
      empty: 'Geen meldingen.',
      unread: 'ongelezen',
      email_choices: 'Ook per e-mail',
    },
    new_records: '%{smart_count} nieuwe %{name}',
  },
};

export default liveMessages;
