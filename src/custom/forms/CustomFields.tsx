/**
 * Custom fields (SPEC 3 and 5), one block for every form of a resource with `x-morph-type`: the tenant's
 * definitions for that type (`custom-fields`, in their order) as text, select or date inputs under
 * `custom_fields.<name>` (what the API takes), a red asterisk on required ones, and the stored values on
 * a detail screen. Nothing here names a resource.
 */
import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import {
  DateInput,
  SelectInput,
  TextInput,
  useGetList,
  useLocaleState,
  useTranslate,
  type Identifier,
  type Validator,
} from 'react-admin';
import { useSuspenseQueries } from '@tanstack/react-query';
import type { Resource } from '../../../common/schema/types.ts';
import { anyFailed, useReadBeforeShow } from '../detail/readBeforeShow.ts';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { useReloadOnEvent } from '../detail/parts.tsx';
import { formatDate } from '../../../common/format.ts';

export interface CustomFieldDefinition {
  id: number;
  name: string;
  title: string;
  type: 0 | 1 | 2;
  options: { name: string; label: string }[] | null;
  is_required: boolean;
}

interface CustomValue {
  id: number;
  custom_field_id: number;
  value: string | null;
}

const TEXT = 0;
const SELECT = 1;
/** More custom fields than a tenant keeps per type; the API's page size cap. */
const MAX_FIELDS = 100;

/** The form source of a custom field: the API body's `custom_fields` object. */
export const customFieldSource = (name: string) => `custom_fields.${name}`;

/** The query of a morph type's custom-field definitions, in their order. */
const definitionsParams = (morphType: string | undefined) => ({
  pagination: { page: 1, perPage: MAX_FIELDS },
  sort: { field: 'order', order: 'ASC' as const },
  filter: { morphable_type: morphType },
});

/** The tenant's custom-field definitions for the resource's morph type; none without one. */
export function useCustomFieldDefinitions(resource: Resource) {
  const morphType = resource.morphType;
  const { data, isPending } = useGetList<CustomFieldDefinition>(
    'custom-fields',
    definitionsParams(morphType),
    {
      enabled: !!morphType,
    },
  );
  return { definitions: morphType ? (data ?? []) : [], isPending: !!morphType && isPending };
}

/** Each defined field's stored value (null where none is stored), by field name. */
function valuesByName(definitions: CustomFieldDefinition[], stored: CustomValue[]) {
  const values: Record<string, string | null> = {};
  for (const definition of definitions) {
    values[definition.name] = stored.find((v) => v.custom_field_id === definition.id)?.value ?? null;
  }
  return values;
}

/** A record's custom values by field name (one query; none for a resource without custom fields). */
export function useCustomValues(resource: Resource, recordId: Identifier | undefined) {
  const { definitions, isPending: definitionsPending } = useCustomFieldDefinitions(resource);
  const enabled = !!resource.morphType && recordId !== undefined && definitions.length > 0;
  const { data, isPending } = useGetList<CustomValue>(
    'custom-values',
    {
      pagination: { page: 1, perPage: MAX_FIELDS },
      filter: { morphable_type: resource.morphType, morphable_id: recordId },
    },
    { enabled },
  );
  return {
    definitions,
    values: valuesByName(definitions, data ?? []),
    isPending: definitionsPending || (enabled && isPending),
  };
}

/** A label with the red asterisk of a required field (SPEC 5); the word stays for screen readers. */
export function RequiredLabel({ text, required }: { text: ReactNode; required: boolean }) {
  const translate = useTranslate();
  return (
    <span>
      {text}
      {required && (
        <>
          <Box
            component="span"
            aria-hidden="true"
            data-testid="required-asterisk"
            sx={{ color: 'error.main', fontWeight: 700 }}
          >
            &thinsp;*
          </Box>
          <Box component="span" sx={visuallyHidden}>
            {` (${translate('app.custom_fields.required')})`}
          </Box>
        </>
      )}
    </span>
  );
}

const visuallyHidden = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

