/**
 * The server's texts that the apps show a user: an action refused, a rule a value broke. The server
 * answers in English, the wire's language (API clients read these texts, and SPEC 7's contracts are
 * English); the apps show each one in the user's language by finding it here and translating its key,
 * `app.server.<key>` (src/i18n/{nl,en,de}/app.ts). A text that is not here is shown as the server wrote
 * it, so every text a user of the apps can meet belongs here (tests/unit/server-texts.test.ts checks
 * the three languages).
 *
 * `{name}` marks a value the server fills in; the translation gets it as `%{name}`. Two values are
 * named by the apps instead of shown as sent: `{field}` becomes the field's label and `{resource}` the
 * record kind of the call, in the user's language. Numbers (`{id}`, `{count}`, `{max}`, `{cost}`,
 * `{budget}`) are digits only, so that a text with a number is not taken for one with a name there.
 */

export const SERVER_TEXTS = {
  // Any record.
  record_in_use: 'This record is still in use by other records.',
  value_taken: 'The {field} has already been taken.',
  value_invalid: 'The selected value is invalid.',
  value_not_valid: 'A value is not valid for its field.',
  selected_invalid: 'The selected {field} is invalid.',
  field_required: 'The {field} field is required.',
  value_too_long: 'The {field} may not be greater than {max} characters.',
  html_too_deep: 'The {field} nests its HTML more than {max} levels deep.',
  value_not_text: 'The {field} must be a text.',
  order_out_of_range: 'The order must be a whole number from 0 to 1000000.',
  create_refused: 'You may not create this record.',
  move_refused: 'You may not move this record out of your own companies.',
  // Company roles (issue 39).
  on_behalf_refused:
    'You may create a ticket only for yourself, or for a colleague of its company where your role allows it.',
  share_refused: 'You may share only a ticket you may share, and only with another colleague of its company.',
  access_change_refused: 'You may change only the role of a colleague, in a company where you manage access.',
  company_role_resource:
    'A role can name only portal resources that it can limit by company: {name} is not one.',
  nul_text: 'Texts may not contain the NUL character.',
  search_text_length: 'Type 3 to 100 characters to search.',
  custom_field_unknown: 'There is no custom field {name}.',
  // The builder item select (issue 40): the columns a list screen shows.
  select_unknown: 'There is no field {name} you may read here, so it cannot be shown.',
  select_not_loaded: 'The field {name} belongs to a relation this list does not load: add it to with.',
  select_version: 'The fields to show can be chosen only in the first version of a list.',
  select_several_kinds: 'The field {name} cannot be chosen: its relation leads to several kinds of record.',
  query_too_expensive:
    'The query is too expensive: it costs {cost} where at most {budget} is allowed ' +
    '(conditions through relations, searches, loaded relations and presets add up). ' +
    'Use fewer nested conditions or presets.',
  with_too_many_rows:
    'The relations to load ({name}) can bring up to {count} rows, where at most {budget} are allowed ' +
    '(a to-many relation counts {max} rows for each record it hangs from, on every record of the page). ' +
    'Load fewer or less deeply nested relations, or fewer records per page.',
  answer_too_large:
    'The answer would be {count} MB, more than the {max} MB one answer may be. ' +
    'Ask for fewer records per page or fewer relations (with).',
  // Merging and other actions on several records.
  merge_too_few: 'Select at least two records to merge.',
  merge_too_many: 'At most {count} records can be merged at once.',
  merge_record_invalid: 'The selected {resource} {id} is invalid.',
  select_at_least_one: 'Select at least one record.',
  bulk_too_many: 'At most {count} records can be changed at once.',
  // Notifications and their mail choices (issue 19).
  number_range: 'The {field} must be a whole number from 1 to {max}.',
  choices_list: 'Send the choices as a list of kinds, each with email true or false.',
  value_true_false: 'The {field} must be true or false.',
  bulk_ids_or_builder: 'Send either the selected ids or the filter (builder), one of the two.',
  bulk_action_unknown: 'The action must be one of: {actions}.',
  bulk_no_changes: 'Send the fields to change (changes) with the update action only.',
  bulk_field_not_offered: 'The {field} cannot be changed for many records at once.',
  select_at_most: 'At most {count} records can be handled at once.',
  // Messages and their files.
  files_own_messages: 'You can only add files to your own messages.',
  attachment_linked_elsewhere: 'An attachment is already linked to another message.',
  client_message_kept:
    "A client's message cannot be deleted: edit it to remove what may not stay, the thread shows it was edited.",
  // Tickets.
  ticket_no_closed_status: 'There is no ticket status of the type closed to close the ticket with.',
  ticket_closed_already: 'This ticket is closed already.',
  // A ticket's checklist (issue 37, item 4).
  checklist_required_open:
    'Required checklist items are still open: {count}. Tick them off before the ticket is closed.',
  checklist_client_ticks_only: 'In the portal a checklist item can only be ticked off or on.',
  flag_not_boolean: '{field} must be true or false.',
  // A recurring ticket's schedule.
  recurring_weekday_needed: 'A weekly schedule needs a weekday.',
  recurring_not_weekly: 'A weekly schedule runs on a weekday: leave this empty.',
  recurring_day_or_weekday:
    'Give either a day of the month, or which weekday of the month (nth and weekday).',
  ticket_archived: 'This ticket is archived: restore it first.',
  ticket_not_restorable: 'Only a closed or archived ticket can be restored.',
  ticket_no_open_status: 'There is no open ticket status to restore the ticket to.',
  ticket_no_start_status: 'There is no open ticket status to start in.',
  // Macros (issue 37, item 3).
  macro_share_refused: 'Only an operator who may share macros can make one for the team: make it personal.',
  macro_personal_role: 'A personal macro is for you alone: it is for no role.',
  // The dashboard's day.
  day_bound_invalid: 'The {name} must be a date and time in ISO 8601 (2026-11-24T00:00:00+01:00).',
  day_invalid: 'From and to must be the start and end of one day.',
  // The service reports' period.
  report_range_invalid: 'The period must end on or after its first day and span at most {max} days.',
  // Scheduled reports.
  report_subscriptions_full:
    'You have {max} report subscriptions, the most one operator may have: delete one first.',
  // Quotes.
  quote_locked: 'An accepted quote can no longer be changed.',
  quote_no_recipient: 'This quote has no client with an e-mail address to send it to.',
  quote_accepted_not_sendable: 'This quote has been accepted and can no longer be sent.',
  quote_rejected_not_sendable: 'This quote has been rejected and can no longer be sent.',
  quote_not_acceptable: 'This quote can no longer be accepted.',
  quote_not_declinable: 'This quote can no longer be declined.',
  quote_expired:
    'This quote is past its validity date and can no longer be accepted, unless its validity is extended.',
  quote_expired_not_sendable: 'This quote is past its validity date: extend its validity before sending it.',
  signature_missing: 'No signature has been set.',
  signature_not_png: 'The signature must be a PNG image (data:image/png;base64,…).',
  signature_too_large: 'The signature may not be larger than 500 KB.',
  signature_invalid: 'The signature is not a valid PNG image.',
  // Invoicing.
  invoice_concept_already: 'This invoice is a concept already.',
  line_invoiced_already: 'The {resource} {id} is already on an invoice.',
  line_no_company: 'The {resource} {id} has no company to invoice.',
  line_not_invoiced: 'The {resource} {id} is not on an invoice.',
  line_invoice_sent:
    'The {resource} {id} is on invoice {invoice}, which has been sent: restore that invoice to concept first.',
  // Contracts.
  prepaid_card_invalid: 'The selected prepaid card is invalid.',
  prepaid_only: 'Only a prepaid contract can be topped up with a prepaid card.',
  // A record saved whose e-mail did not go (an answer's `mail_error`): tried again, or given up at once
  // (MAIL_MAX_ATTEMPTS 1).
  quote_mail_retrying:
    'The quote is marked as sent, but the e-mail to its client could not be sent yet. It is tried again automatically: do not send the quote again.',
  quote_mail_given_up:
    'The quote is marked as sent, but the e-mail to its client could not be sent and has been given up. Try it again under Outgoing mail: do not send the quote again.',
  message_mail_retrying:
    'The message was saved, but the e-mail to the client could not be sent yet. It is tried again automatically.',
  message_mail_given_up:
    'The message was saved, but the e-mail to the client could not be sent and has been given up. Try it again under Outgoing mail.',
  message_sender_not_held: 'Only a mail whose sender is not verified can be confirmed or rejected.',
  // Outgoing mail.
  mail_retry_failed: 'The mail could not be sent this time either.',
  mail_retry_sending: 'This mail is being sent right now; wait for the outcome before trying again.',
  mail_retry_no_body:
    'The content of this mail is no longer kept, so it cannot be sent again. Send what caused it again instead.',
  // Accounts, roles and settings.
  role_for_operators: 'The selected role is for operators, not for clients.',
  role_for_clients: 'The selected role is for clients, not for operators.',
  role_beyond_caller: 'You may not give a role with permissions you do not hold yourself.',
  role_kind_held: 'A role held by accounts cannot change between operators and clients.',
  others_settings: 'You may only change your own settings.',
  password_confirmation_mismatch: 'The password confirmation does not match.',
  sso_not_configured: 'Single sign-on is not configured.',
  sso_failed: 'Single sign-on failed.',
  sso_provider_unknown: 'This sign-in provider is not available.',
  sso_provider_unreachable: 'The sign-in provider could not be reached. Try again later.',
  // The first run (issue 32).
  setup_done: 'This desk has been set up already: sign in instead.',
  tenant_slug_taken: 'There is already a tenant at the address {name}.',
  setup_slug_invalid:
    'This address cannot be a tenant: use a subdomain of lower-case letters, digits and hyphens.',
  setup_try_later: 'Too many tests at once: wait a minute and try again.',
  // A business-hour calendar (common/sla/calendar.ts): the key names the field or interval.
  calendar_schedule_missing: 'The schedule is missing: give working intervals per weekday, or "24/7".',
  calendar_schedule_not_object: 'The schedule must be an object of weekdays (monday to sunday), or "24/7".',
  calendar_weekday_unknown: 'Unknown weekday {day}: use monday to sunday.',
  calendar_intervals_not_list: 'The {day} intervals must be a list of from and to times.',
  calendar_interval_not_object: 'An interval must be an object with a from and a to time.',
  calendar_time_bad: 'The time {value} is not a time HH:MM from 00:00 to 24:00.',
  calendar_time_missing: 'The time is missing: give it as HH:MM from 00:00 to 24:00.',
  calendar_interval_reversed: 'The interval {from} to {to} ends before or when it starts.',
  calendar_interval_overlap: 'The interval {from} to {to} overlaps the interval {start} to {end}.',
  calendar_no_working_time: 'The schedule has no working time: give at least one interval, or "24/7".',
  calendar_timezone_not_text: 'The time zone must be an IANA name such as Europe/Amsterdam.',
  calendar_timezone_unknown: 'Unknown time zone {zone}: use an IANA name such as Europe/Amsterdam.',
  calendar_holidays_not_list: 'The holidays must be a list of dates with a name.',
  calendar_holiday_not_object: 'A holiday must be an object with a date and a name.',
  calendar_holiday_date_bad: 'The holiday date {value} is not a date YYYY-MM-DD, or MM-DD for every year.',
  calendar_holiday_name_missing: 'A holiday needs a name.',
  // Automation rules and macros (issue 37).
  automation_action_unknown: 'The action type must be one of: {actions}.',
  automation_field_not_settable: 'The field {name} cannot be set by an action.',
  automation_too_many_actions: 'A rule or macro has at most {count} actions.',
  automation_action_not_allowed:
    'You may not take the action {name} yourself, so a rule of yours may not either.',
  automation_action_person_only:
    'The action {name} is for macros only: a rule acts for no one to log time for.',
  automation_minutes_invalid: 'The minutes must be a whole number from 1 to {max}.',
  automation_loop:
    'This rule would fire again on its own change of {name}: add a condition that excludes the value it sets.',
  automation_event_field_unknown: 'There is no ticket field {name} to watch.',
  automation_not_for_kind: 'This field is only for a rule of the other kind.',
  automation_me_in_rule:
    'A rule runs for no one, so its conditions cannot use me: name the operator or value.',
  // API tokens (issue 38).
  token_scope_unknown: 'There is no permission {name} to give a token.',
  token_expiry_past: 'The expiry date must lie in the future.',
  token_expiry_too_far: 'A token expires within {count} days.',
  token_owner_refused: 'A token is for yourself, or for a service account if you may manage tokens.',
  token_by_token: 'An API token cannot create tokens: sign in to create one.',
  // Webhooks (issue 38, item 4).
  webhook_url_invalid: 'The URL is not a valid address.',
  webhook_url_not_https: 'The URL must start with https://.',
  webhook_url_credentials: 'The URL may not contain a user name or password.',
  webhook_url_private:
    'The URL points to {name}, a private, loopback or otherwise non-public address; this installation does not allow such targets.',
  // Two-factor sign-in (issue 38, item 1).
  two_factor_code_invalid: 'The code is not valid, or was used already.',
  two_factor_recovery_invalid: 'The recovery code is not valid, or was used already.',
  two_factor_code_missing: 'Give a code from your authenticator app or a recovery code.',
  two_factor_challenge_invalid: 'This sign-in has expired: sign in again.',
  two_factor_already_on: 'Two-factor sign-in is on already: turn it off first.',
  two_factor_not_started: 'Start setting up two-factor sign-in first.',
  two_factor_not_on: 'Two-factor sign-in is not on.',
  two_factor_required_by_role: 'Your role requires two-factor sign-in: it cannot be turned off.',
  two_factor_proof_missing: 'Give a current code or your password.',
  two_factor_password_invalid: 'The password is not right.',
  survey_link_invalid: 'This survey link is invalid or has expired.',
  survey_answered: 'This survey has already been answered.',
  survey_rating_invalid: 'Choose one of the ratings of this survey.',
} as const;

