/**
 * THE type -> component table (DESIGN 4): how a schema field is shown (table cell, card, show page),
 * filtered (header filter control) and edited (react-admin input), decided by its type, format, `x-enum`,
 * the resource's belongsTo relations and a few name rules; never per resource, like react-admin's
 * guessers.
 *
 *   displayValue(resource, field, record)  the value as shown (a React node)
 *   <FieldDisplay resource field record /> the same as a component (`full` skips the ellipsis)
 *   displayText(resource, field, record, { locale, translate })  plain text (cards, titles, exports)
 *   <FilterControl resource field value onChange label />   the header filter control
 *   <FieldInput resource field />          the edit/create input
 *   fieldKind / filterKind / referenceOf / readableFields   the decisions themselves
 */
import { useCallback, useMemo, useState, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Check from '@mui/icons-material/Check';
import Close from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import {
  AutocompleteInput,
  BooleanInput,
  DateInput,
  ReferenceField,
  ReferenceInput,
  SelectInput,
  TextInput,
  required,
  useCanAccess,
  useCreatePath,
  useLocaleState,
  useRecordContext,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import type { Field, Resource } from '../../common/schema/types.ts';
import { fieldKind, referenceOf, type FieldKind } from '../../common/schema/field-kind.ts';
import {
  ELLIPSIS_LIMITS,
  ellipsis,
  formatDate,
  formatDateTime,
  formatFileSize,
  formatMinutes,
  formatMoney,
  formatQuantity,
} from '../../common/format.ts';
import { badgeOf, ellipsisOf, meets } from '../../common/schema/display.ts';
import { DateBadge, EMPTY_BADGE_LABELS } from '../custom/detail/DateBadge.tsx';
import { DateTimeInput } from '../custom/forms/DateTimeInput.tsx';
import { MinutesInput, NumericInput } from '../custom/forms/TypedInputs.tsx';
import { SMALL_LIST_MAX, useSmallList } from '../custom/forms/smallList.ts';
import { pickableFilter } from '../custom/forms/pickable.ts';
import { registry } from '../schema.ts';
import { hasDetailRoute } from './menus.ts';
import { useAppKind, type AppKind } from '../custom/appKind.ts';
import type { FilterKind } from '../custom/list/filters.ts';
import {
  BooleanFilter,
  DateFilter,
  EnumFilter,
  MIN_SEARCH_CHARS,
  ReferenceFilter,
  SEARCH_DEBOUNCE_MS,
  TextFilter,
  searchFilter,
  type FilterControlProps,
} from '../custom/list/filterControls.tsx';

// ---------------------------------------------------------------------------------------------------
// Name rules: what a field's name says about a plain number or text (SPEC 9).

type EllipsisKind = keyof typeof ELLIPSIS_LIMITS;

/**
 * SPEC 9's limits by what a field's name says, wherever it appears: person names 30, phone numbers 35,
 * a ticket's description shown on another record 50, ID texts 10. A field whose resource decides
 * otherwise says so in its schema (x-ellipsis: a ticket's own description).
 */
const ELLIPSIS_RULES: { test: (field: string) => boolean; limit: EllipsisKind }[] = [
  { test: (f) => f === 'full_name' || f === 'first_name' || f === 'last_name', limit: 'name' },
  { test: (f) => /(^|_)phone(_|$)/.test(f), limit: 'phone' },
  { test: (f) => f === 'ticket_description', limit: 'ticketDescription' },
  { test: (f) => /(^|_)id$/.test(f), limit: 'idText' },
];

/** Where a field's text is cut: its schema's x-ellipsis (false: never), else the name rules, else 35. */
export function ellipsisLimit(resource: string, field: string): number {
  const schema = registry.get(resource)?.fields[field];
  const own = schema ? ellipsisOf(schema) : undefined;
  if (own === false) return Number.POSITIVE_INFINITY;
  if (own !== undefined) return own;
  const rule = ELLIPSIS_RULES.find((r) => r.test(field));
  return ELLIPSIS_LIMITS[rule?.limit ?? 'generic'];
}

/** A field's text as a table cell or card shows it: cut at the schema's x-ellipsis, else the name rules. */
function cutField(text: string, resource: Resource, field: Field): string {
  const own = ellipsisOf(field);
  return own === false ? text : ellipsis(text, own ?? ellipsisLimit(resource.name, field.name));
}

// ---------------------------------------------------------------------------------------------------
// Field kinds.

// The kind of a field is one decision the apps and the server's exports share.
export { fieldKind, referenceOf, type FieldKind } from '../../common/schema/field-kind.ts';

/** The fields a user of this app receives: a client only `x-portal.fields`; nobody `writeOnly` ones. */
export function readableFields(resource: Resource, appKind: AppKind): Field[] {
  const all = Object.values(resource.fields).filter((f) => !f.writeOnly);
  const allowed = appKind === 'portal' ? resource.portal?.fields : undefined;
  return allowed ? all.filter((f) => allowed.includes(f.name)) : all;
}

/** A related resource a user of this app may read (clients: only resources with a portal index). */
export function canReadResource(name: string, appKind: AppKind): boolean {
  const target = registry.get(name);
  if (!target) return false;
  return appKind === 'backoffice' || (target.portal?.actions.includes('index') ?? false);
}

/**
 * The related resource's label field as this app's user sees it: `x-label`; for a client the schema's
 * `x-portal.label` when set (ticket statuses: name_client), or the id when the label is not a portal field.
 */
export function labelFieldOf(target: Resource | undefined, appKind: AppKind): string {
  const label = target?.label ?? 'name';
  if (!target || appKind === 'backoffice') return label;
  const portalLabel = target.schema?.['x-portal']?.label;
  if (typeof portalLabel === 'string' && target.fields[portalLabel]) return portalLabel;
  const allowed = target.portal?.fields;
  return !allowed || allowed.includes(label) ? label : 'id';
}

// ---------------------------------------------------------------------------------------------------
// The table: per kind, its text formatter, filter and input.

export interface FormatContext {
  locale: string;
  translate: (key: string, options?: any) => string;
  /** References show the label a user of this app sees (default: the back office's). */
  appKind?: AppKind;
}

interface KindEntry {
  /** Right-aligned numbers. */
  align: 'left' | 'right';
  format: (value: unknown, ctx: FormatContext, resource: Resource, field: Field) => string;
  filter?: FilterKind;
  input: (resource: Resource, field: Field, props: InputExtraProps) => ReactElement | null;
}

type InputExtraProps = Record<string, unknown> & { source: string; resource: string };

const asText = (value: unknown) => (value === null || value === undefined ? '' : String(value));

function enumLabel(field: Field, value: unknown, translate: FormatContext['translate']): string {
  if (value === null || value === undefined || value === '') return '';
  const entry = registry.enums[field.enumName ?? '']?.values.find((v) => String(v.id) === String(value));
  return translate(`enums.${field.enumName}.${String(value)}`, { _: entry?.name ?? String(value) });
}

/** Enumeration values as choices with translated labels. */
export function enumChoices(
  field: Field,
  translate: FormatContext['translate'],
): { id: string | number; label: string }[] {
  const seen = new Set<string>();
  const out: { id: string | number; label: string }[] = [];
  for (const v of registry.enums[field.enumName ?? '']?.values ?? []) {
    if (seen.has(String(v.id))) continue;
    seen.add(String(v.id));
    out.push({ id: v.id, label: enumLabel(field, v.id, translate) });
  }
  return out;
}

const KINDS: Record<FieldKind, KindEntry> = {
  reference: {
    align: 'left',
    format: (value, ctx, resource, field) => {
      const relation = referenceOf(resource, field);
      const target = relation && registry.get(relation.resource);
      if (typeof value === 'object' && value !== null && target) {
        const label = labelFieldOf(target, ctx.appKind ?? 'backoffice');
        return ellipsis(asText((value as RaRecord)[label]), ellipsisLimit(target.name, label));
      }
      return asText(value);
    },
    filter: 'select',
    input: (resource, field, props) => <ReferenceSearchInput {...props} schema={resource} field={field} />,
  },
  enum: {
    align: 'left',
    format: (value, ctx, _r, field) => enumLabel(field, value, ctx.translate),
    filter: 'select',
    input: (_r, field, props) => <EnumInput field={field} {...props} />,
  },
  boolean: {
    align: 'left',
    format: (value, ctx) =>
      value === true ? ctx.translate('list.yes') : value === false ? ctx.translate('list.no') : '',
    filter: 'boolean',
    input: (_r, _f, props) => <BooleanInput {...props} />,
  },
  date: {
    align: 'left',
    format: (value, ctx) => formatDate(value as string, ctx.locale),
    filter: 'date',
    input: (_r, _f, props) => <DateInput {...props} />,
  },
  datetime: {
    align: 'left',
    // SPEC 9's date; with x-time (a history's moments) the time of day after it.
    format: (value, ctx, _r, field) =>
      field.schema['x-time'] === true
        ? `${formatDate(value as string, ctx.locale)} ${formatDateTime(value as string, ctx.locale)
            .split(' ')
            .pop()}`
        : formatDate(value as string, ctx.locale),
    filter: 'datetime',
    input: (_r, _f, props) => <DateTimeInput {...props} />,
  },
  minutes: {
    align: 'right',
    format: (value) => formatMinutes(value as number),
    filter: 'number',
    // SPEC 5: time entry accepts hh:mm or a plain number of minutes.
    input: (_r, _f, props) => <MinutesInput {...props} />,
  },
  quantity: {
    align: 'right',
    format: (value, ctx) => formatQuantity(value as number, ctx.locale),
    filter: 'number',
    input: (_r, _f, props) => <NumericInput {...props} />,
  },
  fileSize: {
    align: 'right',
    format: (value, ctx) => formatFileSize(value as number, ctx.locale),
    filter: 'number',
    input: (_r, _f, props) => <NumericInput {...props} />,
  },
  money: {
    align: 'right',
    format: (value, ctx) => formatMoney(value as number, ctx.locale),
    filter: 'number',
    input: (_r, _f, props) => <NumericInput {...props} />,
  },
  integer: {
    align: 'right',
    format: asText,
    filter: 'number',
    input: (_r, _f, props) => <NumericInput {...props} />,
  },
  email: {
    align: 'left',
    format: (value, _ctx, resource, field) => cutField(asText(value), resource, field),
    filter: 'text',
    input: (_r, _f, props) => <TextInput type="email" {...props} />,
  },
  text: {
    align: 'left',
    format: (value, _ctx, resource, field) => cutField(asText(value), resource, field),
    filter: 'text',
    input: (_r, field, props) => {
      // A write-only text (a mailbox password) is typed unseen and never shown back.
      if (field.writeOnly) return <TextInput type="password" autoComplete="new-password" {...props} />;
      const max = Number(field.schema.maxLength ?? 0);
      return <TextInput multiline={max === 0 || max > 255} {...props} />;
    },
  },
  json: {
    align: 'left',
    format: (value) => ellipsis(value === null || value === undefined ? '' : JSON.stringify(value)),
    input: (_r, _f, props) => (
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
  },
};

export function fieldAlign(resource: Resource, field: Field): 'left' | 'right' {
  return KINDS[fieldKind(resource, field)].align;
}

/** What the field's header filter produces; undefined when the field cannot be filtered. */
export function filterKind(
  resource: Resource,
  field: Field,
  appKind: AppKind = 'backoffice',
): FilterKind | undefined {
  if (!field.filter) return undefined;
  const kind = fieldKind(resource, field);
  if (kind === 'reference') {
    const relation = referenceOf(resource, field)!;
    // A client cannot search a resource outside the portal; the id is still a number.
    if (!canReadResource(relation.resource, appKind)) return 'number';
  }
  return KINDS[kind].filter;
}

// ---------------------------------------------------------------------------------------------------
// Display.

/**
 * The value as text: dates 'DD MMM YY', euros, HH:MM, enum labels, yes/no, texts cut at their limit.
 * A reference is its related record's label when loaded (`with`), else the raw id.
 */
export function displayText(
  resource: Resource,
  field: Field,
  record: RaRecord | undefined,
  ctx: FormatContext,
): string {
  if (!record) return '';
  const kind = fieldKind(resource, field);
  if (kind === 'reference') {
    const relation = referenceOf(resource, field)!;
    const loaded = record[relation.name];
    if (typeof loaded === 'object' && loaded !== null)
      return KINDS.reference.format(loaded, ctx, resource, field);
  }
  return KINDS[kind].format(record[field.name], ctx, resource, field);
}

/** The value as shown in a table cell, card or show page. */
export function displayValue(resource: Resource, field: Field, record: RaRecord | undefined): ReactNode {
  return <FieldDisplay resource={resource} field={field} record={record} />;
}

export interface FieldDisplayProps {
  resource: Resource;
  field: Field;
  /** The record; the record context's when left out. */
  record?: RaRecord;
  /** Show texts in full (show pages); table cells and cards cut them at the SPEC 9 limits. */
  full?: boolean;
  /**
   * A reference links to its record's detail where the user may open it (SPEC 2, the back office's
   * links); false where the value already sits inside a link or button.
   */
  link?: boolean;
}

export function FieldDisplay({ resource, field, record: recordProp, full, link = true }: FieldDisplayProps) {
  const contextRecord = useRecordContext();
  const record = recordProp ?? contextRecord;
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const appKind = useAppKind();
  if (!record) return null;
  const kind = fieldKind(resource, field);
  const value = record[field.name];
  const ctx: FormatContext = { locale, translate };

  if (kind === 'boolean') {
    if (value !== true && value !== false) return null;
    const Icon = value ? Check : Close;
    return (
      <Icon
        fontSize="small"
        color={value ? 'success' : 'action'}
        titleAccess={translate(value ? 'list.yes' : 'list.no')}
        sx={{ verticalAlign: 'middle' }}
      />
    );
  }

  if (kind === 'reference') {
    const relation = referenceOf(resource, field)!;
    const target = registry.get(relation.resource);
    const loaded = record[relation.name];
    const labelField = labelFieldOf(target, appKind);
    const styleField = styleFieldOf(target, appKind);
    const cut = (text: unknown) =>
      full ? asText(text) : ellipsis(asText(text), ellipsisLimit(relation.resource, labelField));
    // A record without its label (a draft invoice has no code yet) is named by its id, as a card is:
    // a link without text names nothing (axe: link-name).
    const labelOf = (related: RaRecord) => {
      const label = related[labelField];
      return label === null || label === undefined || label === '' ? `#${related.id}` : label;
    };
    const show = (related: RaRecord) => (
      <Styled style={styleField ? related[styleField] : undefined}>
        <Cut text={asText(labelOf(related))} shown={cut(labelOf(related))} />
      </Styled>
    );
    const linked = (related: RaRecord) =>
      link && target ? (
        <RecordLink target={target} id={related.id}>
          {show(related)}
        </RecordLink>
      ) : (
        show(related)
      );
    if (typeof loaded === 'object' && loaded !== null) return linked(loaded);
    // Loaded with the row (`with`) but not visible to this user, or no related record: nothing to show.
    if (relation.name in record || value === null || value === undefined) return null;
    if (!canReadResource(relation.resource, appKind)) return <>{asText(value)}</>;
    return (
      <ReferenceField
        record={record}
        source={field.name}
        reference={relation.resource}
        link={false}
        render={({ referenceRecord }) => (referenceRecord ? linked(referenceRecord) : null)}
      />
    );
  }

  const badge = badgeOf(field);
  if (badge) {
    return (
      <DateBadge
        kind={badge.kind}
        date={value}
        text={KINDS[kind].format(value, ctx, resource, field)}
        emptyLabel={translate(`resources.${resource.name}.badges.${field.name}`, {
          _: translate(EMPTY_BADGE_LABELS[badge.kind]),
        })}
        settled={badge.settled.some((condition) => meets(record, condition))}
        full={full}
      />
    );
  }

  if (kind === 'text' || kind === 'email' || kind === 'json') {
    const text =
      kind === 'json' ? (value === null || value === undefined ? '' : JSON.stringify(value)) : asText(value);
    return <Cut text={text} shown={full ? text : KINDS[kind].format(value, ctx, resource, field)} />;
  }

  return <>{KINDS[kind].format(value, ctx, resource, field)}</>;
}

/**
 * A related record as a link to its detail (SPEC 2: `{resource}.show`), when this app has that route
 * and the user holds its show permission; plain content otherwise. In a list the link opens the related
 * record, not the row.
 */
function RecordLink({ target, id, children }: { target: Resource; id: Identifier; children: ReactNode }) {
  const appKind = useAppKind();
  const createPath = useCreatePath();
  const routed = hasDetailRoute(target, appKind);
  const { canAccess } = useCanAccess({ resource: target.name, action: 'show', enabled: routed });
  if (!routed || !canAccess) return <>{children}</>;
  return (
    <Link
      component={RouterLink}
      to={createPath({ resource: target.name, id, type: 'edit' })}
      onClick={(event: MouseEvent) => event.stopPropagation()}
      underline="hover"
    >
      {children}
    </Link>
  );
}

/**
 * The field of a named list that styles its records (SPEC 3: priority style, status style_client):
 * clients see `style_client` where the list has one they may read.
 */
function styleFieldOf(target: Resource | undefined, appKind: AppKind): string | undefined {
  if (!target) return undefined;
  const readable = new Set(readableFields(target, appKind).map((f) => f.name));
  if (appKind === 'portal' && readable.has('style_client')) return 'style_client';
  return readable.has('style') ? 'style' : undefined;
}

/** Style names of the stored lists -> theme colours; an unknown style is the neutral one. */
const STYLE_COLOURS: Record<string, string> = {
  info: 'info.main',
  primary: 'primary.main',
  success: 'success.main',
  warning: 'warning.main',
  error: 'error.main',
  danger: 'error.main',
};

/**
 * A styled value: a coloured dot before the text. The text keeps the normal colour, so contrast does not
 * depend on the style, and the dot only repeats what the text says.
 */
function Styled({ style, children }: { style: unknown; children: ReactNode }) {
  if (typeof style !== 'string' || style === '') return <>{children}</>;
  return (
    <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.75 }}>
      <Box
        component="span"
        aria-hidden="true"
        data-style={style}
        sx={{
          width: 10,
          height: 10,
          borderRadius: '50%',
          flexShrink: 0,
          bgcolor: STYLE_COLOURS[style] ?? 'grey.500',
        }}
      />
      <span>{children}</span>
    </Box>
  );
}

/** A cut text keeps the full text as its title. */
function Cut({ text, shown }: { text: string; shown: string }) {
  return shown === text ? <>{shown}</> : <span title={text}>{shown}</span>;
}

// ---------------------------------------------------------------------------------------------------
// Filters.

export interface FilterControlOwnProps extends FilterControlProps {
  resource: Resource;
  field: Field;
}

/** The header filter control for a field (SPEC 2): text, number, yes/no, date presets, selectors. */
export function FilterControl({ resource, field, ...props }: FilterControlOwnProps) {
  const translate = useTranslate();
  const appKind = useAppKind();
  const kind = filterKind(resource, field, appKind);
  switch (kind) {
    case 'text':
      return <TextFilter {...props} />;
    case 'number':
      return <TextFilter {...props} numeric />;
    case 'boolean':
      return <BooleanFilter {...props} />;
    case 'date':
    case 'datetime':
      return <DateFilter {...props} />;
    case 'select': {
      const relation = referenceOf(resource, field);
      if (relation) {
        const target = registry.get(relation.resource);
        const labelField = labelFieldOf(target, appKind);
        return (
          <ReferenceFilter
            {...props}
            reference={relation.resource}
            labelField={labelField}
            search={target?.search ?? []}
            sort={target?.defaultSort}
            format={(text) => ellipsis(asText(text), ellipsisLimit(relation.resource, labelField))}
            me={!!field.me}
          />
        );
      }
      return <EnumFilter {...props} choices={enumChoices(field, translate)} me={!!field.me} />;
    }
    default:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------------
// Inputs.

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
  return KINDS[fieldKind(resource, field)].input(resource, field, props);
}

function EnumInput({ field, ...props }: InputExtraProps & { field: Field }) {
  const translate = useTranslate();
  const choices = enumChoices(field, translate).map((c) => ({ id: c.id, name: c.label }));
  return <SelectInput {...props} choices={choices} translateChoice={false} />;
}

/**
 * ReferenceInput + AutocompleteInput. A small list (priorities, statuses: smallList.ts) opens with all
 * its options at once; a large one searches after 2 typed characters and says how many are missing.
 */
function ReferenceSearchInput({
  schema,
  field,
  ...props
}: InputExtraProps & { schema: Resource; field: Field }) {
  const translate = useTranslate();
  const appKind = useAppKind();
  const [typed, setTyped] = useState(0);
  const [focused, setFocused] = useState(false);
  const relation = referenceOf(schema, field)!;
  const target = registry.get(relation.resource);
  const labelField = labelFieldOf(target, appKind);
  // Only records the target offers as a new value (x-pickable: no archived operator); the current value
  // is read on its own by ReferenceInput, so a record that holds an archived one still shows it.
  const pickable = useMemo(() => pickableFilter(target), [target]);
  const { small } = useSmallList(relation.resource, target?.defaultSort, true, pickable);
  const missing = small === false ? MIN_SEARCH_CHARS - typed : 0;
  // A stable function: AutocompleteInput resets the typed text whenever optionText changes identity.
  const optionText = useCallback((r: RaRecord) => asText(r[labelField]), [labelField]);
  const { source, validate, readOnly, resource, ...inputProps } = props;
  return (
    <ReferenceInput
      source={source}
      reference={relation.resource}
      resource={resource}
      filter={pickable}
      perPage={SMALL_LIST_MAX}
      sort={
        target?.defaultSort && {
          field: target.defaultSort[0],
          order: target.defaultSort[1] === 'desc' ? 'DESC' : 'ASC',
        }
      }
    >
      <AutocompleteInput
        {...inputProps}
        validate={validate as any}
        readOnly={readOnly as boolean | undefined}
        optionText={optionText}
        debounce={SEARCH_DEBOUNCE_MS}
        filterToQuery={(text: string) => searchFilter(text, target?.search ?? [], labelField)}
        shouldRenderSuggestions={(text: string) =>
          small === true || (small === false && text.trim().length >= MIN_SEARCH_CHARS)
        }
        noOptionsText={translate('list.filter.no_options')}
        // A large list stays closed below 2 characters, so the hint is the field's helper text meanwhile.
        helperText={
          focused && missing > 0 ? (
            <span role="status">{translate('list.filter.type_more', { smart_count: missing })}</span>
          ) : (
            (inputProps.helperText as ReactNode)
          )
        }
        onFocus={() => setFocused(true)}
        onBlur={() => setFocused(false)}
        onInputChange={(_event: unknown, text: string) => setTyped(text.trim().length)}
      />
    </ReferenceInput>
  );
}
