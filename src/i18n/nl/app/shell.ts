import type { ShellTexts } from '../../en/app/shell.ts';

/** The apps' texts in Dutch, the apps' frame: names, page titles, menus, languages, login and setup. */
const shell: ShellTexts = {
  name: {
    portal: 'Portal',
    back_office: 'Backoffice',
  },
  title: {
    portal: '%{section} - %{tenant} Portal',
    portal_home: '%{tenant} Portal',
    back_office: '%{section} - %{tenant}',
    back_office_home: '%{tenant} Backoffice',
    record: '%{label} - %{type}',
  },
  menu: {
    label: 'Hoofdmenu',
    open: 'Menu openen',
    close: 'Menu sluiten',
    dashboard: 'Dashboard',
    tickets: 'Tickets',
    quotes: 'Offertes',
    subscriptions: 'Abonnementen',
    assets: 'Assets',
    contracts: 'Contracten',
    invoices: 'Facturen',
    profile: 'Profiel',
    user_menu_named: '%{name}, profiel',
    settings: 'Instellingen',
    logout: 'Uitloggen',
    // The back office's menu groups (schemas' x-menu group).
    groups: {
      daily: 'Dagelijks werk',
      sales: 'Verkoop en facturatie',
      settings: 'Instellingen',
    },
  },
  // The form label of a translated field's own (Dutch) text; its translations have labels of their own.
  translated: { base: '%{label} (Nederlands)' },
  locale: {
    label: 'Taal',
    choose: 'Kies een taal',
    nl: 'Nederlands',
    en: 'English',
    de: 'Deutsch',
  },
  auth: {
    title: 'Inloggen',
    portal_title: 'Inloggen op het %{tenant} portal',
    back_office_title: 'Inloggen op de backoffice',
    email: 'E-mailadres',
    password: 'Wachtwoord',
    sign_in: 'Inloggen',
    signing_in: 'Bezig met inloggen…',
    sign_in_sso: 'Inloggen met Microsoft',
    sso_busy: 'Je wordt ingelogd…',
    sso_failed: 'Inloggen via single sign-on is mislukt. Log opnieuw in.',
    sign_in_with: 'Inloggen met %{name}',
    sso_start_failed:
      'De aanmeldprovider is niet bereikbaar. Probeer het later opnieuw of log in met je wachtwoord.',
    invalid_credentials: 'Onjuist e-mailadres of wachtwoord.',
    too_many_attempts:
      'Te veel inlogpogingen. Probeer het over %{smart_count} minuut opnieuw. |||| Te veel inlogpogingen. Probeer het over %{smart_count} minuten opnieuw.',
    too_many_attempts_seconds:
      'Te veel inlogpogingen. Probeer het over %{smart_count} seconde opnieuw. |||| Te veel inlogpogingen. Probeer het over %{smart_count} seconden opnieuw.',
    too_many_reset_requests:
      'Te veel aanvragen. Probeer het over %{smart_count} minuut opnieuw. |||| Te veel aanvragen. Probeer het over %{smart_count} minuten opnieuw.',
    too_many_reset_requests_seconds:
      'Te veel aanvragen. Probeer het over %{smart_count} seconde opnieuw. |||| Te veel aanvragen. Probeer het over %{smart_count} seconden opnieuw.',
    forgot_password: 'Wachtwoord vergeten?',
    reset_title: 'Wachtwoord herstellen',
    reset_intro: 'Vul je e-mailadres in; je ontvangt een link om een nieuw wachtwoord te kiezen.',
    send_reset_link: 'Link versturen',
    reset_link_sent:
      'Als dit e-mailadres bij ons bekend is, ontvang je binnen enkele minuten een e-mail met een link.',
    new_password: 'Nieuw wachtwoord',
    confirm_password: 'Herhaal nieuw wachtwoord',
    passwords_differ: 'De wachtwoorden komen niet overeen.',
    password_repeated: 'Het wachtwoord mag niet uit één herhaald teken bestaan.',
    password_common: 'Dit wachtwoord is een van de meest gebruikte wachtwoorden. Kies een ander.',
    password_has_email: 'Het wachtwoord mag het e-mailadres of het deel voor de @ niet bevatten.',
    save_password: 'Wachtwoord opslaan',
    password_changed: 'Je wachtwoord is gewijzigd. Je kunt nu inloggen.',
    reset_link_invalid: 'Deze link is ongeldig of verlopen. Vraag een nieuwe aan.',
    back_to_login: 'Terug naar inloggen',
    logout: 'Uitloggen',
    session_expired: 'Je sessie is verlopen. Log opnieuw in.',
    trial_ended: 'De proefperiode is afgelopen.',
    password_subject: 'Het wachtwoord',
  },
  setup: {
    title: 'Installatie',
    not_completed: 'Deze omgeving is nog niet ingericht.',
    being_set_up: 'Dit portal wordt ingericht. Kom later terug.',
  },
};

export default shell;