const isEmpty = (value: unknown) => value === undefined || value === null || String(value).trim() === '';

/** '{field label} is required' (SPEC 5), in the user's language. */
export function useRequiredValidator(): (label: string) => Validator {
  const translate = useTranslate();
  return (label) => (value: unknown) =>
    isEmpty(value) ? translate('app.errors.required', { field: label }) : undefined;
}

export function CustomFieldInput({
  field,
  validate,
  defaultValue,
}: {
  field: CustomFieldDefinition;
  validate?: Validator;
  defaultValue?: string | null;
}) {
  const props = {
    source: customFieldSource(field.name),
    label: <RequiredLabel text={field.title} required={field.is_required} />,
    validate,
    defaultValue: defaultValue ?? undefined,
    fullWidth: true,
  };
  if (field.type === TEXT) return <TextInput {...props} />;
  if (field.type === SELECT) {
    const choices = (field.options ?? []).map((o) => ({ id: o.name, name: o.label }));
    return <SelectInput {...props} choices={choices} translateChoice={false} emptyText="" />;
  }
  return <DateInput {...props} />;
}

/**
 * The custom-field inputs of a create form, or of an edit form with `recordId` (its stored values are the
 * inputs' defaults). Required ones must be filled before the form is sent.
 */
export function CustomFieldInputs({ resource, recordId }: { resource: Resource; recordId?: Identifier }) {
  const required = useRequiredValidator();
  const { definitions, values, isPending } = useCustomValues(resource, recordId);
  // The defaults are read when an input mounts: wait for the stored values.
  if (isPending) return null;
  return (
    <>
      {definitions.map((field) => (
        <CustomFieldInput
          key={field.name}
          field={field}
          validate={field.is_required ? required(field.title) : undefined}
          defaultValue={values[field.name]}
        />
      ))}
    </>
  );
}

/** The stored value as shown: a select's label, a date as 'DD MMM YY', a text as it is. */
export function customValueText(field: CustomFieldDefinition, value: string | null, locale: string): string {
  if (value === null) return '';
  if (field.type === SELECT) return field.options?.find((o) => o.name === value)?.label ?? value;
  if (field.type === TEXT) return value;
  return formatDate(value, locale);
}

/** A detail screen's custom fields, as items of its definition list (`<dl>` grid). */
export function CustomFieldsDisplay({ resource, recordId }: { resource: Resource; recordId: Identifier }) {
  const [locale] = useLocaleState();
  const read = useReadBeforeShow();
  const morphType = resource.morphType;
  // The definitions and the record's values side by side, read before the detail shows
  // (readBeforeShow.ts): the card does not grow under the reader once it is there.
  const [definitionsQuery, valuesQuery] = useSuspenseQueries({
    queries: [
      read.list('custom-fields', definitionsParams(morphType), !!morphType),
      read.list(
        'custom-values',
        {
          pagination: { page: 1, perPage: MAX_FIELDS },
          sort: { field: 'id', order: 'ASC' },
          filter: { morphable_type: morphType, morphable_id: recordId },
        },
        !!morphType,
      ),
    ],
  });
  useReloadOnEvent(valuesQuery.refetch);
  if (anyFailed(definitionsQuery.data, valuesQuery.data)) {
    return (
      <LoadFailed
        compact
        inList
        text="app.errors.custom_fields_failed"
        onRetry={() => {
          void definitionsQuery.refetch();
          void valuesQuery.refetch();
        }}
      />
    );
  }
  const definitions = (definitionsQuery.data ?? []) as CustomFieldDefinition[];
  const values = valuesByName(definitions, (valuesQuery.data ?? []) as CustomValue[]);
  return (
    <>
      {definitions.map((field) => (
        <Grid key={field.name} size={{ xs: 12, sm: 6, md: 4 }} data-testid={`custom-field-${field.name}`}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {field.title}
          </Typography>
          <Typography component="dd" variant="body1" sx={{ m: 0 }}>
            {customValueText(field, values[field.name] ?? null, locale)}
          </Typography>
        </Grid>
      ))}
    </>
  );
}
