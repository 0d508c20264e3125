import type { FirstRunMessages } from '../en/firstRun.ts';
import type { Messages } from '../types.ts';

/** The first-run setup page, in German; typed against the English file. */
const firstRunMessages: Messages<FirstRunMessages> = {
  first_run: {
    title: 'Richten Sie Ihren Service-Desk ein',
    intro:
      'Diese Installation hat noch keine Organisation. Legen Sie sie hier an, mit dem ersten Operator der zweiten Ebene.',
    address: 'Dieser Service-Desk ist unter %{address} erreichbar.',
    organisation: 'Organisation',
    name: 'Name der Organisation',
    language: 'Sprache des Service-Desks',
    language_help: 'Der erste Operator beginnt in dieser Sprache.',
    operator: 'Erster Operator',
    first_name: 'Vorname',
    last_name: 'Nachname',
    email: 'E-Mail-Adresse',
    email_invalid: 'Geben Sie eine E-Mail-Adresse wie name@beispiel.de ein.',
    password: 'Passwort',
    password_help: 'Mindestens %{length} Zeichen, kein häufiges Passwort.',
    mail: 'Ausgehende E-Mail',
    smtp_set: 'E-Mails gehen über den Server aus SMTP_URL hinaus.',
    smtp_unset:
      'SMTP_URL ist nicht gesetzt: E-Mails werden bis dahin als Dateien unter DATA_DIR/mail geschrieben (docs/production.md).',
    send_test: 'Testmail senden',
    test_needs_email: 'Geben Sie zuerst die E-Mail-Adresse ein: Dorthin geht die Testmail.',
    test_sent: 'Die Testmail wurde an %{email} gesendet.',
    test_written:
      'Die Testmail wurde als Datei unter DATA_DIR/mail geschrieben (SMTP_URL ist nicht gesetzt).',
    test_failed: 'Die Testmail konnte nicht gesendet werden: %{error}',
    mailbox: 'Postfach (optional)',
    mailbox_intro:
      'Support-Mails in diesem Postfach werden zu Tickets. Sie können auch später eines verbinden.',
    connect_mailbox: 'Jetzt ein Postfach verbinden',
    host: 'IMAP-Server',
    port: 'Port',
    tls: 'TLS',
    username: 'Benutzername',
    mailbox_password: 'Passwort des Postfachs',
    test_connection: 'Verbindung testen',
    connected:
      'Verbunden: %{smart_count} Nachricht im INBOX |||| Verbunden: %{smart_count} Nachrichten im INBOX',
    not_connected: 'Verbindung fehlgeschlagen: %{error}',
    submit: 'Service-Desk einrichten',
    done_already: 'Dieser Service-Desk ist bereits eingerichtet.',
    to_login: 'Zur Anmeldung',
  },
};

export default firstRunMessages;
