import type { ReportsMessages } from '../en/reports.ts';
import type { Messages } from '../types.ts';
import columns from '../../../common/report-columns/nl.ts';

/** The service report in Dutch (the default language); complete, typed against the English file. */
const reportsMessages: Messages<ReportsMessages> = {
  reports: {
    title: 'Rapportages',
    intro:
      'Aangemaakte en opgeloste tickets, de openstaande voorraad, en hoe snel de servicedesk reageert en oplost, in werktijd volgens de geldende SLA.',
    period: 'Periode',
    from: 'Van',
    to: 'Tot en met',
    group: 'Per',
    presets: {
      this_week: 'Deze week',
      last_week: 'Vorige week',
      this_month: 'Deze maand',
      last_month: 'Vorige maand',
      this_quarter: 'Dit kwartaal',
      last_quarter: 'Vorig kwartaal',
      this_year: 'Dit jaar',
      last_year: 'Vorig jaar',
      custom: 'Eigen periode',
    },
    groups: { day: 'Dag', week: 'Week', month: 'Maand' },
    tickets_chart: 'Tickets',
    times_chart: 'Mediaan reactie- en oplostijd (uren)',
    caption: 'Dezelfde cijfers per periode, en in totaal',
    columns,
    explained:
      'Tijden zijn uren en minuten werktijd. 90% betekent dat negen op de tien tickets hooguit zo lang duurden. Op tijd: het deel van de tickets met een SLA-termijn dat die haalde.',
    open_list: '%{period}, %{figure}: %{n}. Open de lijst',
    line: 'Lijn',
    lines: { all: 'Alle operators', '1': 'Eerste lijn', '2': 'Tweede lijn' },
    breakdown_title: 'Per operator, bedrijf of ander kenmerk',
    breakdown_by: 'Per',
    breakdown_caption: 'De cijfers van de periode per %{key}, en in totaal',
    busiest_chart: 'Tickets per %{key}: de %{n} met de meeste aangemaakt',
    download: '%{report} downloaden als %{format}',
    download_failed: 'Het bestand kon niet worden gedownload. Probeer het opnieuw.',
    breaches: {
      title: 'SLA-overschrijdingen',
      none: 'In deze periode is geen SLA-termijn overschreden.',
      shown: 'Eén overschrijding |||| De laatste %{shown} van %{total} overschrijdingen',
      ticket: 'Ticket',
      company: 'Bedrijf',
      operator: 'Operator',
      target: 'Termijn',
      due: 'Uiterlijk',
      ended: 'Beantwoord of opgelost',
      more: 'Meer tonen',
      targets: { first_response: 'Eerste reactie', resolution: 'Oplossing' },
    },
    tabs: { tickets: 'Tickets', time: 'Bestede tijd' },
    time: {
      chart: 'Bestede tijd, factureerbaar en niet (uren)',
      caption: 'Bestede tijd per periode, en in totaal (uren:minuten, afgerond zoals gefactureerd)',
      breakdown_caption: 'Bestede tijd per %{key}, en in totaal',
      filters_note:
        'Tijd volgt de periode, de lijn en de filters op bedrijf en operator; de andere filters gelden alleen voor tickets.',
    },
    contracts: {
      title: 'Contracten en strippenkaarten',
      caption: 'Elke contractperiode van de periode: wat de periode ervan afnam, en wat er nu in staat',
      contract: 'Contract',
      period: 'Periode',
      companies: 'Bedrijven',
      used_in_range: 'Verbruikt in de periode',
      total: 'Uren',
      registered: 'Geregistreerd',
      remaining: 'Resterend',
      used: 'Verbruikt',
      prepaid: 'Strippenkaart',
      used_label: '%{contract}: %{n}% verbruikt',
    },
    failed: 'De rapportage kon niet worden geladen.',
  },
};

export default reportsMessages;