export type ServerTextKey = keyof typeof SERVER_TEXTS;

/**
 * The texts as the apps' English messages (`{name}` as polyglot's `%{name}`): the English app says most
 * of them in the server's own words.
 */
export function serverTextMessages(): Record<ServerTextKey, string> {
  return Object.fromEntries(
    Object.entries(SERVER_TEXTS).map(([key, text]) => [key, text.replace(/\{(\w+)\}/g, '%{$1}')]),
  ) as Record<ServerTextKey, string>;
}

/** The values that are numbers: matched as digits only. */
const NUMBERS = new Set(['id', 'count', 'max', 'cost', 'budget']);

/** The server's text `key` with its `{name}`s filled in. */
export function serverText(key: ServerTextKey, values: Record<string, string | number> = {}): string {
  return SERVER_TEXTS[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name] ?? `{${name}}`));
}

interface Matcher {
  key: ServerTextKey;
  pattern: RegExp;
  names: string[];
  /** Characters matched literally: of two texts a line fits, the one with more is the one meant. */
  literal: number;
}

let matchers: Matcher[] | undefined;

/** Each text as a pattern that gives back its values: literal parts exact, each `{name}` any text. */
function compile(): Matcher[] {
  return (Object.entries(SERVER_TEXTS) as [ServerTextKey, string][]).map(([key, text]) => {
    const names: string[] = [];
    const source = text
      .split(/(\{\w+\})/)
      .map((part) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(name);
        return NUMBERS.has(name) ? '(\\d+)' : '(.+?)';
      })
      .join('');
    const literal = text.replace(/\{\w+\}/g, '').length;
    return { key, pattern: new RegExp(`^${source}$`), names, literal };
  });
}

/** Which of the server's texts `line` is, with its values; undefined for a text that is not here. */
export function matchServerText(
  line: string,
): { key: ServerTextKey; values: Record<string, string> } | undefined {
  matchers ??= compile();
  let best: { key: ServerTextKey; values: Record<string, string>; literal: number } | undefined;
  for (const { key, pattern, names, literal } of matchers) {
    const match = pattern.exec(line);
    if (match && literal > (best?.literal ?? -1))
      best = { key, values: Object.fromEntries(names.map((n, i) => [n, match[i + 1]!])), literal };
  }
  return best && { key: best.key, values: best.values };
}
