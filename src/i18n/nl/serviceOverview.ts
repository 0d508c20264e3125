import type { ServiceOverviewMessages } from '../en/serviceOverview.ts';
import type { Messages } from '../types.ts';

/** Het serviceoverzicht van het klantportaal in het Nederlands (de standaardtaal); volledig. */
const serviceOverviewMessages: Messages<ServiceOverviewMessages> = {
  service_overview: {
    title: 'Serviceoverzicht',
    intro:
      'Hoeveel tickets uw organisatie per maand opende en wij oplosten, hoe snel wij reageerden en oplosten in werktijd tegenover de beloofde SLA, en de uren van uw contracten.',
    company: 'Bedrijf',
    all_companies: 'Al mijn bedrijven',
    period: 'Periode',
    last_12_months: 'Afgelopen 12 maanden',
    tickets_title: 'Tickets per maand',
    tickets_chart: 'Geopend en opgelost',
    tickets_caption: 'Geopende en opgeloste tickets per maand, en in totaal',
    times_title: 'Reactie- en oplostijden',
    times_chart: 'Mediaan eerste reactie- en oplostijd (uren)',
    times_caption: 'Mediane tijden in werkuren en het deel binnen de SLA-termijn, per maand',
    targets_title: 'Onze belofte',
    targets_caption: 'De SLA-termijnen per prioriteit van uw tickets in deze periode',
    targets_none: 'Op uw tickets in deze periode gold geen SLA-termijn.',
    contracts_title: 'Contracturen',
    contracts_chart: 'Gebruikte en resterende uren per contract (uren)',
    contracts_caption: 'Uw lopende contractperiodes en strippenkaarten',
    contracts_none: 'U hebt geen lopend contract met uren.',
    explained:
      'Tijden zijn uren en minuten werktijd. De mediaan is de middelste waarde: de helft van de tickets duurde hooguit zo lang. Binnen SLA: het deel van de tickets met een SLA-termijn dat die haalde.',
    mail_optin: 'Mail mij deze cijfers elke maand',
    mail_optin_help: 'Op de 1e van elke maand ontvangt u de cijfers van de vorige maand in deze taal.',
    columns: {
      month: 'Maand',
      opened: 'Geopend',
      solved: 'Opgelost',
      response_median: 'Eerste reactie (mediaan)',
      response_met: 'Reactie binnen SLA',
      resolution_median: 'Oplossing (mediaan)',
      resolution_met: 'Oplossing binnen SLA',
      total: 'Totaal',
      priority: 'Prioriteit',
      response_time: 'Eerste reactie binnen',
      resolution_time: 'Opgelost binnen',
      no_priority: 'Geen prioriteit',
      contract: 'Contract',
      period: 'Periode',
      hours: 'Uren',
      used: 'Gebruikt',
      remaining: 'Resterend',
      prepaid: 'Strippenkaart',
    },
  },
};

export default serviceOverviewMessages;
