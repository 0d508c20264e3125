import { useMemo } from 'react';
import { Card } from '@mui/material';
import {
  CreateBase,
  SimpleForm,
  useGetIdentity,
  useNotify,
  useRedirect,
  useResourceContext,
  useTranslate,
} from 'react-admin';
import { useLocation, useNavigate } from 'react-router-dom';
import { writableFieldsFor } from '../../../common/schema/fields.ts';
import { registry } from '../../schema.ts';
import { useAppKind } from '../appKind.ts';
import { FieldInput } from '../../resources/fields/inputs.tsx';
import { CustomFieldInputs } from '../forms/CustomFields.tsx';
import { createDefaults, type CreateLinkState } from './createDefaults.ts';
import { ScreenFrame } from './ScreenFrame.tsx';
import { InvalidFieldsNotice } from '../forms/InvalidFieldsNotice.tsx';
import { rememberCreated } from './createdOnce.ts';

/**
 * The generic create form: the schema's writable fields, then the tenant's custom fields of a resource
 * with a morph type (back office; the portal's forms choose their own), validated by the server (422
 * shown per field). Fields with `x-default` start filled (me, now); a link from a record's tab brings its
 * own values and the way back: after saving, the user returns there.
 */
export default function CreateScreen() {
  const name = useResourceContext()!;
  const resource = registry.require(name);
  const portal = useAppKind() === 'portal';
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const navigate = useNavigate();
  const { returnTo, returnTab } = (useLocation().state as Partial<CreateLinkState> | null) ?? {};
  const { identity } = useGetIdentity();
  const userId = typeof identity?.id === 'number' ? identity.id : undefined;
  const defaults = useMemo(() => createDefaults(resource, userId), [resource, userId]);
  const typeName = translate(`resources.${name}.name`, { smart_count: 1, _: resource.title });
  const title = translate('ra.page.create', { name: typeName });
  return (
    <ScreenFrame title={title}>
      <CreateBase
        mutationOptions={{
          onSuccess: (record: { id: number }) => {
            rememberCreated(name, record);
            notify('app.notifications.created', { type: 'success', messageArgs: { type: typeName } });
            if (returnTo?.startsWith('/')) navigate(returnTo, { state: { tab: returnTab } });
            else redirect('edit', name, record.id);
          },
        }}
      >
        <Card>
          {/* Mounted once the user is known, so that 'me' is in the form's first values. */}
          <SimpleForm key={userId ?? 'anonymous'} defaultValues={defaults} disableInvalidFormNotification>
            <InvalidFieldsNotice />
            {writableFieldsFor(resource, portal).map((field) => (
              <FieldInput key={field.name} resource={resource} field={field} />
            ))}
            {!portal && <CustomFieldInputs resource={resource} />}
          </SimpleForm>
        </Card>
      </CreateBase>
    </ScreenFrame>
  );
}
