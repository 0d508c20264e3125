import type { BalanceMessages } from '../en/balance.ts';
import type { DeepPartial } from '../types.ts';

/** The balance of a contract's hours in German; written in full, typed as partial (English fallback). */
const balanceMessages: DeepPartial<BalanceMessages> = {
  balance: {
    title: 'Vertragsstunden',
    bar: 'Verbleibende Stunden von %{contract}',
    remaining: '%{remaining} von %{total} Stunden verbleibend',
    used: '%{used} verbraucht',
    low: 'Fast aufgebraucht',
    empty: 'Aufgebraucht',
    prepaid: 'Stundenkontingent',
    period: 'Zeitraum %{period}',
    buy: 'Weitere Stunden kaufen',
    failed: 'Die Vertragsstunden konnten nicht geladen werden.',
  },
};

export default balanceMessages;
