/**
 * A quote past its validity date in the back-office detail header (common/quote-validity.ts): why it has
 * no send or accept button, and how to extend it (its "Valid until" changed through Edit, which the
 * server checks under the quote's lock before any acceptance). Nothing for a quote still valid.
 */
import Alert from '@mui/material/Alert';
import { useLocaleState, useTranslate } from 'react-admin';
import { formatDate } from '../../../common/format.ts';
import { quoteExpired } from '../../../common/quote-validity.ts';
import type { RecordActionsProps } from '../override-contract.ts';

export default function QuoteValidity({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  if (!quoteExpired(record)) return null;
  return (
    <Alert severity="warning" role="status" sx={{ py: 0 }}>
      {translate('quote_validity.backoffice_expired', {
        date: formatDate(record.valid_until as string, locale),
      })}
    </Alert>
  );
}
