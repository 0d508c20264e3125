/** API-Tokens (Issue 38, Punkt 3), auf Deutsch. */
const apiTokensMessages = {
  api_tokens: {
    new: 'Neues API-Token',
    create: 'Token erstellen',
    token: 'Ihr neues API-Token',
    shown_once:
      'Kopieren Sie dieses Token jetzt und bewahren Sie es sicher auf. Sie sehen es nicht wieder: Nur sein Anfang wird gespeichert.',
    copy: 'Token kopieren',
    copied: 'Token kopiert.',
    copy_failed: 'Das Token konnte nicht kopiert werden: Markieren und kopieren Sie es selbst.',
    done: 'Fertig',
    scopes_help: 'Was das Token darf: Ihre eigenen Berechtigungen, so viele wie nötig.',
    expiry_help: 'Ein Token läuft innerhalb von %{count} Tagen ab.',
    owner_me: 'Ich selbst',
    owner_help: 'Oder ein Dienstkonto: ein Konto für eine Integration, keine Person.',
    revoke: 'Widerrufen',
    revoke_confirm:
      'Das Token "%{name}" widerrufen? Integrationen, die es verwenden, funktionieren sofort nicht mehr.',
    revoked: 'Token widerrufen.',
    revoked_since: 'Widerrufen am %{date}',
  },
};

export default apiTokensMessages;
