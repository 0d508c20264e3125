import type { BalanceMessages } from '../en/balance.ts';
import type { Messages } from '../types.ts';

/** The balance of a contract's hours in Dutch (the default language); typed against the English file. */
const balanceMessages: Messages<BalanceMessages> = {
  balance: {
    title: 'Contracturen',
    bar: 'Resterende uren van %{contract}',
    remaining: 'Nog %{remaining} van %{total} uur over',
    used: '%{used} gebruikt',
    low: 'Bijna op',
    empty: 'Op',
    prepaid: 'Strippenkaart',
    period: 'Periode %{period}',
    buy: 'Meer uren kopen',
    failed: 'De contracturen konden niet worden geladen.',
  },
};

export default balanceMessages;
