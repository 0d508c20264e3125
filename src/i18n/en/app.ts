import shell from './app/shell.ts';
import errors from './app/errors.ts';
import actions from './app/actions.ts';
import screens from './app/screens.ts';
import records from './app/records.ts';

/**
 * Every screen text of the two apps that is neither react-admin's own (./ra.ts), nor a schema word
 * (x-i18n in schemas/), nor a list-screen text (./list.ts): `app.*`. Texts quoted in SPEC.md are written here
 * exactly as quoted; polyglot variables are `%{name}`, plural forms `singular |||| plural` with `smart_count`.
 * They are written by area in ./app/ (the frame, errors and successes, actions, shared screens, the
 * per-resource screens); nl and de split theirs the same way, each part typed against the English one.
 */
const app = {
  app: {
    ...shell,
    ...errors,
    ...actions,
    ...screens,
    ...records,
  },
};

export type AppMessages = typeof app;

export default app;
