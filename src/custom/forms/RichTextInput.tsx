/**
 * A rich text field's form input (`x-input: "rich-text"`, a knowledge article's body, issue 39): the
 * message editor (bold, italic, lists, links, inline images uploaded to the file store), its HTML the
 * field's value. The server sanitises it on save as it does messages (format html); images uploaded
 * here become the record's where its resource says so (a knowledge article adopts them).
 */
import { lazy, Suspense, useId } from 'react';
import { FormHelperText, LinearProgress, Typography } from '@mui/material';
import { useInput, useTranslate } from 'react-admin';
import type { InputExtraProps } from '../../resources/fields/kinds.ts';

const MessageEditor = lazy(() => import('../thread/MessageEditor.tsx'));

export default function RichTextInput(props: InputExtraProps) {
  const translate = useTranslate();
  const labelId = useId();
  const { field, fieldState, isRequired } = useInput({ ...props, source: props.source });
  const label =
    typeof props.label === 'string'
      ? props.label
      : translate(`resources.${props.resource}.fields.${props.source}`, { _: props.source });
  return (
    <div style={{ width: '100%', marginBottom: 16 }}>
      <Typography id={labelId} variant="body2" component="div" sx={{ color: 'text.secondary', mb: 0.5 }}>
        {label}
        {isRequired ? ' *' : ''}
      </Typography>
      <Suspense fallback={<LinearProgress aria-label={translate('ra.page.loading')} />}>
        <MessageEditor
          label={label}
          initialHtml={typeof field.value === 'string' ? field.value : ''}
          onChange={(html) => field.onChange(html)}
        />
      </Suspense>
      {fieldState.error?.message && (
        <FormHelperText error>
          {translate(fieldState.error.message, { _: fieldState.error.message })}
        </FormHelperText>
      )}
    </div>
  );
}
