/**
 * The first-run setup page of the back office (src/custom/pages/FirstRunPage.tsx, issue 32): the
 * installation has no tenant yet, and this page creates it with its first operator.
 */
const firstRunMessages = {
  first_run: {
    title: 'Set up your service desk',
    intro: 'This installation has no organisation yet. Create it and its first second-line operator here.',
    address: 'This desk will answer at %{address}.',
    organisation: 'Organisation',
    name: 'Organisation name',
    language: 'Language of the desk',
    language_help: 'The first operator starts in this language.',
    operator: 'First operator',
    first_name: 'First name',
    last_name: 'Last name',
    email: 'E-mail address',
    email_invalid: 'Enter an e-mail address such as name@example.com.',
    password: 'Password',
    password_help: 'At least %{length} characters, not a common password.',
    mail: 'Outgoing mail',
    smtp_set: 'Mail goes out through the server set in SMTP_URL.',
    smtp_unset:
      'SMTP_URL is not set: mail is written as files under DATA_DIR/mail until it is (docs/production.md).',
    send_test: 'Send a test mail',
    test_needs_email: 'Fill in the e-mail address first: the test mail goes there.',
    test_sent: 'The test mail was sent to %{email}.',
    test_written: 'The test mail was written as a file under DATA_DIR/mail (SMTP_URL is not set).',
    test_failed: 'The test mail could not be sent: %{error}',
    mailbox: 'Mailbox (optional)',
    mailbox_intro: 'Support mail in this mailbox becomes tickets. You can also connect one later.',
    connect_mailbox: 'Connect a mailbox now',
    host: 'IMAP server',
    port: 'Port',
    tls: 'TLS',
    username: 'User name',
    mailbox_password: 'Mailbox password',
    test_connection: 'Test connection',
    connected: 'Connected: %{smart_count} message in INBOX |||| Connected: %{smart_count} messages in INBOX',
    not_connected: 'Could not connect: %{error}',
    submit: 'Set up the desk',
    done_already: 'This desk has been set up already.',
    to_login: 'Go to sign in',
  },
};

export type FirstRunMessages = typeof firstRunMessages;

export default firstRunMessages;
