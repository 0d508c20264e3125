/**
 * Text inputs whose typed text becomes a number (SPEC 5): numeric-only input for amounts, quantities and
 * counts (digits, '.', '-'; a comma becomes a dot; anything else is ignored as it is typed) and time entry
 * ('hh:mm' or a plain number of minutes, stored as minutes).
 *
 * The text stays as typed while it means the stored number: formatting the number back on every
 * keystroke would turn '1' into '00:01' halfway through '1:30', or '10.0' into '10' halfway through '10.05'.
 */
import { useState } from 'react';
import { TextInput, useTranslate, type TextInputProps, type Validator } from 'react-admin';
import { formatMinutes, parseTime, sanitizeNumericInput } from '../../../common/format.ts';

const COMPLETE_NUMBER = /^-?\d+(\.\d+)?$/;

/** Typed numeric text -> the form's value: a number when complete, null when empty, else the text. */
export function numericValue(text: string): number | string | null {
  const clean = sanitizeNumericInput(text);
  if (clean === '') return null;
  return COMPLETE_NUMBER.test(clean) ? Number(clean) : clean;
}

/** Typed time -> minutes, null when empty, else the text (which the validator then refuses). */
export function minutesValue(text: string): number | string | null {
  if (text.trim() === '') return null;
  return parseTime(text) ?? text;
}

function withValidator(validate: TextInputProps['validate'], extra: Validator): Validator[] {
  if (!validate) return [extra];
  return [...(Array.isArray(validate) ? validate : [validate]), extra];
}

/**
 * The text shown: what was typed while it still means the value, else the value formatted. The typed text
 * is state, not a ref: a keystroke that does not change the value ('12.5' -> '12.50') must still render.
 */
function useTypedText(
  clean: (text: string) => string,
  toValue: (text: string) => unknown,
  toText: (value: unknown) => string,
) {
  const [typed, setTyped] = useState<string | undefined>(undefined);
  return {
    parse: (text: string) => {
      const next = clean(text);
      setTyped(next);
      return toValue(next);
    },
    format: (value: unknown) => {
      if (typed !== undefined && toValue(typed) === value) return typed;
      if (value === null || value === undefined) return '';
      return typeof value === 'string' ? value : toText(value);
    },
  };
}

const isIncomplete = (value: unknown) => typeof value === 'string' && value !== '';

/** Amounts, quantities and counts: only digits, '.' and '-' get in; a comma becomes a dot. */
export function NumericInput({ validate, ...props }: TextInputProps) {
  const text = useTypedText(sanitizeNumericInput, numericValue, (v) => String(v));
  return (
    <TextInput
      {...props}
      {...text}
      validate={withValidator(validate, (value) =>
        isIncomplete(value) ? 'ra.validation.number' : undefined,
      )}
      slotProps={{ htmlInput: { inputMode: 'decimal' } }}
    />
  );
}

/** Time entry: 'hh:mm' or minutes; the stored value is minutes, shown again as HH:MM. */
export function MinutesInput({ validate, ...props }: TextInputProps) {
  const translate = useTranslate();
  const text = useTypedText(
    (t) => t,
    minutesValue,
    (v) => formatMinutes(v as number),
  );
  return (
    <TextInput
      helperText={translate('app.time_input.hint')}
      {...props}
      {...text}
      validate={withValidator(validate, (value) =>
        isIncomplete(value) ? translate('app.time_input.invalid') : undefined,
      )}
      slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off' } }}
    />
  );
}
