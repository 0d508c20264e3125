import { serverTextMessages } from '../../../../common/server-texts.ts';

/**
 * The apps' texts in English, what went wrong and what went right: SPEC 8's errors, the server's
 * texts, successes, confirmations.
 */
const errors = {
  /** SPEC section 8, failures. ('Unauthenticated.' shows no toast, so it has no text.) */
  errors: {
    /** A form not sent: the fields left empty and the fields whose value is refused, by their labels. */
    form_fill_in: 'Fill in: %{fields}.',
    form_check: 'Check: %{fields}.',
    logged_in_elsewhere: 'This operator is logged in elsewhere. Log in again to continue working here.',
    generic: 'Something went wrong. Please try again.',
    network: 'The server cannot be reached. Check your connection and try again.',
    validation: 'Not all fields are filled in correctly.',
    not_found: 'This item does not exist (anymore).',
    prepaid_upgrade_failed: 'Failed to upgrade the prepaid card.',
    not_confirmed: 'Not confirmed.',
    no_signature: 'No signature has been set.',
    required: '%{field} is required',
    min_length: '%{subject} must be at least %{length} characters long.',
    download_failed: 'The file could not be downloaded.',
    chunk_timeout: 'Loading this page took too long. Please reload the page.',
    server: 'Something went wrong on the server. Please try again.',
    unavailable: 'The server is briefly unavailable. Try again in a few seconds.',
    max_length: '%{subject} may not be longer than %{length} characters.',
    list_failed: 'The list could not be loaded.',
    record_failed: 'This item could not be loaded.',
    custom_fields_failed: 'The custom fields could not be loaded.',
    retry: 'Try again',
    file_type:
      'Files of type .%{extension} are not allowed. Allowed are images, PDF, office documents, audio, video, archives, code and text files.',
    file_no_extension:
      'Files without an extension are not allowed. Allowed are images, PDF, office documents, audio, video, archives, code and text files.',
    file_empty: 'The file is empty.',
    file_mismatch:
      'The content of the file does not match its extension .%{extension}. Allowed are images, PDF, office documents, audio, video, archives, code and text files.',
  },
  /**
   * The server's texts (common/server-texts.ts) in the user's language; `%{field}` is a field's label.
   * In English mostly the server's own words; these say them as the apps do.
   */
  server: {
    ...serverTextMessages(),
    record_in_use: 'This item is still in use by other items.',
    value_taken: '%{field} has already been taken.',
    field_required: '%{field} is required',
    value_too_long: '%{field} may not be longer than %{max} characters.',
    html_too_deep: '%{field} nests its HTML more than %{max} levels deep.',
    value_not_text: '%{field} must be a text.',
    create_refused: 'You may not create this item.',
    move_refused: 'You may not move this item out of your own companies.',
    on_behalf_refused:
      'You may create a ticket only for yourself, or for a colleague of its company where your role allows it.',
    share_refused:
      'You may share only a ticket you may share, and only with another colleague of its company.',
    access_change_refused:
      'You may change only the role of a colleague, in a company where you manage access.',
    company_role_resource: 'A role can name only portal data that can be limited by company: %{name} is not.',
    query_too_expensive:
      'This list asks too much at once (cost %{cost}, at most %{budget}). Use fewer filters through related items or fewer presets.',
    with_too_many_rows:
      'The related items this list loads (%{name}) can bring up to %{count} rows, where at most %{budget} are allowed (a link to several items counts %{max} rows per item, for every item on the page). Load fewer or less deeply linked items, or fewer items per page.',
    answer_too_large:
      'The answer would be %{count} MB, more than the %{max} MB one answer may be. Ask for fewer items per page or fewer related items.',
    merge_too_few: 'Select at least two items to merge.',
    merge_too_many: 'At most %{count} items can be merged at once.',
    merge_record_invalid: '%{resource} %{id} cannot be selected.',
    select_at_least_one: 'Select at least one item.',
    bulk_too_many: 'At most %{count} items can be changed at once.',
    number_range: '%{field} must be a whole number from 1 to %{max}.',
    choices_list: 'Send the choices as a list of kinds, each with e-mail on or off.',
    value_true_false: '%{field} must be true or false.',
    bulk_ids_or_builder: 'Send either the selected ids or the filter, one of the two.',
    bulk_action_unknown: 'The action must be one of: %{actions}.',
    bulk_no_changes: 'Choose the fields to change, with the update action only.',
    bulk_field_not_offered: 'The %{field} cannot be changed for many items at once.',
    select_at_most: 'At most %{count} items can be handled at once.',
    quote_rejected_not_sendable: 'This quote has been declined and can no longer be sent.',
    signature_not_png: 'The signature must be a PNG image.',
    line_invoiced_already: '%{resource} %{id} is already on an invoice.',
    line_no_company: '%{resource} %{id} has no company to invoice.',
    line_not_invoiced: '%{resource} %{id} is not on an invoice.',
    line_invoice_sent:
      '%{resource} %{id} is on invoice %{invoice}, which has been sent: restore that invoice to concept first.',
    mail_retry_failed: 'The e-mail could not be sent this time either.',
    mail_retry_sending: 'This e-mail is being sent right now; wait for the outcome before trying again.',
    mail_retry_no_body:
      'The content of this e-mail is no longer kept, so it cannot be sent again. Send what caused it again instead.',
    quote_mail_retrying:
      'The quote has been marked as sent, but the e-mail could not be sent yet. It is tried again automatically; do not send the quote again.',
    quote_mail_given_up:
      'The quote has been marked as sent, but the e-mail could not be sent and has been given up. Try it again under Outgoing mail; do not send the quote again.',
    message_mail_retrying:
      'The message was saved, but the e-mail to the client could not be sent yet. It is tried again automatically.',
    message_mail_given_up:
      'The message was saved, but the e-mail to the client could not be sent and has been given up. Try it again under Outgoing mail.',
    message_sender_not_held: 'Only a mail whose sender is not verified can be confirmed or rejected.',
  },
  /** SPEC section 8, successes. */
  notifications: {
    order_saved: 'Order saved.',
    changes_saved: 'Changes saved.',
    prepaid_upgraded: 'Prepaid card upgraded',
    item_updated: 'Item updated.',
    item_deleted: 'Item deleted.',
    invoice_line_added: 'Line added to draft invoice.',
    invoice_line_removed: 'Line removed from draft invoice.',
    created: '%{type} created',
    updated: '%{type} updated',
    deleted: '%{type} deleted',
    message_sent: 'Message sent.',
    note_saved: 'Note saved.',
  },
  confirm: {
    title: 'Delete',
    delete: 'Do you really want to delete this?',
    yes: 'Yes, delete',
    no: 'Cancel',
  },
};

export type ErrorTexts = typeof errors;

export default errors;
