import type { AppMessages } from '../en/app.ts';
import shell from './app/shell.ts';
import errors from './app/errors.ts';
import actions from './app/actions.ts';
import screens from './app/screens.ts';
import records from './app/records.ts';

/** The apps' own screen texts in Dutch (the default language); complete, typed against the English file. */
const app: AppMessages = {
  app: {
    ...shell,
    ...errors,
    ...actions,
    ...screens,
    ...records,
  },
};

export default app;
