/**
 * The lazy part of the date-time input: MUI X's DateTimePicker on dayjs in the user's language (nl, de,
 * en), minutes in steps of 5. It works on the value as the form holds it (see DateTimeInput.tsx).
 */
import { useState, type ReactNode } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/nl';
import 'dayjs/locale/de';
import 'dayjs/locale/en';
import { AdapterDayjs } from '@mui/x-date-pickers/AdapterDayjs';
import { LocalizationProvider } from '@mui/x-date-pickers/LocalizationProvider';
import { DateTimePicker } from '@mui/x-date-pickers/DateTimePicker';
import { deDE, enUS, nlNL } from '@mui/x-date-pickers/locales';
import { PICKER_MINUTES_STEP, pickerValue, roundToMinutesStep } from '../../../common/format.ts';

/** SPEC 9: how a picked moment is shown. */
export const PICKER_DISPLAY_FORMAT = 'D MMMM HH:mm';

type LocaleText = typeof nlNL.components.MuiLocalizationProvider.defaultProps.localeText;

/**
 * The time columns show 00, 05, 10 but MUI names them "0 hours", "5 minutes": WCAG 2.5.3 (label in name)
 * wants the number as it is shown, so the names get it with its leading zero ("00 hours").
 */
function labelInName(text: LocaleText): LocaleText {
  const padded = (name: ((n: string) => string) | undefined) =>
    name && ((n: string) => name(n).replace(n, n.padStart(2, '0')));
  return {
    ...text,
    hoursClockNumberText: padded(text.hoursClockNumberText),
    minutesClockNumberText: padded(text.minutesClockNumberText),
    secondsClockNumberText: padded(text.secondsClockNumberText),
  };
}

const LOCALE_TEXT = {
  nl: labelInName(nlNL.components.MuiLocalizationProvider.defaultProps.localeText),
  de: labelInName(deDE.components.MuiLocalizationProvider.defaultProps.localeText),
  en: labelInName(enUS.components.MuiLocalizationProvider.defaultProps.localeText),
};

export interface DateTimePickerFieldProps {
  id: string;
  label: ReactNode;
  /** The open picker's accessible name (a dialog needs one). */
  dialogLabel: string;
  locale: string;
  value: string | null;
  onChange: (value: string | null) => void;
  onBlur: () => void;
  fullWidth?: boolean;
  error?: string;
  helperText?: string;
  readOnly?: boolean;
}

const toDayjs = (value: string | null): Dayjs | null => {
  if (!value) return null;
  const d = dayjs(value);
  return d.isValid() ? d : null;
};

export default function DateTimePickerField({
  id,
  label,
  dialogLabel,
  locale,
  value,
  onChange,
  onBlur,
  fullWidth,
  error,
  helperText,
  readOnly,
}: DateTimePickerFieldProps) {
  const language = locale in LOCALE_TEXT ? (locale as keyof typeof LOCALE_TEXT) : 'en';
  // While a time is being typed the picker may hold an invalid or half-typed value: keep it here, and give
  // the form only whole, valid moments.
  const [draft, setDraft] = useState<Dayjs | null | undefined>(undefined);
  const shown = draft !== undefined ? draft : toDayjs(value);
  const commit = (next: Dayjs | null, round: boolean) => {
    if (next === null) return onChange(null);
    if (!next.isValid()) return;
    const date = round ? roundToMinutesStep(next.toDate()) : next.toDate();
    onChange(pickerValue(date));
  };
  return (
    <LocalizationProvider
      dateAdapter={AdapterDayjs}
      adapterLocale={language}
      localeText={LOCALE_TEXT[language]}
    >
      <DateTimePicker
        label={label}
        value={shown}
        format={PICKER_DISPLAY_FORMAT}
        ampm={false}
        timeSteps={{ minutes: PICKER_MINUTES_STEP }}
        // Below the mobile breakpoint (SPEC 9: 768 px) the calendar and the time columns do not fit in a
        // popup beside each other: the picker opens as a dialog instead.
        desktopModeMediaQuery="@media (pointer: fine) and (min-width: 768px)"
        readOnly={readOnly}
        onChange={(next) => {
          setDraft(next);
          commit(next, false);
        }}
        onAccept={(next) => {
          setDraft(undefined);
          commit(next, true);
        }}
        slotProps={{
          textField: {
            id,
            // react-admin's inputs are filled: the picker looks like its neighbours.
            variant: 'filled',
            size: 'small',
            margin: 'dense',
            fullWidth,
            error: !!error,
            helperText,
            sx: { minWidth: 240 },
            onBlur: () => {
              // A typed time moves to the nearest 5-minute step when the field is left.
              if (shown && shown.isValid()) commit(shown, true);
              setDraft(undefined);
              onBlur();
            },
          },
          popper: { 'aria-label': dialogLabel },
          mobilePaper: { 'aria-label': dialogLabel },
          actionBar: { actions: ['clear', 'today', 'accept'] },
        }}
      />
    </LocalizationProvider>
  );
}
