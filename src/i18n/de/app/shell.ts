import type { ShellTexts } from '../../en/app/shell.ts';
import type { DeepPartial } from '../../types.ts';

/** The apps' texts in German, the apps' frame: names, page titles, menus, languages, login and setup. */
const shell: DeepPartial<ShellTexts> = {
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
    label: 'Hauptmenü',
    open: 'Menü öffnen',
    close: 'Menü schließen',
    dashboard: 'Dashboard',
    tickets: 'Tickets',
    quotes: 'Angebote',
    subscriptions: 'Abonnements',
    assets: 'Assets',
    contracts: 'Verträge',
    invoices: 'Rechnungen',
    profile: 'Profil',
    user_menu_named: '%{name}, Profil',
    settings: 'Einstellungen',
    logout: 'Abmelden',
    // The back office's menu groups (schemas' x-menu group).
    groups: {
      daily: 'Tagesgeschäft',
      sales: 'Vertrieb und Abrechnung',
      settings: 'Einstellungen',
    },
  },
  // The form label of a translated field's own (Dutch) text; its translations have labels of their own.
  translated: { base: '%{label} (Niederländisch)' },
  locale: {
    label: 'Sprache',
    choose: 'Sprache wählen',
    nl: 'Nederlands',
    en: 'English',
    de: 'Deutsch',
  },
  auth: {
    title: 'Anmelden',
    portal_title: 'Beim %{tenant} Portal anmelden',
    back_office_title: 'Beim Backoffice anmelden',
    email: 'E-Mail-Adresse',
    password: 'Passwort',
    sign_in: 'Anmelden',
    signing_in: 'Anmeldung läuft…',
    sign_in_sso: 'Mit Microsoft anmelden',
    sso_busy: 'Sie werden angemeldet…',
    sso_failed: 'Die Anmeldung per Single Sign-on ist fehlgeschlagen. Bitte melden Sie sich erneut an.',
    sign_in_with: 'Mit %{name} anmelden',
    sso_start_failed:
      'Der Anmeldeanbieter ist nicht erreichbar. Versuchen Sie es später erneut oder melden Sie sich mit Ihrem Passwort an.',
    invalid_credentials: 'E-Mail-Adresse oder Passwort ist falsch.',
    too_many_attempts:
      'Zu viele Anmeldeversuche. Bitte versuchen Sie es in %{smart_count} Minute erneut. |||| Zu viele Anmeldeversuche. Bitte versuchen Sie es in %{smart_count} Minuten erneut.',
    too_many_attempts_seconds:
      'Zu viele Anmeldeversuche. Bitte versuchen Sie es in %{smart_count} Sekunde erneut. |||| Zu viele Anmeldeversuche. Bitte versuchen Sie es in %{smart_count} Sekunden erneut.',
    too_many_reset_requests:
      'Zu viele Anfragen. Bitte versuchen Sie es in %{smart_count} Minute erneut. |||| Zu viele Anfragen. Bitte versuchen Sie es in %{smart_count} Minuten erneut.',
    too_many_reset_requests_seconds:
      'Zu viele Anfragen. Bitte versuchen Sie es in %{smart_count} Sekunde erneut. |||| Zu viele Anfragen. Bitte versuchen Sie es in %{smart_count} Sekunden erneut.',
    forgot_password: 'Passwort vergessen?',
    reset_title: 'Passwort zurücksetzen',
    reset_intro:
      'Geben Sie Ihre E-Mail-Adresse ein; Sie erhalten einen Link, um ein neues Passwort zu wählen.',
    send_reset_link: 'Link senden',
    reset_link_sent:
      'Wenn uns diese E-Mail-Adresse bekannt ist, erhalten Sie in Kürze eine E-Mail mit einem Link.',
    new_password: 'Neues Passwort',
    confirm_password: 'Neues Passwort wiederholen',
    passwords_differ: 'Die Passwörter stimmen nicht überein.',
    password_repeated: 'Das Passwort darf nicht aus einem wiederholten Zeichen bestehen.',
    password_common: 'Dieses Passwort gehört zu den häufigsten Passwörtern. Wählen Sie ein anderes.',
    password_has_email: 'Das Passwort darf die E-Mail-Adresse oder den Teil vor dem @ nicht enthalten.',
    save_password: 'Passwort speichern',
    password_changed: 'Ihr Passwort wurde geändert. Sie können sich jetzt anmelden.',
    reset_link_invalid: 'Dieser Link ist ungültig oder abgelaufen. Bitte fordern Sie einen neuen an.',
    back_to_login: 'Zurück zur Anmeldung',
    logout: 'Abmelden',
    session_expired: 'Ihre Sitzung ist abgelaufen. Bitte melden Sie sich erneut an.',
    trial_ended: 'Der Testzeitraum ist abgelaufen.',
    password_subject: 'Das Passwort',
  },
  /** Two-factor sign-in (issue 38): the login's code step, the own settings page, the reset. */
  two_factor: {
    menu_item: 'Zwei-Faktor-Anmeldung',
    title: 'Zwei-Faktor-Anmeldung',
    code_title: 'Code eingeben',
    code_intro: 'Geben Sie den 6-stelligen Code aus Ihrer Authenticator-App ein.',
    recovery_intro: 'Geben Sie einen Ihrer Wiederherstellungscodes ein.',
    code: 'Code',
    recovery_code: 'Wiederherstellungscode',
    use_recovery: 'Einen Wiederherstellungscode verwenden',
    use_app: 'Einen Code aus der App verwenden',
    verify: 'Prüfen',
    back_to_login: 'Zurück zur Anmeldung',
    enrol_required: 'Ihre Rolle verlangt die Zwei-Faktor-Anmeldung. Richten Sie sie ein, um fortzufahren.',
    enrol_intro:
      'Scannen Sie den QR-Code mit einer Authenticator-App und geben Sie den angezeigten 6-stelligen Code ein.',
    qr_alt: 'QR-Code für Ihre Authenticator-App',
    secret: 'Schlüssel zur Eingabe von Hand',
    recovery_title: 'Ihre Wiederherstellungscodes',
    recovery_codes_intro:
      'Jeder Code meldet Sie einmal an, falls Sie Ihr Telefon verlieren. Bewahren Sie sie sicher auf: Sie werden nur jetzt angezeigt.',
    proceed: 'Weiter',
    status_on: 'Die Zwei-Faktor-Anmeldung ist aktiv.',
    status_off: 'Die Zwei-Faktor-Anmeldung ist aus.',
    required: 'Ihre Rolle verlangt die Zwei-Faktor-Anmeldung.',
    codes_left:
      '%{smart_count} unbenutzter Wiederherstellungscode |||| %{smart_count} unbenutzte Wiederherstellungscodes',
    start: 'Zwei-Faktor-Anmeldung einrichten',
    confirm: 'Einschalten',
    disable: 'Ausschalten',
    cancel: 'Abbrechen',
    disable_intro:
      'Geben Sie einen aktuellen Code oder Ihr Passwort ein, um die Zwei-Faktor-Anmeldung auszuschalten.',
    password: 'Passwort',
    enabled: 'Die Zwei-Faktor-Anmeldung ist aktiv.',
    disabled: 'Die Zwei-Faktor-Anmeldung ist aus.',
    failed: 'Das hat nicht geklappt. Bitte versuchen Sie es erneut.',
    reset: 'Zwei-Faktor-Anmeldung zurücksetzen',
    reset_done: 'Die Zwei-Faktor-Anmeldung wurde zurückgesetzt.',
    reset_confirm:
      'Den zweiten Faktor dieses Benutzers entfernen? Er meldet sich mit dem Passwort an und richtet ihn neu ein.',
  },
  setup: {
    title: 'Einrichtung',
    not_completed: 'Diese Umgebung ist noch nicht eingerichtet.',
    being_set_up: 'Dieses Portal wird eingerichtet. Bitte kommen Sie später wieder.',
  },
};

export default shell;
