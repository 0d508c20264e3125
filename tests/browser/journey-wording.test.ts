// @vitest-environment jsdom
/**
 * The wording the browser journeys read, in the languages they no longer drive (./journey-wording.ts
 * says how): the sign-in, back-office, error, list and mailbox journeys; the record journeys are in
 * journey-wording-records.test.ts. A changed text on one of those screens fails here, whichever language
 * its journey runs in.
 */
import { describeWording, type Journeys } from './journey-wording.ts';

/** Per journey file (tests/e2e/<name>.spec.ts), the texts its screens show and it asserted. */
const JOURNEYS: Journeys = [
  [
    'journeys-auth',
    [
      // The login form (src/shell/LoginPage.tsx), both apps.
      ['app.auth.email', undefined, { nl: 'E-mailadres', en: 'Email address', de: 'E-Mail-Adresse' }],
      ['app.auth.password', undefined, { nl: 'Wachtwoord', en: 'Password', de: 'Passwort' }],
      ['app.auth.sign_in', undefined, { nl: 'Inloggen', en: 'Sign in', de: 'Anmelden' }],
      [
        'app.auth.portal_title',
        { tenant: 'Acme IT' },
        {
          nl: 'Inloggen op het Acme IT portal',
          en: 'Sign in to the Acme IT portal',
          de: 'Beim Acme IT Portal anmelden',
        },
      ],
      [
        'app.auth.back_office_title',
        undefined,
        { nl: 'Inloggen op de backoffice', en: 'Sign in to the back office', de: 'Beim Backoffice anmelden' },
      ],
      // A field left empty: the login page's own check, the field's label in the sentence.
      [
        'app.errors.required',
        { nl: { field: 'E-mailadres' }, en: { field: 'Email address' }, de: { field: 'E-Mail-Adresse' } },
        {
          nl: 'E-mailadres is verplicht',
          en: 'Email address is required',
          de: 'E-Mail-Adresse ist ein Pflichtfeld',
        },
      ],
      [
        'app.errors.required',
        { nl: { field: 'Wachtwoord' }, en: { field: 'Password' }, de: { field: 'Passwort' } },
        { nl: 'Wachtwoord is verplicht', en: 'Password is required', de: 'Passwort ist ein Pflichtfeld' },
      ],
      // The user menu (src/shell/UserMenuButton.tsx) and react-admin's logout in it.
      [
        'app.menu.user_menu_named',
        { name: 'Sanne Bakker' },
        { nl: 'Sanne Bakker, profiel', en: 'Sanne Bakker, profile', de: 'Sanne Bakker, Profil' },
      ],
      ['ra.auth.logout', undefined, { nl: 'Uitloggen', en: 'Logout', de: 'Abmelden' }],
      // SPEC 8: a login elsewhere ends the session (src/shell/errorCatalogue.ts: LOGGED_IN_ELSEWHERE_KEY).
      [
        'app.errors.logged_in_elsewhere',
        undefined,
        {
          nl: 'Deze operator is elders ingelogd. Log opnieuw in om hier verder te werken.',
          en: 'This operator is logged in elsewhere. Log in again to continue working here.',
          de: 'Dieser Bearbeiter ist an anderer Stelle angemeldet. Melden Sie sich erneut an, um hier weiterzuarbeiten.',
        },
      ],
      // A required date left empty on a form: react-admin's required, never its raw key.
      ['ra.validation.required', undefined, { nl: 'Verplicht', en: 'Required', de: 'Pflichtfeld' }],
      ['ra.action.save', undefined, { nl: 'Opslaan', en: 'Save', de: 'Speichern' }],
      [
        'resources.time-registrations.fields.executed_at',
        undefined,
        { nl: 'Uitgevoerd op', en: 'Executed at', de: 'Ausgeführt am' },
      ],
      ['app.menu.quotes', undefined, { nl: 'Offertes', en: 'Quotes', de: 'Angebote' }],
    ],
  ],
  [
    'journeys-backoffice',
    [
      // The 403 page (src/custom/pages/AccessDeniedPage.tsx).
      [
        'app.pages.access_denied',
        undefined,
        { nl: 'Geen toegang', en: 'Access denied', de: 'Zugriff verweigert' },
      ],
      [
        'app.pages.attempted_path',
        undefined,
        { nl: 'Gevraagde pagina:', en: 'Requested page:', de: 'Angeforderte Seite:' },
      ],
      // A ticket's time registrations tab, its add button (the type's singular) and the form it opens.
      [
        'resources.tickets.tabs.timeRegistrations',
        undefined,
        { nl: 'Urenregistraties', en: 'Time registrations', de: 'Zeiterfassungen' },
      ],
      [
        'resources.time-registrations.name',
        { smart_count: 1 },
        { nl: 'Urenregistratie', en: 'Time registration', de: 'Zeiterfassung' },
      ],
      [
        'app.tabs.add',
        { nl: { type: 'Urenregistratie' }, en: { type: 'Time registration' }, de: { type: 'Zeiterfassung' } },
        { nl: 'Urenregistratie toevoegen', en: 'Add Time registration', de: 'Zeiterfassung hinzufügen' },
      ],
      [
        'resources.time-registrations.fields.time_spent',
        undefined,
        { nl: 'Bestede tijd', en: 'Time spent', de: 'Aufgewendete Zeit' },
      ],
      [
        'resources.time-registrations.fields.description',
        undefined,
        { nl: 'Omschrijving', en: 'Description', de: 'Beschreibung' },
      ],
      // The toasts of a create (src/custom/tabs/TabCreateForm.tsx) and a clone (TicketActions.tsx).
      [
        'app.notifications.created',
        { nl: { type: 'Urenregistratie' }, en: { type: 'Time registration' }, de: { type: 'Zeiterfassung' } },
        { nl: 'Urenregistratie aangemaakt', en: 'Time registration created', de: 'Zeiterfassung erstellt' },
      ],
      [
        'app.notifications.created',
        { type: 'Ticket' },
        { nl: 'Ticket aangemaakt', en: 'Ticket created', de: 'Ticket erstellt' },
      ],
      ['app.record_actions.clone', undefined, { nl: 'Klonen', en: 'Clone', de: 'Klonen' }],
      // The thread's editor, its internal note button and its toast.
      [
        'app.messages.placeholder',
        undefined,
        { nl: 'Schrijf een bericht…', en: 'Write a message…', de: 'Nachricht schreiben…' },
      ],
      [
        'app.messages.save_internal_note',
        undefined,
        { nl: 'Opslaan als interne notitie', en: 'Save as internal note', de: 'Als interne Notiz speichern' },
      ],
      [
        'app.notifications.note_saved',
        undefined,
        { nl: 'Notitie opgeslagen.', en: 'Note saved.', de: 'Notiz gespeichert.' },
      ],
    ],
  ],
  [
    'journeys-errors',
    [
      // SPEC 8's toasts of a failed call (src/shell/errors.ts) and the error states with their retry.
      [
        'app.errors.server',
        undefined,
        {
          nl: 'Er ging iets mis op de server. Probeer het opnieuw.',
          en: 'Something went wrong on the server. Please try again.',
          de: 'Auf dem Server ist etwas schiefgelaufen. Bitte versuchen Sie es erneut.',
        },
      ],
      [
        'app.errors.network',
        undefined,
        {
          nl: 'De server is niet bereikbaar. Controleer je verbinding en probeer het opnieuw.',
          en: 'The server cannot be reached. Check your connection and try again.',
          de: 'Der Server ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
        },
      ],
      [
        'app.errors.list_failed',
        undefined,
        {
          nl: 'De lijst kon niet worden geladen.',
          en: 'The list could not be loaded.',
          de: 'Die Liste konnte nicht geladen werden.',
        },
      ],
      [
        'app.errors.record_failed',
        undefined,
        {
          nl: 'Dit item kon niet worden geladen.',
          en: 'This item could not be loaded.',
          de: 'Dieses Element konnte nicht geladen werden.',
        },
      ],
      [
        'app.errors.custom_fields_failed',
        undefined,
        {
          nl: 'De extra velden konden niet worden geladen.',
          en: 'The custom fields could not be loaded.',
          de: 'Die Zusatzfelder konnten nicht geladen werden.',
        },
      ],
      [
        'ticket_time.failed',
        undefined,
        {
          nl: 'De tijd op dit ticket kon niet worden geladen.',
          en: 'The time on this ticket could not be loaded.',
          de: 'Die Zeit zu diesem Ticket konnte nicht geladen werden.',
        },
      ],
      [
        'ticket_time.label',
        undefined,
        { nl: 'Tijd op dit ticket', en: 'Time on this ticket', de: 'Zeit für dieses Ticket' },
      ],
      ['app.errors.retry', undefined, { nl: 'Opnieuw proberen', en: 'Try again', de: 'Erneut versuchen' }],
      // What a 500 on a detail must never say.
      [
        'ra.notification.item_doesnt_exist',
        undefined,
        { nl: 'Item bestaat niet', en: 'Element does not exist', de: 'Das Element existiert nicht' },
      ],
      // A 422's lines in the user's language (src/shell/errors.ts: FIELD_RULES, FILE_RULES), with the
      // field's label as the screen fills it in.
      [
        'app.errors.min_length',
        {
          nl: { subject: 'Wachtwoord', length: 8 },
          en: { subject: 'Password', length: 8 },
          de: { subject: 'Passwort', length: 8 },
        },
        {
          nl: 'Wachtwoord moet minimaal 8 tekens lang zijn.',
          en: 'Password must be at least 8 characters long.',
          de: 'Passwort muss mindestens 8 Zeichen lang sein.',
        },
      ],
      [
        'app.errors.max_length',
        {
          nl: { subject: 'Omschrijving', length: 500 },
          en: { subject: 'Description', length: 500 },
          de: { subject: 'Beschreibung', length: 500 },
        },
        {
          nl: 'Omschrijving mag niet langer zijn dan 500 tekens.',
          en: 'Description may not be longer than 500 characters.',
          de: 'Beschreibung darf nicht länger als 500 Zeichen sein.',
        },
      ],
      [
        'app.errors.file_type',
        { extension: 'exe' },
        {
          nl: 'Bestanden van het type .exe zijn niet toegestaan. Toegestaan zijn afbeeldingen, pdf, kantoordocumenten, audio, video, archieven, code en tekstbestanden.',
          en: 'Files of type .exe are not allowed. Allowed are images, PDF, office documents, audio, video, archives, code and text files.',
          de: 'Dateien vom Typ .exe sind nicht erlaubt. Erlaubt sind Bilder, PDF, Office-Dokumente, Audio, Video, Archive, Code und Textdateien.',
        },
      ],
      // The forms' labels and buttons the journeys fill in and press.
      ['resources.clients.fields.first_name', undefined, { nl: 'Voornaam', en: 'First name', de: 'Vorname' }],
      [
        'resources.clients.fields.last_name',
        undefined,
        { nl: 'Achternaam', en: 'Last name', de: 'Nachname' },
      ],
      ['resources.clients.fields.password', undefined, { nl: 'Wachtwoord', en: 'Password', de: 'Passwort' }],
      [
        'resources.tickets.fields.description',
        undefined,
        { nl: 'Omschrijving', en: 'Description', de: 'Beschreibung' },
      ],
      [
        'resources.tickets.fields.priority_id',
        undefined,
        { nl: 'Prioriteit', en: 'Priority', de: 'Priorität' },
      ],
      ['app.messages.send', undefined, { nl: 'Versturen', en: 'Send', de: 'Senden' }],
    ],
  ],
  [
    'journeys-lists',
    [
      // The back office's ticket list: its column headers (the schema's field labels).
      [
        'resources.tickets.fields.reference',
        undefined,
        { nl: 'Referentie', en: 'Reference', de: 'Referenz' },
      ],
      [
        'resources.tickets.fields.description',
        undefined,
        { nl: 'Omschrijving', en: 'Description', de: 'Beschreibung' },
      ],
      [
        'resources.tickets.fields.priority_id',
        undefined,
        { nl: 'Prioriteit', en: 'Priority', de: 'Priorität' },
      ],
      ['resources.tickets.fields.status_id', undefined, { nl: 'Status', en: 'Status', de: 'Status' }],
      ['resources.tickets.fields.company_id', undefined, { nl: 'Bedrijf', en: 'Company', de: 'Firma' }],
      ['resources.tickets.fields.client_id', undefined, { nl: 'Klant', en: 'Client', de: 'Kunde' }],
      [
        'resources.tickets.fields.operator_id',
        undefined,
        { nl: 'Operator', en: 'Operator', de: 'Bearbeiter' },
      ],
      ['resources.tickets.fields.deadline', undefined, { nl: 'Deadline', en: 'Deadline', de: 'Frist' }],
      [
        'resources.tickets.fields.updated_at',
        undefined,
        { nl: 'Bijgewerkt op', en: 'Updated at', de: 'Aktualisiert am' },
      ],
      // The portal's lists: their headings (the resource's plural name).
      ['resources.quotes.name', { smart_count: 2 }, { nl: 'Offertes', en: 'Quotes', de: 'Angebote' }],
      [
        'resources.subscriptions.name',
        { smart_count: 2 },
        { nl: 'Abonnementen', en: 'Subscriptions', de: 'Abonnements' },
      ],
      ['resources.assets.name', { smart_count: 2 }, { nl: 'Assets', en: 'Assets', de: 'Assets' }],
      ['resources.contracts.name', { smart_count: 2 }, { nl: 'Contracten', en: 'Contracts', de: 'Verträge' }],
      ['resources.invoices.name', { smart_count: 2 }, { nl: 'Facturen', en: 'Invoices', de: 'Rechnungen' }],
      // A header filter (src/custom/list/ListTable.tsx) and a selector's '(none)' and 'type more'.
      [
        'list.filter.label',
        { nl: { field: 'Prioriteit' }, en: { field: 'Priority' }, de: { field: 'Priorität' } },
        { nl: 'Filter op Prioriteit', en: 'Filter on Priority', de: 'Nach Priorität filtern' },
      ],
      ['list.filter.none', undefined, { nl: '(geen)', en: '(none)', de: '(keine)' }],
      [
        'list.filter.type_more',
        { smart_count: 2 },
        { nl: 'Typ nog 2 tekens', en: 'Type 2 more characters', de: 'Noch 2 Zeichen eingeben' },
      ],
    ],
  ],
  [
    'mailboxes',
    [
      // The mailboxes list with a failing mailbox, the form's password, and a thread's folded quote.
      [
        'enums.mailboxStatuses.failing',
        undefined,
        {
          nl: 'Faalt: ophalen wordt later opnieuw geprobeerd',
          en: 'Failing: fetching is retried later',
          de: 'Fehlerhaft: der Abruf wird später erneut versucht',
        },
      ],
      [
        'resources.mailboxes.name',
        { smart_count: 2 },
        { nl: 'Mailboxen', en: 'Mailboxes', de: 'Postfächer' },
      ],
      [
        'resources.mailboxes.fields.password',
        undefined,
        { nl: 'Wachtwoord', en: 'Password', de: 'Passwort' },
      ],
      [
        'app.messages.quoted_text',
        undefined,
        { nl: 'Geciteerde tekst tonen', en: 'Show quoted text', de: 'Zitierten Text anzeigen' },
      ],
    ],
  ],
];

describeWording(JOURNEYS);
