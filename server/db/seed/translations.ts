/**
 * The English and German names of the demo's named lists (issue 14, item 17), keyed by the Dutch name
 * the demo writes: the seed adds `<column>_en` and `<column>_de` to every row of a translated table.
 */
import { TRANSLATED } from '../migrations/0011_translated_list_names.ts';

const NAMES: Record<string, [en: string, de: string]> = {
  // ticket statuses (name and name_client)
  Nieuw: ['New', 'Neu'],
  Ontvangen: ['Received', 'Eingegangen'],
  'In behandeling': ['In progress', 'In Bearbeitung'],
  'Wacht op klant': ['Waiting for client', 'Wartet auf Kunde'],
  'Wacht op uw reactie': ['Waiting for your reply', 'Wartet auf Ihre Antwort'],
  'Reactie ontvangen': ['Reply received', 'Antwort erhalten'],
  Ingepland: ['Scheduled', 'Eingeplant'],
  Opgelost: ['Resolved', 'Gelöst'],
  Gearchiveerd: ['Archived', 'Archiviert'],
  // priorities
  Laag: ['Low', 'Niedrig'],
  Normaal: ['Normal', 'Normal'],
  Hoog: ['High', 'Hoch'],
  Kritiek: ['Critical', 'Kritisch'],
  // asset statuses
  Offerte: ['Quoted', 'Angeboten'],
  Besteld: ['Ordered', 'Bestellt'],
  'Op voorraad': ['In stock', 'Auf Lager'],
  'In gebruik': ['In use', 'In Betrieb'],
  'Buiten gebruik': ['Out of use', 'Außer Betrieb'],
  // asset categories
  Laptop: ['Laptop', 'Laptop'],
  Desktop: ['Desktop', 'Desktop'],
  Printer: ['Printer', 'Drucker'],
  Netwerkapparatuur: ['Network equipment', 'Netzwerkgeräte'],
  Server: ['Server', 'Server'],
  Telefoon: ['Phone', 'Telefon'],
  // categories
  Werkplekken: ['Workplaces', 'Arbeitsplätze'],
  Netwerk: ['Network', 'Netzwerk'],
  'Microsoft 365': ['Microsoft 365', 'Microsoft 365'],
  Printers: ['Printers', 'Drucker'],
  Telefonie: ['Telephony', 'Telefonie'],
  Beveiliging: ['Security', 'Sicherheit'],
  // ticket types and sources
  Incident: ['Incident', 'Störung'],
  Serviceverzoek: ['Service request', 'Serviceanfrage'],
  Wijziging: ['Change', 'Änderung'],
  Vraag: ['Question', 'Frage'],
  'E-mail': ['Email', 'E-Mail'],
  Portal: ['Portal', 'Portal'],
  Monitoring: ['Monitoring', 'Überwachung'],
  // activities
  'Support op afstand': ['Remote support', 'Fernwartung'],
  'Support op locatie': ['On-site support', 'Vor-Ort-Support'],
  Installatie: ['Installation', 'Installation'],
  Advies: ['Consultancy', 'Beratung'],
  'Intern overleg': ['Internal meeting', 'Interne Besprechung'],
  // services
  'Managed werkplek': ['Managed workplace', 'Managed Arbeitsplatz'],
  Netwerkbeheer: ['Network management', 'Netzwerkverwaltung'],
  'Microsoft 365 beheer': ['Microsoft 365 management', 'Microsoft-365-Verwaltung'],
  'Back-up en herstel': ['Backup and recovery', 'Sicherung und Wiederherstellung'],
  // SLAs, business hours, countries
  Basis: ['Basic', 'Basis'],
  Business: ['Business', 'Business'],
  Premium: ['Premium', 'Premium'],
  Kantoortijden: ['Office hours', 'Bürozeiten'],
  '24/7': ['24/7', '24/7'],
  Nederland: ['Netherlands', 'Niederlande'],
  België: ['Belgium', 'Belgien'],
  Duitsland: ['Germany', 'Deutschland'],
};

/** The row with the English and German names of its translated columns, when the table has any. */
export function withTranslations(table: string, row: Record<string, unknown>): Record<string, unknown> {
  const out = { ...row };
  for (const column of TRANSLATED[table] ?? []) {
    const names = NAMES[String(row[column])];
    if (!names) continue;
    out[`${column}_en`] = names[0];
    out[`${column}_de`] = names[1];
  }
  return out;
}
