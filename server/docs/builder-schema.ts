/**
 * The builder query string as the document describes it: the items, their values and operators, and
 * the prose of the `Builder` component. What the server accepts is server/query/ (limits.ts), which this
 * describes.
 */
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../common/page.ts';
import { ANSWER_LIMITS, QUERY_LIMITS, WITH_LIMITS } from '../query/limits.ts';
import { schemaRef, type Schema } from './refs.ts';

export const OPERATORS = ['=', '!=', '<', '<=', '>', '>=', 'like'];

const tuple = (items: Schema[]): Schema => ({
  type: 'array',
  prefixItems: items,
  minItems: items.length,
  maxItems: items.length,
});

const named = (description: string): Schema => ({ type: 'string', description });
const item = (key: string, description: string, value: Schema): Schema => ({
  type: 'object',
  description,
  required: [key],
  properties: { [key]: value },
  additionalProperties: false,
});

function builderItem(): Schema {
  const value = schemaRef('BuilderValue');
  const op = schemaRef('BuilderOperator');
  return {
    description:
      'One builder item: an object with exactly one key (the value as `qs` parses the query string).',
    oneOf: [
      // The direction may be left out (`asc`), as server/query/parse.ts reads it.
      item('orderBy', 'Sort by a sortable field; the direction defaults to `asc`.', {
        oneOf: [tuple([named('field'), { enum: ['asc', 'desc'] }]), tuple([named('field')])],
      }),
      item('paginate', 'Page size.', {
        type: 'integer',
        minimum: 1,
        maximum: MAX_PAGE_SIZE,
        default: DEFAULT_PAGE_SIZE,
      }),
      item('where', 'Compare a filterable field; `[field, value]` means `=`.', {
        oneOf: [tuple([named('field'), op, value]), tuple([named('field'), value])],
      }),
      item(
        'whereIn',
        'The field is one of the values.',
        tuple([named('field'), { type: 'array', items: value }]),
      ),
      item('whereNull', 'The field is null.', named('field')),
      item('whereNotNull', 'The field is not null.', named('field')),
      item(
        'whereHas',
        'A related record matches the nested builder items; without them, any related record exists.',
        // qs drops an empty list, so `[relation]` alone is how "has any" arrives.
        { oneOf: [tuple([named('relation'), schemaRef('Builder')]), tuple([named('relation')])] },
      ),
      item('doesntHave', 'No related record exists.', named('relation')),
      item(
        'whereBetween',
        'The field lies between from and to.',
        tuple([named('field'), tuple([value, value])]),
      ),
      item(
        'customField',
        'Compare the value of a custom field.',
        tuple([named('custom field name'), op, value]),
      ),
      item('s', 'Case-insensitive search in the searchable fields.', { type: 'string' }),
      item(
        'select',
        'Answer only these fields (and `id`); `relation.field` chooses the fields of a relation loaded with `with`.',
        {
          type: 'array',
          items: named('field, or relation.field'),
          minItems: 1,
          maxItems: QUERY_LIMITS.maxSelect,
        },
      ),
    ],
  };
}

/** The builder's components: the list, one item, a value, an operator. */
export function builderSchemas(): Record<string, Schema> {
  return {
    Builder: { type: 'array', description: BUILDER_DESCRIPTION, items: schemaRef('BuilderItem') },
    BuilderItem: builderItem(),
    BuilderValue: {
      type: ['string', 'number', 'boolean', 'null'],
      description: 'A value to compare with; `me` stands for the caller where the field allows it.',
    },
    BuilderOperator: { enum: OPERATORS },
  };
}

const BUILDER_DESCRIPTION = `The list query: a list of builder items, each an object with one key. It travels as one
JSON-encoded query parameter, e.g.
\`builder=[{"orderBy":["updated_at","desc"]},{"where":["status_id","=",3]},{"paginate":15}]\` (URL-encoded),
or in the bracket style of the \`qs\` library with indices, which the apps send and which means the same:
\`builder[0][orderBy][0]=updated_at&builder[0][orderBy][1]=desc&builder[1][where][0]=status_id&builder[1][where][1]==&builder[1][where][2]=3&builder[2][paginate]=15\`.

| item | value | meaning |
|---|---|---|
| \`orderBy\` | \`[field, asc\\|desc]\` or \`[field]\` | sort by a sortable field (\`asc\` unless said); several items sort by several fields |
| \`paginate\` | \`n\` | page size, 1 to ${MAX_PAGE_SIZE}, default ${DEFAULT_PAGE_SIZE} |
| \`where\` | \`[field, op, value]\` or \`[field, value]\` | compare a filterable field (\`[field, value]\` means \`=\`) |
| \`whereIn\` | \`[field, [values]]\` | the field is one of the values |
| \`whereNull\` | \`field\` | the field is null |
| \`whereNotNull\` | \`field\` | the field is not null |
| \`whereHas\` | \`[relation, [builder items]]\` or \`[relation]\` | a related record matches the nested items (any related record without them) |
| \`doesntHave\` | \`relation\` | no related record exists |
| \`whereBetween\` | \`[field, [from, to]]\` | the field lies between from and to |
| \`customField\` | \`[name, op, value]\` | compare the value of the custom field \`name\` |
| \`s\` | \`text\` | case-insensitive search in the searchable fields |
| \`select\` | \`[field, relation.field, …]\` | answer only these fields; see below |

Operators: ${OPERATORS.map((o) => `\`${o}\``).join(' ')}.

The value \`me\` stands for the caller on the fields that allow it (listed per operation): the caller's
user id, the caller's line (\`is_operator\`) or the caller's categories (then compared as \`whereIn\`).

Which fields may be filtered and sorted, which fields \`s\` searches and which relations exist is listed
in the description of each list operation. An unknown field, relation or operator, a value of the wrong
type and a page size over ${MAX_PAGE_SIZE} are answered with 422, and so is a query whose cost is over the
budget (nested \`whereHas\`, searches through relations, \`withCount\` and the presets of one count call
add up; the message names the cost and what to reduce).

\`select\` names the columns a screen shows, so that the answer carries only those: \`[field, …]\` for the
listed records and \`relation.field\` for a relation the same call loads with \`with\` (\`status.name\`,
\`company.contract.name\`), at most ${QUERY_LIMITS.maxSelect} names. \`id\` always comes, and so do the keys a
loaded relation is found by (\`status_id\` with \`with=status\`), \`withCount\` columns and computed fields. A
level that \`select\` names no field of (the records themselves, or a loaded relation) keeps every field the
caller may read; without \`select\` the answer is as it always was. Each name must be a field the caller may
read on the resource it leads to (a client only the portal's fields): an unknown or hidden name, a relation
that is not loaded and one that leads to several kinds of record are answered with 422 under the item's
key (\`builder.2\`), and so is the item on a list asked for in another \`version\` than 1 (its rows would
answer empty values for what was left out). Preset counts and exports ignore the item.

\`with\` loads at most ${WITH_LIMITS.perRecord} rows of a to-many relation for each record (the first in the
relation's default order; \`withCount\` gives the full number, the relation's own list all of them). The
rows a \`with\` can bring, the records of the page times ${WITH_LIMITS.perRecord} for each to-many level,
may be at most ${WITH_LIMITS.rows}: past that, 422 under \`with\` naming the relations and the limit (a
to-many relation inside a to-many relation fits only on a page of one record). An answer larger than
${ANSWER_LIMITS.maxBytes / 1_000_000} MB is a 422 that asks for fewer records per page or fewer relations.`;
