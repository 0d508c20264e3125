/**
 * The user config that holds the language a user reads the back office in. The app keeps it
 * (src/shell/keepLanguage.ts) so that the mails the user is sent are written in it too
 * (server/resources/notifications/kinds.ts). Stored as JSON text, as every user config ('"de"').
 */
export const LANGUAGE_CONFIG = 'language';
