/**
 * The form input of a list of portal resources (`x-input: "portal-resources"`, a company role's
 * `company_resources` and `own_resources`): one checkbox per portal resource the field's reach admits
 * (common/schema/portal-resources.ts, read from the schemas), by its translated name. A stored name that
 * is no longer one of them is still offered, under its own name, so that saving does not drop it
 * unseen; the server refuses it until it is unticked.
 */
import { CheckboxGroupInput, useRecordContext, useTranslate } from 'react-admin';
import type { InputExtraProps } from '../../resources/fields/kinds.ts';
import { registry } from '../../schema.ts';
import { portalResourceChoices, portalResourceReachOf } from '../../../common/schema/portal-resources.ts';
import { portalResourceName } from './portalResourceNames.ts';

export default function PortalResourcesInput(props: InputExtraProps) {
  const translate = useTranslate();
  const record = useRecordContext();
  const field = registry.require(props.resource).fields[props.source]!;
  const reach = portalResourceReachOf(field)!;
  const fitting = portalResourceChoices(registry, reach);
  const stored = Array.isArray(record?.[props.source]) ? (record[props.source] as unknown[]).map(String) : [];
  const choices = [...fitting, ...stored.filter((name) => !fitting.includes(name))]
    .map((id) => ({ id, name: portalResourceName(translate, id) }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <CheckboxGroupInput
      {...props}
      choices={choices}
      translateChoice={false}
      // Many choices: in columns at 1280 px, one under the other at 375 px.
      row
      sx={{
        '& .MuiFormGroup-root': {
          display: 'grid',
          gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))',
        },
      }}
    />
  );
}
