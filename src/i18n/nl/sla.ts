import type { SlaMessages } from '../en/sla.ts';
import type { Messages } from '../types.ts';

/** A ticket's SLA clock and its promise in the portal in Dutch (the default language); typed against the English file. */
const slaMessages: Messages<SlaMessages> = {
  sla: {
    title: 'SLA',
    failed: 'De SLA van dit ticket kon niet worden geladen.',
    none: 'Op dit ticket is geen SLA van toepassing.',
    source: {
      ticket: 'ingesteld op dit ticket',
      contract: 'uit het contract van het bedrijf',
      company: 'van het bedrijf',
      tenant: 'de standaard-SLA',
    },
    targets: {
      first_response: 'Eerste reactie',
      next_response: 'Volgende reactie',
      resolution: 'Oplossing',
    },
    target: 'Norm: %{time}',
    no_target: 'Geen norm',
    due: 'Uiterlijk %{time}',
    ended: 'Beëindigd %{time}',
    left: 'nog %{time}',
    overdue: '%{time} te laat',
    state: {
      running: 'Loopt',
      paused: 'Gepauzeerd sinds %{time}',
      warning: 'Waarschuwing: %{threshold}% verbruikt',
      breached: 'Overschreden',
      met: 'Gehaald',
    },
    duration: {
      under_minute: '< 1 min',
      minutes: '%{m} min',
      hours: '%{h} u',
      hours_minutes: '%{h} u %{m} min',
    },
    business_time: 'Tijden tellen binnen kantooruren.',
    promise: {
      title: 'Onze belofte',
      first_response: 'Reactie',
      resolution: 'Oplossing',
      within: 'binnen %{time}',
      expected: 'verwacht uiterlijk %{time}',
      paused: 'gepauzeerd zolang we op uw antwoord wachten',
      met: 'Gehaald op %{time}',
      met_plain: 'Gehaald',
      breached: 'Niet gehaald',
    },
  },
};

export default slaMessages;
