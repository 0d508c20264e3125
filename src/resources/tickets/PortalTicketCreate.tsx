/**
 * The portal's new-ticket form (SPEC 2 and 5): the ticket fields the tenant chose for the portal (setting
 * `portal_ticket_fields`, in its order), the company when the client has more than one, and the ticket's
 * custom fields (text, select, date). A field marked required gives '{field label} is required' and stops
 * the submit; required fields carry a red asterisk. The server checks the same rules again. Under the
 * description, knowledge articles that match what is typed (custom/knowledge/ArticleSuggestions.tsx).
 */
import { Box, Card, Typography } from '@mui/material';
import { Fragment, type ReactNode } from 'react';
import {
  CreateBase,
  Loading,
  SaveButton,
  SelectInput,
  SimpleForm,
  Toolbar,
  useGetList,
  useNotify,
  useRedirect,
  useTranslate,
} from 'react-admin';
import { registry } from '../../schema.ts';
import { FieldInput } from '../fields/inputs.tsx';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { getUser } from '../../dataProvider/storage.ts';
import {
  CustomFieldInput,
  RequiredLabel,
  useCustomFieldDefinitions,
  useRequiredValidator,
} from '../../custom/forms/CustomFields.tsx';
import { InvalidFieldsNotice } from '../../custom/forms/InvalidFieldsNotice.tsx';
import ArticleSuggestions from '../../custom/knowledge/ArticleSuggestions.tsx';
import { PortalColleagueInput } from './PortalColleagueInput.tsx';

const TICKETS = registry.require('tickets');
const FORM_SETTING = 'portal_ticket_fields';
/** Used when the tenant has not chosen: the description, as the schema requires. */
const DEFAULT_FIELDS: FormField[] = [{ field: 'description', required: true }];

interface FormField {
  field: string;
  required?: boolean;
}

/** The setting's fields that exist and that a client may write, in the setting's order. */
function formFields(value: unknown): FormField[] {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return DEFAULT_FIELDS;
    }
  }
  if (!Array.isArray(parsed)) return DEFAULT_FIELDS;
  const fields = parsed.filter(
    (f): f is FormField =>
      typeof f?.field === 'string' &&
      !!TICKETS.fields[f.field] &&
      TICKETS.portal?.fields?.includes(f.field) !== false,
  );
  return fields.length ? fields : DEFAULT_FIELDS;
}

export default function PortalTicketCreate() {
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const required = useRequiredValidator();
  const settings = useGetList('config', { pagination: { page: 1, perPage: 10 } });
  const custom = useCustomFieldDefinitions(TICKETS);
  const companies = getUser()?.companies ?? [];
  const typeName = translate('resources.tickets.name', { smart_count: 1, _: 'Ticket' });
  const title = translate('app.ticket.new');
  const fieldLabel = (name: string) => translate(`resources.tickets.fields.${name}`, { _: name });

  let form: ReactNode = <Loading />;
  if (!settings.isPending && !custom.isPending) {
    const fields = formFields(settings.data?.find((s) => s.name === FORM_SETTING)?.value);
    form = (
      <SimpleForm
        disableInvalidFormNotification
        defaultValues={companies.length === 1 ? { company_id: companies[0]!.id } : {}}
        toolbar={
          // Enabled on an untouched form too: pressing it is how a client learns what is required.
          <Toolbar>
            <SaveButton alwaysEnable />
          </Toolbar>
        }
      >
        <InvalidFieldsNotice />
        {companies.length > 1 && (
          <SelectInput
            source="company_id"
            label={<RequiredLabel text={fieldLabel('company_id')} required />}
            choices={companies}
            validate={required(fieldLabel('company_id'))}
            translateChoice={false}
            fullWidth
          />
        )}
        <PortalColleagueInput />
        {fields.map(({ field, required: isRequired }) => (
          <Fragment key={field}>
            <FieldInput
              resource={TICKETS}
              field={TICKETS.fields[field]!}
              label={<RequiredLabel text={fieldLabel(field)} required={!!isRequired} />}
              validate={isRequired ? required(fieldLabel(field)) : undefined}
              fullWidth
              {...(field === 'description' ? { multiline: true, minRows: 4 } : {})}
            />
            {/* Issue 39: knowledge articles that may answer the question, before a ticket is made. */}
            {field === 'description' && <ArticleSuggestions />}
          </Fragment>
        ))}
        {custom.definitions.map((field) => (
          <CustomFieldInput
            key={field.name}
            field={field}
            validate={field.is_required ? required(field.title) : undefined}
          />
        ))}
      </SimpleForm>
    );
  }

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 900 }}>
      <DocumentTitle section={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <CreateBase
        resource="tickets"
        mutationOptions={{
          onSuccess: (record: { id: number }) => {
            notify('app.notifications.created', { type: 'success', messageArgs: { type: typeName } });
            redirect('edit', 'tickets', record.id);
          },
        }}
      >
        <Card>{form}</Card>
      </CreateBase>
    </Box>
  );
}
