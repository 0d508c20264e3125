/** The apps' texts in English, the apps' frame: names, page titles, menus, languages, login and setup. */
const shell = {
  name: {
    portal: 'Portal',
    back_office: 'Back office',
  },
  /** The page title: the section title, the tenant name and 'Portal' (SPEC section 2). */
  title: {
    portal: '%{section} - %{tenant} Portal',
    portal_home: '%{tenant} Portal',
    back_office: '%{section} - %{tenant}',
    back_office_home: '%{tenant} Back office',
    /** A detail screen: the record label plus the type name. */
    record: '%{label} - %{type}',
  },
  menu: {
    label: 'Main menu',
    open: 'Open menu',
    close: 'Close menu',
    dashboard: 'Dashboard',
    tickets: 'Tickets',
    quotes: 'Quotes',
    subscriptions: 'Subscriptions',
    assets: 'Assets',
    contracts: 'Contracts',
    invoices: 'Invoices',
    profile: 'Profile',
    /** The user menu's button: the name it shows, then what it opens (src/shell/UserMenuButton.tsx). */
    user_menu_named: '%{name}, profile',
    settings: 'Settings',
    logout: 'Log out',
    // The back office's menu groups (schemas' x-menu group).
    groups: {
      daily: 'Daily work',
      sales: 'Sales and billing',
      settings: 'Settings',
    },
  },
  // The form label of a translated field's own (Dutch) text; its translations have labels of their own.
  translated: { base: '%{label} (Dutch)' },
  locale: {
    label: 'Language',
    choose: 'Choose a language',
    nl: 'Nederlands',
    en: 'English',
    de: 'Deutsch',
  },
  auth: {
    title: 'Sign in',
    portal_title: 'Sign in to the %{tenant} portal',
    back_office_title: 'Sign in to the back office',
    email: 'Email address',
    password: 'Password',
    sign_in: 'Sign in',
    signing_in: 'Signing in…',
    sign_in_sso: 'Sign in with Microsoft',
    sso_busy: 'Signing you in…',
    sso_failed: 'Single sign-on failed. Please sign in again.',
    sign_in_with: 'Sign in with %{name}',
    sso_start_failed:
      'The sign-in provider could not be reached. Try again later or sign in with your password.',
    invalid_credentials: 'Incorrect email address or password.',
    too_many_attempts:
      'Too many sign-in attempts. Please try again in %{smart_count} minute. |||| Too many sign-in attempts. Please try again in %{smart_count} minutes.',
    too_many_attempts_seconds:
      'Too many sign-in attempts. Please try again in %{smart_count} second. |||| Too many sign-in attempts. Please try again in %{smart_count} seconds.',
    too_many_reset_requests:
      'Too many requests. Please try again in %{smart_count} minute. |||| Too many requests. Please try again in %{smart_count} minutes.',
    too_many_reset_requests_seconds:
      'Too many requests. Please try again in %{smart_count} second. |||| Too many requests. Please try again in %{smart_count} seconds.',
    forgot_password: 'Forgot your password?',
    reset_title: 'Reset your password',
    reset_intro: 'Enter your email address and we will send you a link to choose a new password.',
    send_reset_link: 'Send link',
    reset_link_sent: 'If we know this email address, you will shortly receive an email with a link.',
    new_password: 'New password',
    confirm_password: 'Repeat new password',
    passwords_differ: 'The passwords do not match.',
    password_repeated: 'The password may not be one character repeated.',
    password_common: 'This password is one of the most common passwords. Choose another.',
    password_has_email: 'The password may not contain the email address or the part before the @.',
    save_password: 'Save password',
    password_changed: 'Your password has been changed. You can now sign in.',
    reset_link_invalid: 'This link is invalid or has expired. Please request a new one.',
    back_to_login: 'Back to sign in',
    logout: 'Log out',
    session_expired: 'Your session has expired. Please sign in again.',
    trial_ended: 'The trial period has ended.',
    password_subject: 'The password',
  },
  /** Two-factor sign-in (issue 38): the login's code step, the own settings page, the reset. */
  two_factor: {
    menu_item: 'Two-factor sign-in',
    title: 'Two-factor sign-in',
    code_title: 'Enter your code',
    code_intro: 'Enter the 6-digit code from your authenticator app.',
    recovery_intro: 'Enter one of your recovery codes.',
    code: 'Code',
    recovery_code: 'Recovery code',
    use_recovery: 'Use a recovery code',
    use_app: 'Use a code from your app',
    verify: 'Verify',
    back_to_login: 'Back to sign in',
    enrol_required: 'Your role requires two-factor sign-in. Set it up to continue.',
    enrol_intro: 'Scan the QR code with an authenticator app, then enter the 6-digit code it shows.',
    qr_alt: 'QR code for your authenticator app',
    secret: 'Key to type in by hand',
    recovery_title: 'Your recovery codes',
    recovery_codes_intro:
      'Each code signs you in once if you lose your phone. Keep them somewhere safe: they are shown only now.',
    proceed: 'Continue',
    status_on: 'Two-factor sign-in is on.',
    status_off: 'Two-factor sign-in is off.',
    required: 'Your role requires two-factor sign-in.',
    codes_left: '%{smart_count} unused recovery code |||| %{smart_count} unused recovery codes',
    start: 'Set up two-factor sign-in',
    confirm: 'Turn on',
    disable: 'Turn off',
    cancel: 'Cancel',
    disable_intro: 'Enter a current code or your password to turn two-factor sign-in off.',
    password: 'Password',
    enabled: 'Two-factor sign-in is on.',
    disabled: 'Two-factor sign-in is off.',
    failed: 'That did not work. Please try again.',
    reset: 'Reset two-factor sign-in',
    reset_done: 'Two-factor sign-in was reset.',
    reset_confirm: "Remove this user's second factor? They sign in with their password and set it up again.",
  },
  setup: {
    title: 'Setup',
    not_completed: 'This environment has not been set up yet.',
    being_set_up: 'This portal is being set up. Please come back later.',
  },
};

export type ShellTexts = typeof shell;

export default shell;
