/** The acceptance of a sent quote: the portal's quote detail and the back office's accept dialog. */
import { useRef, useState, type FormEvent } from 'react';
import { Box, Button, Card, CardContent, Stack, TextField, Typography } from '@mui/material';
import { useDataProvider, useGetIdentity, useNotify, useTranslate, type RaRecord } from 'react-admin';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { SignaturePad, type SignaturePadHandle } from '../../custom/signature/SignaturePad.tsx';

export interface AcceptFormProps {
  quote: RaRecord;
  onAccepted: () => void;
  /** The name to start with; the signed-in user's own by default (the portal's client). */
  defaultName?: string;
}

/**
 * SPEC 5: a sent quote is accepted with a signature (an empty pad gives an alert), the signer's name
 * (prefilled with the client's full name) and a free note; the agreement text says what signing means.
 */
export function AcceptForm({ quote, onAccepted, defaultName }: AcceptFormProps) {
  const translate = useTranslate();
  const notify = useNotify();
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const { data: identity } = useGetIdentity();
  const pad = useRef<SignaturePadHandle>(null);
  const [name, setName] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [saving, setSaving] = useState(false);
  const [submitted, setSubmitted] = useState(false);
  const shownName = name ?? defaultName ?? identity?.fullName ?? '';
  const nameLabel = translate('app.quote.name');
  // The form checks itself (noValidate): the app's own words, not the browser's 'Please fill out this field.'
  const nameError =
    submitted && !shownName.trim() ? translate('app.errors.required', { field: nameLabel }) : undefined;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    // SPEC 5: an empty pad gives an alert.
    if (!pad.current || pad.current.isEmpty()) {
      window.alert(translate('app.errors.no_signature'));
      return;
    }
    setSubmitted(true);
    if (!shownName.trim()) return;
    setSaving(true);
    try {
      await dataProvider.recordAction('quotes', quote.id, 'accept', {
        name: shownName,
        note,
        signature: pad.current.toDataURL(),
      });
      notify('app.quote.accepted', { type: 'success' });
      onAccepted();
    } catch (error) {
      notify((error as Error).message || 'app.errors.generic', { type: 'error' });
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card component="section" aria-labelledby="quote-accept-title">
      <CardContent>
        <Typography id="quote-accept-title" variant="h6" component="h2" gutterBottom>
          {translate('app.quote.accept_title')}
        </Typography>
        <Box component="form" onSubmit={submit} noValidate>
          <Stack spacing={2}>
            <SignaturePad
              ref={pad}
              label={translate('app.quote.signature')}
              hint={translate('app.quote.signature_hint')}
              clearLabel={translate('app.quote.clear_signature')}
            />
            <TextField
              label={nameLabel}
              value={shownName}
              onChange={(e) => setName(e.target.value)}
              required
              error={!!nameError}
              helperText={nameError}
              fullWidth
            />
            <TextField
              label={translate('app.quote.note')}
              value={note}
              onChange={(e) => setNote(e.target.value)}
              multiline
              minRows={3}
              fullWidth
            />
            <Typography variant="body2">{translate('app.quote.agreement')}</Typography>
            <Box>
              <Button type="submit" variant="contained" disabled={saving}>
                {translate('app.quote.accept')}
              </Button>
            </Box>
          </Stack>
        </Box>
      </CardContent>
    </Card>
  );
}
