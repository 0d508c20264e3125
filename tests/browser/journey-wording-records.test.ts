// @vitest-environment jsdom
/**
 * The wording the record journeys read (the dashboard, the date badges, the portal's details, the mail
 * failures, the quote link, the list names), in the languages they no longer drive (./journey-wording.ts
 * says how; the other journeys are in journey-wording.test.ts). A changed text on one of those screens
 * fails here, whichever language its journey runs in.
 */
import { describeWording, type Journeys } from './journey-wording.ts';

const JOURNEYS: Journeys = [
  [
    'dashboard',
    [
      // The dashboard (src/custom/dashboard/DashboardPage.tsx): its heading and menu item, its rows and
      // counts, a figure's link, the own team's mark.
      ['dashboard.title', undefined, { nl: 'Dashboard', en: 'Dashboard', de: 'Dashboard' }],
      ['dashboard.rows.mine', undefined, { nl: 'Mijn tickets', en: 'My tickets', de: 'Meine Tickets' }],
      ['dashboard.rows.first_line', undefined, { nl: 'Eerste lijn', en: 'First line', de: 'Erste Linie' }],
      ['dashboard.counts.overdue', undefined, { nl: 'Over de deadline', en: 'Overdue', de: 'Überfällig' }],
      ['dashboard.counts.open', undefined, { nl: 'Open', en: 'Open', de: 'Offen' }],
      ['dashboard.own_team', undefined, { nl: '(jouw team)', en: '(your team)', de: '(Ihr Team)' }],
      [
        'dashboard.figure',
        {
          nl: { row: 'Mijn tickets', count: 'Over de deadline', n: 3 },
          en: { row: 'My tickets', count: 'Overdue', n: 3 },
          de: { row: 'Meine Tickets', count: 'Überfällig', n: 3 },
        },
        {
          nl: 'Mijn tickets, Over de deadline: 3. Open de lijst',
          en: 'My tickets, Overdue: 3. Open the list',
          de: 'Meine Tickets, Überfällig: 3. Liste öffnen',
        },
      ],
      // The ticket list a figure opens: its menu item and heading, its counter.
      ['resources.tickets.name', { smart_count: 2 }, { nl: 'Tickets', en: 'Tickets', de: 'Tickets' }],
      [
        'ra.navigation.page_range_info',
        { offsetBegin: 1, offsetEnd: 15, total: 20 },
        { nl: '1-15 van 20', en: '1-15 of 20', de: '1-15 von 20' },
      ],
    ],
  ],
  [
    'journeys-badges',
    [
      // SPEC 4's badges (src/custom/detail/DateBadge.tsx), and the warranty's named empty check mark.
      ['app.due_date.past', undefined, { nl: 'Verlopen', en: 'Overdue', de: 'Überfällig' }],
      ['app.due_date.upcoming', undefined, { nl: 'Binnenkort', en: 'Upcoming', de: 'Bald fällig' }],
      ['app.due_date.none', undefined, { nl: 'Geen deadline', en: 'No due date', de: 'Keine Frist' }],
      [
        'resources.assets.badges.warranty_until',
        undefined,
        { nl: 'Geen garantiedatum bekend', en: 'No warranty date known', de: 'Kein Garantiedatum bekannt' },
      ],
      ['app.contract_end.green', undefined, { nl: 'Loopt', en: 'Running', de: 'Läuft' }],
      [
        'app.contract_end.yellow',
        undefined,
        { nl: 'Loopt binnen een maand af', en: 'Ends within a month', de: 'Endet innerhalb eines Monats' },
      ],
      ['app.contract_end.red', undefined, { nl: 'Afgelopen', en: 'Ended', de: 'Beendet' }],
      ['app.contract_end.none', undefined, { nl: 'Geen einddatum', en: 'No end date', de: 'Kein Enddatum' }],
    ],
  ],
  [
    'journeys-portal-details',
    [
      // The portal's quote, subscription, asset and contract details and its invoice cards.
      ['resources.quote-lines.fields.total', undefined, { nl: 'Totaal', en: 'Total', de: 'Gesamtbetrag' }],
      [
        'app.subscription.monthly_amount',
        undefined,
        { nl: 'Maandbedrag', en: 'Monthly amount', de: 'Monatsbetrag' },
      ],
      ['app.asset.details', undefined, { nl: 'Details', en: 'Details', de: 'Details' }],
      [
        'resources.assets.fields.serial_number',
        undefined,
        { nl: 'Serienummer', en: 'Serial number', de: 'Seriennummer' },
      ],
      [
        'app.invoices.download_label',
        { code: 'F-2031-001' },
        {
          nl: 'Factuur F-2031-001 downloaden',
          en: 'Download invoice F-2031-001',
          de: 'Rechnung F-2031-001 herunterladen',
        },
      ],
      ['app.invoices.download', undefined, { nl: 'Downloaden', en: 'Download', de: 'Herunterladen' }],
      ['app.contract.open_end', undefined, { nl: 'Geen einddatum', en: 'No end date', de: 'Kein Enddatum' }],
      [
        'app.contract.time_registrations',
        undefined,
        { nl: 'Urenregistraties', en: 'Time registrations', de: 'Zeiterfassungen' },
      ],
    ],
  ],
  [
    'mail-failures',
    [
      // A reply whose mail was given up (src/custom/thread/MessageItem.tsx), its link and where it leads.
      [
        'app.messages.mail_given_up',
        undefined,
        {
          nl: 'De e-mail aan de klant kon niet worden verstuurd en is opgegeven.',
          en: 'The e-mail to the client could not be sent and has been given up.',
          de: 'Die E-Mail an den Kunden konnte nicht gesendet werden und wurde aufgegeben.',
        },
      ],
      [
        'app.messages.mail_outbox',
        undefined,
        { nl: 'Uitgaande e-mail openen', en: 'Open outgoing mail', de: 'Ausgehende E-Mails öffnen' },
      ],
      [
        'resources.mail-outbox.name',
        { smart_count: 2 },
        { nl: 'Uitgaande e-mail', en: 'Outgoing mail', de: 'Ausgehende E-Mails' },
      ],
      ['enums.mailStatuses.failed', undefined, { nl: 'Opgegeven', en: 'Given up', de: 'Aufgegeben' }],
    ],
  ],
  [
    'journeys-quote-link',
    [
      // The 403 page for someone who holds a quote link (src/custom/pages/AccessDeniedPage.tsx).
      [
        'app.pages.access_denied',
        undefined,
        { nl: 'Geen toegang', en: 'Access denied', de: 'Zugriff verweigert' },
      ],
      [
        'app.pages.back_to_quote',
        undefined,
        { nl: 'Terug naar de offerte', en: 'Back to the quote', de: 'Zurück zum Angebot' },
      ],
      [
        'app.pages.sign_in_to_open',
        undefined,
        {
          nl: 'Inloggen om deze pagina te openen',
          en: 'Sign in to open this page',
          de: 'Anmelden, um diese Seite zu öffnen',
        },
      ],
      [
        'app.pages.back_to_tickets',
        undefined,
        { nl: 'Terug naar de tickets', en: 'Back to the tickets', de: 'Zurück zu den Tickets' },
      ],
    ],
  ],
  [
    'journeys-list-names',
    [
      // A priority's form (src/resources/fields/inputs.tsx: a translated field's own Dutch text), driven
      // in English only now.
      ['ra.action.edit', undefined, { nl: 'Bewerken', en: 'Edit', de: 'Bearbeiten' }],
      ['ra.action.save', undefined, { nl: 'Opslaan', en: 'Save', de: 'Speichern' }],
      [
        'app.translated.base',
        { nl: { label: 'Naam' }, en: { label: 'Name' }, de: { label: 'Bezeichnung' } },
        { nl: 'Naam (Nederlands)', en: 'Name (Dutch)', de: 'Bezeichnung (Niederländisch)' },
      ],
      ['resources.priorities.fields.label', undefined, { nl: 'Naam', en: 'Name', de: 'Bezeichnung' }],
      [
        'resources.priorities.fields.label_en',
        undefined,
        { nl: 'Naam (Engels)', en: 'Name (English)', de: 'Bezeichnung (Englisch)' },
      ],
    ],
  ],
  [
    'sla-detail',
    [
      // The SLA panel and the portal's promise (src/resources/tickets/sla/), driven in nl and en.
      [
        'sla.source.ticket',
        undefined,
        { nl: 'ingesteld op dit ticket', en: 'set on this ticket', de: 'an diesem Ticket festgelegt' },
      ],
      [
        'sla.targets.first_response',
        undefined,
        { nl: 'Eerste reactie', en: 'First response', de: 'Erste Antwort' },
      ],
      ['sla.state.met', undefined, { nl: 'Gehaald', en: 'Met', de: 'Eingehalten' }],
      ['sla.state.running', undefined, { nl: 'Loopt', en: 'Running', de: 'Läuft' }],
      [
        'sla.left',
        { nl: { time: '8 u' }, en: { time: '8 h' }, de: { time: '8 Std.' } },
        { nl: 'nog 8 u', en: '8 h left', de: 'noch 8 Std.' },
      ],
      ['sla.promise.title', undefined, { nl: 'Onze belofte', en: 'Our promise', de: 'Unser Versprechen' }],
      [
        'sla.promise.within',
        { nl: { time: '1 u' }, en: { time: '1 h' }, de: { time: '1 Std.' } },
        { nl: 'binnen 1 u', en: 'within 1 h', de: 'innerhalb von 1 Std.' },
      ],
    ],
  ],
  [
    'colleagues',
    [
      // The portal's colleagues screen (src/resources/company-user/) and a ticket's 'Shared with' card
      // (src/resources/ticket-shares/), driven in nl and en.
      [
        'resources.company-user.portal_name',
        { smart_count: 2 },
        { nl: "Collega's", en: 'Colleagues', de: 'Kollegen' },
      ],
      [
        'resources.company-user.screen.role_of',
        { name: 'Lotte Smit' },
        { nl: 'Rol van Lotte Smit', en: 'Role of Lotte Smit', de: 'Rolle von Lotte Smit' },
      ],
      [
        'resources.company-user.screen.saved',
        { name: 'Lotte Smit', role: 'X' },
        {
          nl: 'Lotte Smit heeft nu de rol X.',
          en: 'Lotte Smit now has the role X.',
          de: 'Lotte Smit hat jetzt die Rolle X.',
        },
      ],
      [
        'resources.company-user.screen.you',
        { name: 'Pieter Jansen' },
        { nl: 'Pieter Jansen (jij)', en: 'Pieter Jansen (you)', de: 'Pieter Jansen (Sie)' },
      ],
      [
        'resources.ticket-shares.panel.title',
        undefined,
        { nl: 'Gedeeld met', en: 'Shared with', de: 'Geteilt mit' },
      ],
      [
        'resources.ticket-shares.panel.none',
        undefined,
        {
          nl: 'Dit ticket is met niemand gedeeld.',
          en: 'This ticket is not shared with anyone.',
          de: 'Dieses Ticket ist mit niemandem geteilt.',
        },
      ],
      [
        'resources.ticket-shares.panel.colleague',
        undefined,
        { nl: 'Collega om mee te delen', en: 'Colleague to share with', de: 'Kollege zum Teilen' },
      ],
      ['resources.ticket-shares.panel.add', undefined, { nl: 'Delen', en: 'Share', de: 'Teilen' }],
      [
        'resources.ticket-shares.panel.remove',
        { name: 'Lotte Smit' },
        {
          nl: 'Niet meer delen met Lotte Smit',
          en: 'Stop sharing with Lotte Smit',
          de: 'Nicht mehr mit Lotte Smit teilen',
        },
      ],
    ],
  ],
];

describeWording(JOURNEYS);
