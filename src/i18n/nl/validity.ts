import type { ValidityMessages } from '../en/validity.ts';
import type { Messages } from '../types.ts';

/** A validity date past, in Dutch (the default language); typed against the English file. */
const validityMessages: Messages<ValidityMessages> = {
  validity: {
    expired: 'Verlopen',
    none: 'Geen geldigheidsdatum',
  },
  quote_validity: {
    portal_expired:
      'Deze offerte was geldig tot %{date} en kan niet meer worden geaccepteerd. Neem contact met ons op als je haar wilt laten verlengen.',
    backoffice_expired:
      'Verlopen: geldig tot %{date}. Pas "Geldig tot" aan (Bewerken) om haar te verlengen; tot dan kan ze niet worden verstuurd of geaccepteerd.',
  },
};

export default validityMessages;
