/**
 * How a field's value is shown in a table cell, card or show page (the type table: ./kinds.ts): yes/no
 * icons, date badges, cut texts with their full text as title, and a related record as a styled,
 * linked chip.
 */
import { Suspense, type MouseEvent, type ReactElement, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import Check from '@mui/icons-material/Check';
import Close from '@mui/icons-material/Close';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import {
  ReferenceField,
  useCanAccess,
  useCreatePath,
  useLocaleState,
  useRecordContext,
  useTranslate,
  type Identifier,
  type RaRecord,
} from 'react-admin';
import type { Field, Resource } from '../../../common/schema/types.ts';
import { fieldKind, referenceOf } from '../../../common/schema/field-kind.ts';
import { ellipsis } from '../../../common/format.ts';
import {
  badgeOf,
  hasOwnDisplay,
  inputOf,
  meets,
  type DisplayedInput,
} from '../../../common/schema/display.ts';
import { lazyWithTimeout } from '../../shell/lazy.ts';
import { DateBadge, EMPTY_BADGE_LABELS } from '../../custom/detail/DateBadge.tsx';
import { registry } from '../../schema.ts';
import { hasDetailRoute } from '../menus.ts';
import { useAppKind } from '../../custom/appKind.ts';
import { asText, jsonText, KINDS, type FormatContext } from './kinds.ts';
import { canReadResource, ellipsisLimit, labelFieldOf, styleFieldOf } from './rules.ts';

/** The displays of the forms' own inputs (x-input) that have one, each a chunk of its own. */
const OWN_DISPLAYS: Record<
  DisplayedInput,
  ReturnType<typeof lazyWithTimeout<(props: { value: unknown; full?: boolean }) => ReactElement | null>>
> = {
  'automation-actions': lazyWithTimeout(() => import('../../custom/automation/ActionsDisplay.tsx')),
  'automation-conditions': lazyWithTimeout(() => import('../../custom/automation/ConditionsDisplay.tsx')),
  checklist: lazyWithTimeout(() => import('../../custom/checklist/ChecklistDisplay.tsx')),
  'portal-resources': lazyWithTimeout(() => import('../../custom/forms/PortalResourcesDisplay.tsx')),
  'ticket-fields': lazyWithTimeout(() => import('../../custom/automation/TicketFieldsDisplay.tsx')),
};

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
        stored={badge.state === undefined ? undefined : { state: record[badge.state] }}
      />
    );
  }

  if (hasOwnDisplay(field)) {
    const Own = OWN_DISPLAYS[inputOf(field) as DisplayedInput];
    return (
      <Suspense fallback={null}>
        <Own value={value} full={full} />
      </Suspense>
    );
  }

  if (kind === 'text' || kind === 'email' || kind === 'json') {
    const text = kind === 'json' ? jsonText(value) : asText(value);
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
