/**
 * A new API token (issue 38, item 3): its name, scopes (drawn from the caller's own permissions: a token
 * never does more than its owner may), expiry (at most 366 days ahead, as the server checks) and, for
 * second line, a service account as its owner. The server's answer holds the token this one time: it
 * is shown with a copy button and the warning that it cannot be shown again, until the user leaves.
 */
import { useState } from 'react';
import { Alert, Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import {
  AutocompleteArrayInput,
  CreateBase,
  DateInput,
  type RaRecord,
  SaveButton,
  SelectInput,
  SimpleForm,
  TextInput,
  Toolbar,
  required,
  useCanAccess,
  useGetList,
  useNotify,
  useRedirect,
  useTranslate,
} from 'react-admin';
import { DocumentTitle } from '../../shell/DocumentTitle.tsx';
import { getUser } from '../../dataProvider/storage.ts';

/** As the server's rule (server/resources/api-tokens/hooks.ts). */
const MAX_DAYS = 366;
const DEFAULT_DAYS = 90;

const day = (offset: number) => {
  const d = new Date(Date.now() + offset * 86_400_000);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

interface FormValues {
  name: string;
  scopes: string[];
  expires: string;
  owner_id?: number | '';
}

/** The form's values as the API takes them: the expiry at the end of the chosen day, local time. */
function toBody({ expires, owner_id, ...rest }: FormValues) {
  return {
    ...rest,
    expires_at: new Date(`${expires}T23:59:59`).toISOString(),
    ...(owner_id ? { owner_id } : {}),
  };
}

function CreatedToken({ token, onDone }: { token: string; onDone: () => void }) {
  const translate = useTranslate();
  const notify = useNotify();
  const copy = () =>
    navigator.clipboard.writeText(token).then(
      () => notify('api_tokens.copied', { type: 'success' }),
      () => notify('api_tokens.copy_failed', { type: 'warning' }),
    );
  return (
    <CardContent>
      <Stack spacing={2}>
        <Alert severity="warning">{translate('api_tokens.shown_once')}</Alert>
        <TextField
          label={translate('api_tokens.token')}
          value={token}
          slotProps={{ input: { readOnly: true }, htmlInput: { 'data-testid': 'new-api-token' } }}
          fullWidth
          multiline
        />
        <Stack direction="row" spacing={1}>
          <Button variant="contained" startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
            {translate('api_tokens.copy')}
          </Button>
          <Button variant="outlined" onClick={onDone}>
            {translate('api_tokens.done')}
          </Button>
        </Stack>
      </Stack>
    </CardContent>
  );
}

export default function ApiTokenCreate() {
  const translate = useTranslate();
  const redirect = useRedirect();
  const [token, setToken] = useState<string>();
  const canManage = useCanAccess({ resource: 'api-tokens', action: 'manage' }).canAccess === true;
  const accounts = useGetList(
    'operators',
    { pagination: { page: 1, perPage: 100 }, filter: { service_account: true } },
    { enabled: canManage },
  );
  const title = translate('api_tokens.new');
  const field = (name: string) => translate(`resources.api-tokens.fields.${name}`);
  const scopes = (getUser()?.permissions_names ?? [])
    .filter((name) => name.startsWith('tenant.'))
    .map((name) => ({ id: name, name }));

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 900 }}>
      <DocumentTitle section={title} />
      <Typography variant="h5" component="h1" sx={{ mb: 2 }}>
        {title}
      </Typography>
      <Card>
        {token ? (
          <CreatedToken token={token} onDone={() => redirect('list', 'api-tokens')} />
        ) : (
          <CreateBase
            resource="api-tokens"
            transform={(values: FormValues) => toBody(values)}
            mutationOptions={{ onSuccess: (record: RaRecord) => setToken(String(record.token)) }}
          >
            <SimpleForm
              defaultValues={{ expires: day(DEFAULT_DAYS), scopes: [] }}
              toolbar={
                <Toolbar>
                  <SaveButton label="api_tokens.create" />
                </Toolbar>
              }
            >
              <TextInput source="name" label={field('name')} validate={required()} fullWidth />
              <AutocompleteArrayInput
                source="scopes"
                label={field('scopes')}
                choices={scopes}
                validate={required()}
                helperText={translate('api_tokens.scopes_help')}
                fullWidth
              />
              <DateInput
                source="expires"
                label={field('expires_at')}
                validate={required()}
                inputProps={{ min: day(1), max: day(MAX_DAYS - 1) }}
                helperText={translate('api_tokens.expiry_help', { count: MAX_DAYS })}
              />
              {canManage && (
                <SelectInput
                  source="owner_id"
                  label={field('owner_id')}
                  choices={accounts.data ?? []}
                  optionText="full_name"
                  emptyText={translate('api_tokens.owner_me')}
                  helperText={translate('api_tokens.owner_help')}
                  translateChoice={false}
                />
              )}
            </SimpleForm>
          </CreateBase>
        )}
      </Card>
    </Box>
  );
}
