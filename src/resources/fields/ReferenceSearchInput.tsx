import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { AutocompleteInput, ReferenceInput, useTranslate, type RaRecord } from 'react-admin';
import type { Field, Resource } from '../../../common/schema/types.ts';
import { referenceOf } from '../../../common/schema/field-kind.ts';
import { SMALL_LIST_MAX, useSmallList } from '../../custom/forms/smallList.ts';
import { pickableFilter } from '../../custom/forms/pickable.ts';
import { registry } from '../../schema.ts';
import { useAppKind } from '../../custom/appKind.ts';
import { MIN_SEARCH_CHARS, SEARCH_DEBOUNCE_MS, searchFilter } from '../../custom/list/filterControls.tsx';
import { asText, type InputExtraProps } from './kinds.ts';
import { labelFieldOf } from './rules.ts';

/**
 * ReferenceInput + AutocompleteInput. A small list (priorities, statuses: smallList.ts) opens with all
 * its options at once; a large one searches after 2 typed characters and says how many are missing.
 */
export function ReferenceSearchInput({
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
