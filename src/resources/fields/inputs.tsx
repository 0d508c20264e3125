/**
 * The edit/create input of a field, per kind of the type table (./kinds.ts): react-admin's inputs and
 * the apps' own (typed numbers, minutes, date and time), a related record searched (./ReferenceSearchInput.tsx).
 */
import { Suspense, type ReactElement } from 'react';
import {
  BooleanInput,
  CheckboxGroupInput,
  DateInput,
  SelectInput,
  TextInput,
  required,
  useTranslate,
} from 'react-admin';
import type { Field, Resource } from '../../../common/schema/types.ts';
import { fieldKind, type FieldKind } from '../../../common/schema/field-kind.ts';
import { DateTimeInput } from '../../custom/forms/DateTimeInput.tsx';
import { MinutesInput, NumericInput } from '../../custom/forms/TypedInputs.tsx';
import { enumChoices, type InputExtraProps } from './kinds.ts';
import { ReferenceSearchInput } from './ReferenceSearchInput.tsx';
import { lazyWithTimeout } from '../../shell/lazy.ts';
import { inputOf, type FieldInput as OwnInput } from '../../../common/schema/display.ts';

/** The forms' own inputs a field asks for (x-input), each a chunk of its own: few forms have one. */
const OWN_INPUTS: Record<
  OwnInput,
  ReturnType<typeof lazyWithTimeout<(props: InputExtraProps) => ReactElement>>
> = {
  'automation-actions': lazyWithTimeout(() => import('../../custom/automation/ActionsInput.tsx')),
  'rich-text': lazyWithTimeout(() => import('../../custom/forms/RichTextInput.tsx')),
  'automation-conditions': lazyWithTimeout(() => import('../../custom/automation/ConditionsInput.tsx')),
  checklist: lazyWithTimeout(() => import('../../custom/checklist/ChecklistInput.tsx')),
  'portal-resources': lazyWithTimeout(() => import('../../custom/forms/PortalResourcesInput.tsx')),
  'ticket-fields': lazyWithTimeout(() => import('../../custom/automation/TicketFieldsInput.tsx')),
};

/** Per kind of field, its input. */
const INPUTS: Record<
  FieldKind,
  (resource: Resource, field: Field, props: InputExtraProps) => ReactElement | null
> = {
  reference: (resource, field, props) => <ReferenceSearchInput {...props} schema={resource} field={field} />,
  enum: (_r, field, props) => <EnumInput field={field} {...props} />,
  boolean: (_r, _f, props) => <BooleanInput {...props} />,
  date: (_r, _f, props) => <DateInput {...props} />,
  datetime: (_r, _f, props) => <DateTimeInput {...props} />,
  // SPEC 5: time entry accepts hh:mm or a plain number of minutes.
  minutes: (_r, _f, props) => <MinutesInput {...props} />,
  quantity: (_r, _f, props) => <NumericInput {...props} />,
  fileSize: (_r, _f, props) => <NumericInput {...props} />,
  money: (_r, _f, props) => <NumericInput {...props} />,
  integer: (_r, _f, props) => <NumericInput {...props} />,
  email: (_r, _f, props) => <TextInput type="email" {...props} />,
  text: (_r, field, props) => {
    // A write-only text (a mailbox password) is typed unseen and never shown back.
    if (field.writeOnly) return <TextInput type="password" autoComplete="new-password" {...props} />;
    const max = Number(field.schema.maxLength ?? 0);
    return <TextInput multiline={max === 0 || max > 255} {...props} />;
  },
  json: (resource, field, props) =>
    // An array of named values (a webhook's events) is a list of checkboxes; other JSON is typed.
    arrayChoices(field) ? (
      <ChoicesInput resource={resource} field={field} props={props} />
    ) : (
      <TextInput
        multiline
        {...props}
        format={(v: unknown) => (v === null || v === undefined ? '' : JSON.stringify(v, null, 2))}
        parse={(v: string) => {
          try {
            return JSON.parse(v);
          } catch {
            return v;
          }
        }}
      />
    ),
};

/**
 * The checkboxes of an array of named values, each labelled `resources.<resource>.choices.<field>.<value>`
 * (the schema's x-i18n), else the value.
 */
function ChoicesInput({
  resource,
  field,
  props,
}: {
  resource: Resource;
  field: Field;
  props: InputExtraProps;
}) {
  const translate = useTranslate();
  const choices = arrayChoices(field)!.map((id) => ({
    id,
    name: translate(`resources.${resource.name}.choices.${field.name}.${id}`, { _: id }),
  }));
  return <CheckboxGroupInput {...props} choices={choices} translateChoice={false} />;
}

/** The values an array field's items are limited to (`items.enum`), if any. */
function arrayChoices(field: Field): string[] | undefined {
  const items = field.schema.items as { enum?: unknown[] } | undefined;
  return field.type === 'array' && Array.isArray(items?.enum) ? items.enum.map(String) : undefined;
}

export interface FieldInputProps {
  resource: Resource;
  field: Field;
  [prop: string]: unknown;
}

/** The react-admin input for a field in edit and create forms; required fields are validated. */
export function FieldInput({ resource, field, ...rest }: FieldInputProps) {
  const translate = useTranslate();
  const help = translate(`resources.${resource.name}.help.${field.name}`, { _: '' });
  const props: InputExtraProps = {
    source: field.name,
    resource: resource.name,
    // A translated field's own text is the Dutch one; its other languages are fields of their own.
    ...(field.translations && {
      label: translate('app.translated.base', {
        label: translate(`resources.${resource.name}.fields.${field.name}`, { _: field.name }),
      }),
    }),
    readOnly: field.readOnly || undefined,
    validate: resource.required.includes(field.name) && !field.readOnly ? required() : undefined,
    // A schema's own help for the field (x-i18n.<language>.help.<field>), under the input.
    ...(help && { helperText: help }),
    ...rest,
  };
  const own = inputOf(field);
  if (own) {
    const Own = OWN_INPUTS[own];
    return (
      <Suspense fallback={null}>
        <Own {...props} />
      </Suspense>
    );
  }
  return INPUTS[fieldKind(resource, field)](resource, field, props);
}

function EnumInput({ field, ...props }: InputExtraProps & { field: Field }) {
  const translate = useTranslate();
  const choices = enumChoices(field, translate).map((c) => ({ id: c.id, name: c.label }));
  return <SelectInput {...props} choices={choices} translateChoice={false} />;
}
