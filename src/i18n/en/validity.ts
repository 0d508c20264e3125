/**
 * A validity date past (common/quote-validity.ts) in English: the badge on a validity date
 * (src/custom/detail/DateBadge.tsx) and what the quote screens of both apps say about an expired quote.
 */
const validityMessages = {
  validity: {
    expired: 'Expired',
    none: 'No validity date',
  },
  quote_validity: {
    /** The portal, instead of the acceptance form. */
    portal_expired:
      'This quote was valid until %{date} and can no longer be accepted. Contact us if you would like it extended.',
    /** The back office's quote header: why there is no send or accept button. */
    backoffice_expired:
      'Expired: valid until %{date}. Change "Valid until" (Edit) to extend it; until then it cannot be sent or accepted.',
  },
};

export type ValidityMessages = typeof validityMessages;

export default validityMessages;
