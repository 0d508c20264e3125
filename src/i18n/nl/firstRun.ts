import type { FirstRunMessages } from '../en/firstRun.ts';
import type { Messages } from '../types.ts';

/** The first-run setup page, in Dutch (the default language); typed against the English file. */
const firstRunMessages: Messages<FirstRunMessages> = {
  first_run: {
    title: 'Richt je servicedesk in',
    intro:
      'Deze installatie heeft nog geen organisatie. Maak die hier aan, met de eerste tweedelijns operator.',
    address: 'Deze servicedesk is bereikbaar op %{address}.',
    organisation: 'Organisatie',
    name: 'Naam van de organisatie',
    language: 'Taal van de servicedesk',
    language_help: 'De eerste operator begint in deze taal.',
    operator: 'Eerste operator',
    first_name: 'Voornaam',
    last_name: 'Achternaam',
    email: 'E-mailadres',
    email_invalid: 'Vul een e-mailadres in zoals naam@voorbeeld.nl.',
    password: 'Wachtwoord',
    password_help: 'Minstens %{length} tekens, geen veelgebruikt wachtwoord.',
    mail: 'Uitgaande e-mail',
    smtp_set: 'E-mail gaat via de server uit SMTP_URL.',
    smtp_unset:
      'SMTP_URL is niet ingesteld: e-mail wordt tot dan als bestanden in DATA_DIR/mail geschreven (docs/production.md).',
    send_test: 'Testmail versturen',
    test_needs_email: 'Vul eerst het e-mailadres in: daar gaat de testmail heen.',
    test_sent: 'De testmail is verstuurd naar %{email}.',
    test_written: 'De testmail is als bestand in DATA_DIR/mail geschreven (SMTP_URL is niet ingesteld).',
    test_failed: 'De testmail kon niet worden verstuurd: %{error}',
    mailbox: 'Mailbox (optioneel)',
    mailbox_intro: 'Supportmail in deze mailbox wordt tickets. Je kunt er ook later een koppelen.',
    connect_mailbox: 'Nu een mailbox koppelen',
    host: 'IMAP-server',
    port: 'Poort',
    tls: 'TLS',
    username: 'Gebruikersnaam',
    mailbox_password: 'Wachtwoord van de mailbox',
    test_connection: 'Verbinding testen',
    connected: 'Verbonden: %{smart_count} bericht in INBOX |||| Verbonden: %{smart_count} berichten in INBOX',
    not_connected: 'Verbinden mislukt: %{error}',
    submit: 'Servicedesk inrichten',
    done_already: 'Deze servicedesk is al ingericht.',
    to_login: 'Naar inloggen',
  },
};

export default firstRunMessages;
