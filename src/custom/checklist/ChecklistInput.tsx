/**
 * The form input of a checklist template (`x-input: "checklist"`: a recurring ticket's `checklist`):
 * one row per item, in order (add, remove, move up and down), each its text and whether it is required
 * before the ticket closes and shown to the client. It writes the JSON the API takes and copies onto
 * each ticket made, `[{ text, required, visible_to_client }]`; the field's labels are the checklist
 * items' own (checklist-items' schema), so a template reads as the checklist it becomes.
 */
import {
  ArrayInput,
  BooleanInput,
  SimpleFormIterator,
  TextInput,
  maxLength,
  required,
  useTranslate,
} from 'react-admin';
import type { InputExtraProps } from '../../resources/fields/kinds.ts';

/** The resource whose fields a template's items become. */
const ITEMS = 'checklist-items';
/** The longest item text (the recurring tickets' schema: checklist.items.text.maxLength). */
const MAX_TEXT = 500;

export default function ChecklistInput(props: InputExtraProps) {
  const translate = useTranslate();
  const { source, label, helperText } = props;
  const field = (name: string) => translate(`resources.${ITEMS}.fields.${name}`);
  return (
    <ArrayInput
      source={source}
      label={label as string | undefined}
      helperText={helperText as string | undefined}
    >
      <SimpleFormIterator
        inline
        disableReordering={false}
        disableClear
        getItemLabel={(index: number) => `${index + 1}.`}
        fullWidth
      >
        <TextInput
          source="text"
          label={field('text')}
          validate={[required(), maxLength(MAX_TEXT)]}
          sx={{ minWidth: 240, flex: 1 }}
        />
        <BooleanInput source="required" label={field('required')} defaultValue={false} />
        <BooleanInput source="visible_to_client" label={field('visible_to_client')} defaultValue={false} />
      </SimpleFormIterator>
    </ArrayInput>
  );
}
