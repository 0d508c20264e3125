/**
 * 'New ticket from template' on a template ticket's detail (SPEC: template tickets; issue 18 item 6):
 * the ticket create form opens with the template's fields filled in (the fields a ticket form has,
 * nothing else), for the operator to complete and save. Shown with `tenant.tickets.store`.
 */
import { Button } from '@mui/material';
import PostAddIcon from '@mui/icons-material/PostAdd';
import { useCanAccess, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { writableFieldsFor } from '../../../common/schema/fields.ts';
import { registry } from '../../schema.ts';
import type { CreateLinkState } from '../../custom/detail/createDefaults.ts';
import type { RecordActionsProps } from '../override-contract.ts';

/** The resource a template becomes, and the field that tells the two apart. */
const TICKETS = 'tickets';
const TEMPLATE_FLAG = 'is_template';

export default function TemplateActions({ record }: RecordActionsProps) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { canAccess } = useCanAccess({ resource: TICKETS, action: 'create' });
  if (!canAccess) return null;
  const start = () => {
    const values: Record<string, unknown> = {};
    for (const field of writableFieldsFor(registry.require(TICKETS), false)) {
      const value = record[field.name];
      if (field.name !== TEMPLATE_FLAG && value !== undefined && value !== null) values[field.name] = value;
    }
    const state: CreateLinkState = { record: values };
    navigate(`/${TICKETS}/create`, { state });
  };
  return (
    <Button variant="outlined" startIcon={<PostAddIcon />} onClick={start}>
      {translate('workspace.templates.new_ticket')}
    </Button>
  );
}
