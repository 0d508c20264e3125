/** The header filter control of a field (SPEC 2), chosen by the type table (./kinds.ts: filterKind). */
import { useTranslate } from 'react-admin';
import type { Field, Resource } from '../../../common/schema/types.ts';
import { referenceOf } from '../../../common/schema/field-kind.ts';
import { ellipsis } from '../../../common/format.ts';
import { registry } from '../../schema.ts';
import { useAppKind } from '../../custom/appKind.ts';
import {
  BooleanFilter,
  DateFilter,
  EnumFilter,
  ReferenceFilter,
  TextFilter,
  type FilterControlProps,
} from '../../custom/list/filterControls.tsx';
import { asText, enumChoices, filterKind } from './kinds.ts';
import { ellipsisLimit, labelFieldOf } from './rules.ts';

export interface FilterControlOwnProps extends FilterControlProps {
  resource: Resource;
  field: Field;
  /**
   * Only the field's own values, no '(none)' and no 'me': a rule's conditions editor, where "is empty"
   * is an operator of its own and a rule acts for no one.
   */
  plain?: boolean;
}

/** The header filter control for a field (SPEC 2): text, number, yes/no, date presets, selectors. */
export function FilterControl({ resource, field, plain, ...props }: FilterControlOwnProps) {
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
            me={!plain && !!field.me}
            noNone={plain}
          />
        );
      }
      return (
        <EnumFilter
          {...props}
          choices={enumChoices(field, translate)}
          me={!plain && !!field.me}
          noNone={plain}
        />
      );
    }
    default:
      return null;
  }
}
