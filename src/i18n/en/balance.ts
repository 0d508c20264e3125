/** The balance of a contract's hours (issue 39, item 2: src/custom/balance/) in English. */
const balanceMessages = {
  balance: {
    title: 'Contract hours',
    bar: 'Hours remaining of %{contract}',
    remaining: '%{remaining} of %{total} hours remaining',
    used: '%{used} used',
    low: 'Running low',
    empty: 'Used up',
    prepaid: 'Prepaid card',
    period: 'Period %{period}',
    buy: 'Buy more hours',
    failed: 'The contract hours could not be loaded.',
  },
};

export type BalanceMessages = typeof balanceMessages;

export default balanceMessages;
