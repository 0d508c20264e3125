import type { ValidityMessages } from '../en/validity.ts';
import type { Messages } from '../types.ts';

/** A validity date past, in German; typed against the English file. */
const validityMessages: Messages<ValidityMessages> = {
  validity: {
    expired: 'Abgelaufen',
    none: 'Kein Gültigkeitsdatum',
  },
  quote_validity: {
    portal_expired:
      'Dieses Angebot war bis %{date} gültig und kann nicht mehr angenommen werden. Wenden Sie sich an uns, wenn Sie es verlängern lassen möchten.',
    backoffice_expired:
      'Abgelaufen: gültig bis %{date}. Ändern Sie „Gültig bis“ (Bearbeiten), um es zu verlängern; bis dahin kann es weder gesendet noch angenommen werden.',
  },
};

export default validityMessages;
