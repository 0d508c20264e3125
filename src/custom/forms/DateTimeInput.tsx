/**
 * The date-time input of the forms (SPEC 9): a picker with a 5-minute interval, shown as 'D MMMM HH:mm',
 * its value 'YYYY-MM-DD HH:mm:ss' plus the UTC offset (common/format.ts `pickerValue`), labelled
 * 'Deadline' when the field has no label of its own. The form field registers here at once; the picker
 * itself (MUI X with dayjs) is a lazy chunk, so the first screen does not carry it.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import TextField from '@mui/material/TextField';
import { FieldTitle, useInput, useLocaleState, useTranslate, type InputProps } from 'react-admin';
import { formatDateTime } from '../../../common/format.ts';

const DateTimePickerField = lazy(() => import('./DateTimePickerField.tsx'));

export interface DateTimeInputProps extends InputProps {
  label?: ReactNode;
  fullWidth?: boolean;
}

export function DateTimeInput({
  label,
  fullWidth,
  readOnly,
  disabled,
  helperText,
  ...props
}: DateTimeInputProps) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { field, fieldState, formState, isRequired, id } = useInput(props);
  const ownLabel = translate(`resources.${props.resource}.fields.${props.source}`, {
    _: translate('app.date_picker.label'),
  });
  const shown =
    label === false ? undefined : <FieldTitle label={label ?? ownLabel} isRequired={isRequired} />;
  const invalid = !!fieldState.error && (fieldState.isTouched || formState.isSubmitted);
  const error = invalid
    ? translate(fieldState.error?.message ?? '', { _: fieldState.error?.message })
    : undefined;
  const common = {
    id,
    label: shown,
    fullWidth,
    error,
    helperText: error ?? (typeof helperText === 'string' ? helperText : undefined),
    readOnly: !!readOnly || !!disabled,
  };
  return (
    <Suspense
      fallback={
        // The same box while the picker loads, showing the value in the picker's own format.
        <TextField
          id={id}
          label={shown}
          value={formatDateTime(field.value as string, locale)}
          variant="filled"
          size="small"
          margin="dense"
          fullWidth={fullWidth}
          slotProps={{ htmlInput: { readOnly: true } }}
          sx={{ minWidth: 240 }}
        />
      }
    >
      <DateTimePickerField
        {...common}
        locale={locale}
        dialogLabel={typeof label === 'string' ? label : ownLabel}
        value={(field.value as string | null | undefined) ?? null}
        onChange={(value) => field.onChange(value)}
        onBlur={field.onBlur}
      />
    </Suspense>
  );
}
