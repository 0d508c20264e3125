import type { AppMessages } from '../en/app.ts';
import type { DeepPartial } from '../types.ts';
import shell from './app/shell.ts';
import errors from './app/errors.ts';
import actions from './app/actions.ts';
import screens from './app/screens.ts';
import records from './app/records.ts';

/** The apps' own screen texts in German; written in full, typed as partial because German falls back to English. */
const app: DeepPartial<AppMessages> = {
  app: {
    ...shell,
    ...errors,
    ...actions,
    ...screens,
    ...records,
  },
};

export default app;
