import type { ErrorTexts } from '../../en/app/errors.ts';
import type { DeepPartial } from '../../types.ts';

/**
 * The apps' texts in German, what went wrong and what went right: SPEC 8's errors, the server's texts,
 * successes, confirmations.
 */
const errors: DeepPartial<ErrorTexts> = {
  errors: {
    form_fill_in: 'Bitte ausfüllen: %{fields}.',
    form_check: 'Bitte prüfen: %{fields}.',
    logged_in_elsewhere:
      'Dieser Bearbeiter ist an anderer Stelle angemeldet. Melden Sie sich erneut an, um hier weiterzuarbeiten.',
    generic: 'Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.',
    network: 'Der Server ist nicht erreichbar. Prüfen Sie Ihre Verbindung und versuchen Sie es erneut.',
    validation: 'Nicht alle Felder sind korrekt ausgefüllt.',
    not_found: 'Dieser Eintrag existiert nicht (mehr).',
    prepaid_upgrade_failed: 'Das Stundenkontingent konnte nicht aufgestockt werden.',
    not_confirmed: 'Nicht bestätigt.',
    no_signature: 'Es wurde keine Unterschrift gesetzt.',
    required: '%{field} ist ein Pflichtfeld',
    min_length: '%{subject} muss mindestens %{length} Zeichen lang sein.',
    download_failed: 'Die Datei konnte nicht heruntergeladen werden.',
    chunk_timeout: 'Das Laden dieser Seite hat zu lange gedauert. Bitte laden Sie die Seite neu.',
    server: 'Auf dem Server ist etwas schiefgelaufen. Bitte versuchen Sie es erneut.',
    unavailable: 'Der Server ist kurz nicht erreichbar. Versuchen Sie es in ein paar Sekunden erneut.',
    max_length: '%{subject} darf nicht länger als %{length} Zeichen sein.',
    list_failed: 'Die Liste konnte nicht geladen werden.',
    record_failed: 'Dieses Element konnte nicht geladen werden.',
    custom_fields_failed: 'Die Zusatzfelder konnten nicht geladen werden.',
    retry: 'Erneut versuchen',
    file_type:
      'Dateien vom Typ .%{extension} sind nicht erlaubt. Erlaubt sind Bilder, PDF, Office-Dokumente, Audio, Video, Archive, Code und Textdateien.',
    file_no_extension:
      'Dateien ohne Endung sind nicht erlaubt. Erlaubt sind Bilder, PDF, Office-Dokumente, Audio, Video, Archive, Code und Textdateien.',
    file_empty: 'Die Datei ist leer.',
    file_mismatch:
      'Der Inhalt der Datei passt nicht zu ihrer Endung .%{extension}. Erlaubt sind Bilder, PDF, Office-Dokumente, Audio, Video, Archive, Code und Textdateien.',
  },
  /** Die Texte des Servers (common/server-texts.ts) in der Sprache des Benutzers; `%{field}` ist die Bezeichnung eines Feldes. */
  server: {
    record_in_use: 'Dieser Eintrag wird noch von anderen Einträgen verwendet.',
    value_taken: '%{field} ist bereits vergeben.',
    value_invalid: 'Der gewählte Wert ist ungültig.',
    value_not_valid: 'Ein Wert passt nicht zu seinem Feld.',
    selected_invalid: 'Die gewählte Angabe für %{field} ist ungültig.',
    field_required: '%{field} ist ein Pflichtfeld',
    value_too_long: '%{field} darf nicht länger als %{max} Zeichen sein.',
    html_too_deep: '%{field} verschachtelt sein HTML tiefer als %{max} Ebenen.',
    value_not_text: '%{field} muss ein Text sein.',
    order_out_of_range: 'Die Reihenfolge muss eine ganze Zahl von 0 bis 1000000 sein.',
    files_own_messages: 'Sie können Dateien nur zu Ihren eigenen Nachrichten hinzufügen.',
    attachment_linked_elsewhere: 'Ein Anhang gehört bereits zu einer anderen Nachricht.',
    client_message_kept:
      'Eine Nachricht eines Kunden kann nicht gelöscht werden: Bearbeiten Sie sie, um zu entfernen, was nicht bleiben darf; der Verlauf zeigt, dass sie bearbeitet wurde.',
    create_refused: 'Sie dürfen diesen Eintrag nicht anlegen.',
    move_refused: 'Sie dürfen diesen Eintrag nicht aus Ihren eigenen Firmen verschieben.',
    on_behalf_refused:
      'Sie dürfen ein Ticket nur für sich selbst anlegen, oder für einen Kollegen der Firma, wenn Ihre Rolle es erlaubt.',
    share_refused:
      'Sie dürfen nur ein Ticket teilen, das Sie teilen dürfen, und nur mit einem anderen Kollegen der Firma.',
    access_change_refused:
      'Sie dürfen nur die Rolle eines Kollegen ändern, in einer Firma, deren Zugriff Sie verwalten.',
    company_role_resource:
      'Eine Rolle kann nur Portaldaten nennen, die sich nach Firma begrenzen lassen: %{name} nicht.',
    nul_text: 'Texte dürfen das NUL-Zeichen nicht enthalten.',
    search_text_length: 'Geben Sie 3 bis 100 Zeichen ein, um zu suchen.',
    custom_field_unknown: 'Es gibt kein eigenes Feld %{name}.',
    select_unknown: 'Es gibt kein Feld %{name}, das Sie hier lesen dürfen; es kann nicht angezeigt werden.',
    select_not_loaded:
      'Das Feld %{name} gehört zu einer Verknüpfung, die diese Liste nicht mitlädt: fügen Sie sie zu with hinzu.',
    select_version: 'Die angezeigten Felder können nur in der ersten Version einer Liste gewählt werden.',
    select_several_kinds:
      'Das Feld %{name} kann nicht gewählt werden: die Verknüpfung führt zu verschiedenen Arten von Einträgen.',
    query_too_expensive:
      'Diese Liste verlangt zu viel auf einmal (Kosten %{cost}, höchstens %{budget}). Verwenden Sie weniger Filter über verknüpfte Einträge oder weniger Voreinstellungen.',
    with_too_many_rows:
      'Die verknüpften Einträge, die diese Liste mitlädt (%{name}), können bis zu %{count} Zeilen ergeben, höchstens %{budget} sind erlaubt (eine Verknüpfung zu mehreren Einträgen zählt %{max} Zeilen je Eintrag, für jeden Eintrag der Seite). Laden Sie weniger oder weniger tief verknüpfte Einträge, oder weniger Einträge pro Seite.',
    answer_too_large:
      'Die Antwort wäre %{count} MB groß, mehr als die %{max} MB, die eine Antwort haben darf. Fragen Sie weniger Einträge pro Seite oder weniger verknüpfte Einträge ab.',
    merge_too_few: 'Wählen Sie mindestens zwei Einträge zum Zusammenführen.',
    merge_too_many: 'Es können höchstens %{count} Einträge auf einmal zusammengeführt werden.',
    merge_record_invalid: '%{resource} %{id} kann nicht gewählt werden.',
    select_at_least_one: 'Wählen Sie mindestens einen Eintrag.',
    bulk_too_many: 'Es können höchstens %{count} Einträge auf einmal geändert werden.',
    number_range: '%{field} muss eine ganze Zahl von 1 bis %{max} sein.',
    choices_list: 'Senden Sie die Auswahl als Liste von Arten, jeweils mit E-Mail an oder aus.',
    value_true_false: '%{field} muss wahr oder falsch sein.',
    bulk_ids_or_builder: 'Senden Sie die gewählten IDs oder den Filter, eines von beiden.',
    bulk_action_unknown: 'Die Aktion muss eine der folgenden sein: %{actions}.',
    bulk_no_changes: 'Wählen Sie die zu ändernden Felder, nur bei der Aktion Ändern.',
    bulk_field_not_offered: 'Das Feld %{field} kann nicht für mehrere Einträge auf einmal geändert werden.',
    select_at_most: 'Es können höchstens %{count} Einträge auf einmal bearbeitet werden.',
    ticket_no_closed_status: 'Es gibt keinen Ticketstatus vom Typ geschlossen, um das Ticket zu schließen.',
    ticket_closed_already: 'Dieses Ticket ist bereits geschlossen.',
    checklist_required_open:
      'Es sind noch Pflichtpunkte der Checkliste offen: %{count}. Haken Sie sie ab, bevor das Ticket geschlossen wird.',
    checklist_client_ticks_only:
      'Im Portal kann ein Checklistenpunkt nur abgehakt oder wieder geöffnet werden.',
    flag_not_boolean: '%{field} muss wahr oder falsch sein.',
    recurring_weekday_needed: 'Ein wöchentlicher Plan braucht einen Wochentag.',
    recurring_not_weekly: 'Ein wöchentlicher Plan läuft an einem Wochentag: lassen Sie dies leer.',
    recurring_day_or_weekday:
      'Geben Sie einen Tag des Monats an oder welchen Wochentag des Monats (welcher und Wochentag).',
    ticket_archived: 'Dieses Ticket ist archiviert: stellen Sie es zuerst wieder her.',
    ticket_not_restorable: 'Nur ein geschlossenes oder archiviertes Ticket kann wiederhergestellt werden.',
    ticket_no_open_status:
      'Es gibt keinen offenen Ticketstatus, in den das Ticket zurückgesetzt werden kann.',
    ticket_no_start_status: 'Es gibt keinen offenen Ticketstatus, mit dem begonnen werden kann.',
    macro_share_refused: 'Nur wer Makros teilen darf, erstellt eines für das Team: machen Sie es persönlich.',
    macro_personal_role: 'Ein persönliches Makro ist nur für Sie: es gilt für keine Rolle.',
    day_bound_invalid:
      'Der Wert %{name} muss Datum und Uhrzeit in ISO 8601 sein (2026-11-24T00:00:00+01:00).',
    day_invalid: 'Von und bis müssen Anfang und Ende eines Tages sein.',
    report_range_invalid:
      'Der Zeitraum muss am oder nach dem ersten Tag enden und darf höchstens %{max} Tage umfassen.',
    report_subscriptions_full:
      'Sie haben %{max} Berichtsabonnements, das Maximum pro Mitarbeiter: Löschen Sie zuerst eines.',
    quote_locked: 'Ein angenommenes Angebot kann nicht mehr geändert werden.',
    quote_no_recipient:
      'Dieses Angebot hat keinen Kunden mit einer E-Mail-Adresse, an die es gesendet werden kann.',
    quote_accepted_not_sendable: 'Dieses Angebot wurde angenommen und kann nicht mehr gesendet werden.',
    quote_rejected_not_sendable: 'Dieses Angebot wurde abgelehnt und kann nicht mehr gesendet werden.',
    quote_not_acceptable: 'Dieses Angebot kann nicht mehr angenommen werden.',
    quote_not_declinable: 'Dieses Angebot kann nicht mehr abgelehnt werden.',
    quote_expired:
      'Dieses Angebot ist abgelaufen und kann nicht mehr angenommen werden, es sei denn, seine Gültigkeit wird verlängert.',
    quote_expired_not_sendable:
      'Dieses Angebot ist abgelaufen: Verlängern Sie zuerst seine Gültigkeit und senden Sie es dann.',
    signature_missing: 'Es wurde keine Unterschrift gesetzt.',
    signature_not_png: 'Die Unterschrift muss ein PNG-Bild sein.',
    signature_too_large: 'Die Unterschrift darf nicht größer als 500 KB sein.',
    signature_invalid: 'Die Unterschrift ist kein gültiges PNG-Bild.',
    invoice_concept_already: 'Diese Rechnung ist bereits ein Entwurf.',
    line_invoiced_already: '%{resource} %{id} steht bereits auf einer Rechnung.',
    line_no_company: '%{resource} %{id} hat keine Firma, an die abgerechnet werden kann.',
    line_not_invoiced: '%{resource} %{id} steht auf keiner Rechnung.',
    line_invoice_sent:
      '%{resource} %{id} steht auf Rechnung %{invoice}, die bereits versendet wurde: setzen Sie diese Rechnung zuerst auf Entwurf zurück.',
    prepaid_card_invalid: 'Das gewählte Stundenkontingent ist ungültig.',
    prepaid_only: 'Nur ein Prepaid-Vertrag kann mit einem Stundenkontingent aufgestockt werden.',
    mail_retry_failed: 'Die E-Mail konnte auch diesmal nicht gesendet werden.',
    mail_retry_sending:
      'Diese E-Mail wird gerade gesendet; warten Sie das Ergebnis ab, bevor Sie es erneut versuchen.',
    mail_retry_no_body:
      'Der Inhalt dieser E-Mail wird nicht mehr aufbewahrt, daher kann sie nicht erneut gesendet werden. Lösen Sie stattdessen ihren Anlass erneut aus.',
    role_for_operators: 'Die gewählte Rolle ist für Bearbeiter, nicht für Kunden.',
    role_for_clients: 'Die gewählte Rolle ist für Kunden, nicht für Bearbeiter.',
    role_beyond_caller: 'Sie dürfen keine Rolle mit Rechten vergeben, die Sie selbst nicht haben.',
    role_kind_held: 'Eine Rolle, die Konten haben, kann nicht zwischen Bearbeitern und Kunden wechseln.',
    others_settings: 'Sie dürfen nur Ihre eigenen Einstellungen ändern.',
    password_confirmation_mismatch: 'Die Passwortbestätigung stimmt nicht überein.',
    sso_not_configured: 'Die einmalige Anmeldung ist nicht eingerichtet.',
    sso_failed: 'Die einmalige Anmeldung ist fehlgeschlagen.',
    sso_provider_unknown: 'Dieser Anmeldeanbieter ist nicht verfügbar.',
    sso_provider_unreachable: 'Der Anmeldeanbieter ist nicht erreichbar. Versuchen Sie es später erneut.',
    setup_done: 'Dieser Service-Desk ist bereits eingerichtet: Melden Sie sich an.',
    tenant_slug_taken: 'Unter der Adresse %{name} gibt es bereits eine Umgebung.',
    setup_slug_invalid:
      'Diese Adresse kann keine Umgebung sein: Verwenden Sie eine Subdomain aus Kleinbuchstaben, Ziffern und Bindestrichen.',
    setup_try_later: 'Zu viele Tests auf einmal: Warten Sie eine Minute und versuchen Sie es erneut.',
    quote_mail_retrying:
      'Das Angebot wurde als gesendet markiert, aber die E-Mail konnte noch nicht gesendet werden. Sie wird automatisch erneut versucht; senden Sie das Angebot nicht erneut.',
    quote_mail_given_up:
      'Das Angebot wurde als gesendet markiert, aber die E-Mail konnte nicht gesendet werden und wurde aufgegeben. Versuchen Sie es erneut unter Ausgehende E-Mails; senden Sie das Angebot nicht erneut.',
    message_mail_retrying:
      'Die Nachricht wurde gespeichert, aber die E-Mail an den Kunden konnte noch nicht gesendet werden. Sie wird automatisch erneut versucht.',
    message_mail_given_up:
      'Die Nachricht wurde gespeichert, aber die E-Mail an den Kunden konnte nicht gesendet werden und wurde aufgegeben. Versuchen Sie es erneut unter Ausgehende E-Mails.',
    message_sender_not_held:
      'Nur eine E-Mail, deren Absender nicht verifiziert ist, kann bestätigt oder abgelehnt werden.',
    calendar_schedule_missing: 'Der Zeitplan fehlt: Geben Sie Arbeitszeiten je Wochentag an, oder "24/7".',
    calendar_schedule_not_object:
      'Der Zeitplan muss Arbeitszeiten je Wochentag (monday bis sunday) angeben oder "24/7" sein.',
    calendar_weekday_unknown: 'Unbekannter Wochentag %{day}: Verwenden Sie monday bis sunday.',
    calendar_intervals_not_list:
      'Die Arbeitszeiten von %{day} müssen eine Liste von Anfangs- und Endzeiten sein.',
    calendar_interval_not_object: 'Eine Arbeitszeit braucht eine Anfangs- und eine Endzeit.',
    calendar_time_bad: 'Die Zeit %{value} ist keine Uhrzeit HH:MM von 00:00 bis 24:00.',
    calendar_time_missing: 'Die Zeit fehlt: geben Sie sie als HH:MM von 00:00 bis 24:00 an.',
    calendar_interval_reversed: 'Die Arbeitszeit %{from} bis %{to} endet vor oder mit ihrem Beginn.',
    calendar_interval_overlap:
      'Die Arbeitszeit %{from} bis %{to} überschneidet sich mit %{start} bis %{end}.',
    calendar_no_working_time:
      'Der Zeitplan hat keine Arbeitszeit: Geben Sie mindestens eine an, oder "24/7".',
    calendar_timezone_not_text: 'Die Zeitzone muss ein IANA-Name sein, etwa Europe/Amsterdam.',
    calendar_timezone_unknown:
      'Unbekannte Zeitzone %{zone}: Verwenden Sie einen IANA-Namen, etwa Europe/Amsterdam.',
    calendar_holidays_not_list: 'Die Feiertage müssen eine Liste von Daten mit Namen sein.',
    calendar_holiday_not_object: 'Ein Feiertag braucht ein Datum und einen Namen.',
    calendar_holiday_date_bad:
      'Das Feiertagsdatum %{value} ist kein Datum JJJJ-MM-TT, oder MM-TT für jedes Jahr.',
    calendar_holiday_name_missing: 'Ein Feiertag braucht einen Namen.',
    automation_action_unknown: 'Die Art der Aktion muss eine der folgenden sein: %{actions}.',
    automation_field_not_settable: 'Das Feld %{name} kann nicht durch eine Aktion gesetzt werden.',
    automation_too_many_actions: 'Eine Regel oder ein Makro hat höchstens %{count} Aktionen.',
    automation_action_not_allowed:
      'Sie dürfen die Aktion %{name} selbst nicht ausführen, also auch keine Regel von Ihnen.',
    automation_action_person_only:
      'Die Aktion %{name} ist nur für Makros: Eine Regel handelt für niemanden, für den sie Zeit erfassen könnte.',
    automation_minutes_invalid: 'Die Minuten müssen eine ganze Zahl von 1 bis %{max} sein.',
    automation_loop:
      'Diese Regel würde bei ihrer eigenen Änderung von %{name} erneut auslösen: Fügen Sie eine Bedingung hinzu, die den gesetzten Wert ausschließt.',
    automation_event_field_unknown: 'Es gibt kein Ticketfeld %{name}, auf das geachtet werden kann.',
    automation_not_for_kind: 'Dieses Feld ist nur für eine Regel der anderen Art.',
    automation_me_in_rule:
      'Eine Regel läuft für niemanden, daher können ihre Bedingungen me nicht verwenden: nennen Sie den Operator oder Wert.',
    token_scope_unknown: 'Es gibt keine Berechtigung %{name}, die ein Token erhalten kann.',
    token_expiry_past: 'Das Ablaufdatum muss in der Zukunft liegen.',
    token_expiry_too_far: 'Ein Token läuft innerhalb von %{count} Tagen ab.',
    token_owner_refused:
      'Ein Token ist für Sie selbst oder, wenn Sie Tokens verwalten dürfen, für ein Dienstkonto.',
    token_by_token: 'Ein API-Token kann keine Tokens erstellen: Melden Sie sich an, um eines zu erstellen.',
    // Webhooks (issue 38, item 4).
    webhook_url_invalid: 'Die URL ist keine gültige Adresse.',
    webhook_url_not_https: 'Die URL muss mit https:// beginnen.',
    webhook_url_credentials: 'Die URL darf keinen Benutzernamen und kein Passwort enthalten.',
    webhook_url_private:
      'Die URL verweist auf %{name}, eine private, Loopback- oder sonst nicht öffentliche Adresse; diese Installation erlaubt solche Ziele nicht.',
    two_factor_code_invalid: 'Der Code ist ungültig oder wurde bereits verwendet.',
    two_factor_recovery_invalid: 'Der Wiederherstellungscode ist ungültig oder wurde bereits verwendet.',
    two_factor_code_missing:
      'Geben Sie einen Code aus Ihrer Authenticator-App oder einen Wiederherstellungscode ein.',
    two_factor_challenge_invalid: 'Diese Anmeldung ist abgelaufen: Bitte melden Sie sich erneut an.',
    two_factor_already_on: 'Die Zwei-Faktor-Anmeldung ist bereits aktiv: Schalten Sie sie zuerst aus.',
    two_factor_not_started: 'Beginnen Sie zuerst mit der Einrichtung der Zwei-Faktor-Anmeldung.',
    two_factor_not_on: 'Die Zwei-Faktor-Anmeldung ist nicht aktiv.',
    two_factor_required_by_role:
      'Ihre Rolle verlangt die Zwei-Faktor-Anmeldung: Sie kann nicht ausgeschaltet werden.',
    two_factor_proof_missing: 'Geben Sie einen aktuellen Code oder Ihr Passwort ein.',
    two_factor_password_invalid: 'Das Passwort ist nicht richtig.',
    survey_link_invalid: 'Dieser Link zur Zufriedenheitsumfrage ist ungültig oder abgelaufen.',
    survey_answered: 'Diese Zufriedenheitsumfrage wurde bereits beantwortet.',
    survey_rating_invalid: 'Wählen Sie eine der Bewertungen dieser Umfrage.',
  },
  notifications: {
    order_saved: 'Reihenfolge gespeichert.',
    changes_saved: 'Änderungen gespeichert.',
    prepaid_upgraded: 'Stundenkontingent aufgestockt',
    item_updated: 'Eintrag aktualisiert.',
    item_deleted: 'Eintrag gelöscht.',
    invoice_line_added: 'Position zum Rechnungsentwurf hinzugefügt.',
    invoice_line_removed: 'Position aus dem Rechnungsentwurf entfernt.',
    created: '%{type} erstellt',
    updated: '%{type} aktualisiert',
    deleted: '%{type} gelöscht',
    message_sent: 'Nachricht gesendet.',
    note_saved: 'Notiz gespeichert.',
  },
  confirm: {
    title: 'Löschen',
    delete: 'Möchten Sie dies wirklich löschen?',
    yes: 'Ja, löschen',
    no: 'Abbrechen',
  },
};

export default errors;
