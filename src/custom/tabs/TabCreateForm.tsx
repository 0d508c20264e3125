/**
 * A tab's form in place (x-tabs `form`, issue 18): a new row of the listed resource for the record the
 * tab belongs to, without leaving the record (the ticket's time is logged on the ticket). The schema
 * names the fields; the record's key and the fields' x-default values (me, now) are filled in, and the
 * form starts again with fresh values after each save. Saved through the resource's own create call,
 * so its rules (validation, the rounded time) are the create form's.
 */
import { useId, useMemo, useState } from 'react';
import { Box, Typography } from '@mui/material';
import { CreateBase, Form, SaveButton, useGetIdentity, useNotify, useTranslate } from 'react-admin';
import { registry } from '../../schema.ts';
import { FieldInput } from '../../resources/fields/inputs.tsx';
import { createDefaults } from '../detail/createDefaults.ts';
import { InvalidFieldsNotice } from '../forms/InvalidFieldsNotice.tsx';

export interface TabCreateFormProps {
  /** The resource the tab lists. */
  target: string;
  /** The fields shown, in order. */
  fields: string[];
  /** The values that tie the new row to the record (`{ticket_id: 12}`). */
  values: Record<string, unknown>;
  /** After a save: the tab's rows and badges are read again. */
  onSaved: () => void;
}

export function TabCreateForm({ target, fields, values, onSaved }: TabCreateFormProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const headingId = useId();
  const resource = registry.require(target);
  const { identity } = useGetIdentity();
  const userId = typeof identity?.id === 'number' ? identity.id : undefined;
  // Each save starts a new form: 'now' is the moment it starts.
  const [startedAt, setStartedAt] = useState(() => new Date());
  // The values come anew with each render of the record's screen: the same values, the same form.
  const valuesKey = JSON.stringify(values);
  const defaults = useMemo(
    () => ({ ...createDefaults(resource, userId, startedAt), ...(JSON.parse(valuesKey) as object) }),
    [resource, userId, valuesKey, startedAt],
  );
  const typeName = translate(`resources.${target}.name`, { smart_count: 1, _: resource.title });
  return (
    <Box component="section" aria-labelledby={headingId} sx={{ mb: 2 }}>
      <Typography component="h2" variant="subtitle1" id={headingId} sx={{ fontWeight: 600, mb: 1 }}>
        {translate('app.tabs.form', { type: typeName })}
      </Typography>
      <CreateBase
        resource={target}
        redirect={false}
        mutationOptions={{
          onSuccess: () => {
            notify('app.notifications.created', { type: 'success', messageArgs: { type: typeName } });
            setStartedAt(new Date());
            onSaved();
          },
        }}
      >
        {/* Mounted once the user is known, so that 'me' is in the form's first values. */}
        <Form
          key={`${userId ?? 'anonymous'}-${startedAt.getTime()}`}
          defaultValues={defaults}
          disableInvalidFormNotification
        >
          <InvalidFieldsNotice />
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: '1fr', md: 'repeat(auto-fill, minmax(220px, 1fr))' },
              columnGap: 2,
              alignItems: 'start',
            }}
          >
            {fields.map((name) => (
              <FieldInput key={name} resource={resource} field={resource.fields[name]!} fullWidth />
            ))}
          </Box>
          <SaveButton />
        </Form>
      </CreateBase>
    </Box>
  );
}
