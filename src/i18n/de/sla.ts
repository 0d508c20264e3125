import type { SlaMessages } from '../en/sla.ts';
import type { DeepPartial } from '../types.ts';

/** A ticket's SLA clock and its promise in the portal in German; written in full, typed as partial (English fallback). */
const slaMessages: DeepPartial<SlaMessages> = {
  sla: {
    title: 'SLA',
    failed: 'Das SLA dieses Tickets konnte nicht geladen werden.',
    none: 'Für dieses Ticket gilt kein SLA.',
    source: {
      ticket: 'an diesem Ticket festgelegt',
      contract: 'aus dem Vertrag des Unternehmens',
      company: 'vom Unternehmen',
      tenant: 'das Standard-SLA',
    },
    targets: {
      first_response: 'Erste Antwort',
      next_response: 'Nächste Antwort',
      resolution: 'Lösung',
    },
    target: 'Ziel: %{time}',
    no_target: 'Kein Ziel',
    due: 'Fällig %{time}',
    ended: 'Beendet %{time}',
    left: 'noch %{time}',
    overdue: '%{time} überfällig',
    state: {
      running: 'Läuft',
      paused: 'Pausiert seit %{time}',
      warning: 'Warnung: %{threshold}% verbraucht',
      breached: 'Verletzt',
      met: 'Eingehalten',
    },
    duration: {
      under_minute: '< 1 Min.',
      minutes: '%{m} Min.',
      hours: '%{h} Std.',
      hours_minutes: '%{h} Std. %{m} Min.',
    },
    business_time: 'Zeiten zählen während der Geschäftszeiten.',
    promise: {
      title: 'Unser Versprechen',
      first_response: 'Antwort',
      resolution: 'Lösung',
      within: 'innerhalb von %{time}',
      expected: 'erwartet bis %{time}',
      paused: 'angehalten, solange wir auf Ihre Antwort warten',
      met: 'Eingehalten am %{time}',
      met_plain: 'Eingehalten',
      breached: 'Nicht eingehalten',
    },
  },
};

export default slaMessages;
