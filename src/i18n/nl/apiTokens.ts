/** API-tokens (issue 38, onderdeel 3), in het Nederlands. */
const apiTokensMessages = {
  api_tokens: {
    new: 'Nieuw API-token',
    create: 'Token maken',
    token: 'Uw nieuwe API-token',
    shown_once:
      'Kopieer dit token nu en bewaar het op een veilige plek. U ziet het niet meer terug: alleen het begin wordt bewaard.',
    copy: 'Token kopiëren',
    copied: 'Token gekopieerd.',
    copy_failed: 'Het token kon niet worden gekopieerd: selecteer en kopieer het zelf.',
    done: 'Klaar',
    scopes_help: 'Wat het token mag: uw eigen rechten, zoveel als het nodig heeft.',
    expiry_help: 'Een token verloopt binnen %{count} dagen.',
    owner_me: 'Ikzelf',
    owner_help: 'Of een serviceaccount: een account voor een koppeling, geen persoon.',
    revoke: 'Intrekken',
    revoke_confirm: 'Het token "%{name}" intrekken? Koppelingen die het gebruiken stoppen direct.',
    revoked: 'Token ingetrokken.',
    revoked_since: 'Ingetrokken op %{date}',
  },
};

export default apiTokensMessages;
