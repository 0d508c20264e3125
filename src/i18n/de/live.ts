import type { LiveMessages } from '../en/live.ts';
import type { DeepPartial } from '../types.ts';

/** The bell, its notifications and the lists' "new records" bar in German; written in full, typed as partial (English fallback). */
const liveMessages: DeepPartial<LiveMessages> = {
  live: {
    bell: {
      label: 'Benachrichtigungen: %{smart_count} ungelesen',
      title: 'Benachrichtigungen',
      read_all: 'Alle als gelesen markieren',
      failed: 'Die Benachrichtigungen konnten nicht geladen werden.',
      empty: 'Keine Benachrichtigungen.',
      unread: 'ungelesen',
      email_choices: 'Auch per E-Mail',
    },
    new_records: '%{smart_count} neue %{name}',
  },
};

export default liveMessages;
