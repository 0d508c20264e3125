/**
 * Who a new portal ticket is for (issue 39): shown only where the client's company role may create
 * tickets for colleagues (the signed-in user's `companies[].on_behalf`), listing the company's clients.
 * Left empty, the ticket is the client's own. The server checks the colleague belongs to the company.
 */
import { SelectInput, useGetList, useTranslate } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { getUser } from '../../dataProvider/storage.ts';

interface Membership {
  id: number;
  user_id: number;
  client?: { full_name?: string | null } | null;
}

export function PortalColleagueInput() {
  const translate = useTranslate();
  const companyId = useWatch({ name: 'company_id' }) as number | undefined;
  const company = (getUser()?.companies ?? []).find((c) => c.id === Number(companyId));
  const me = getUser()?.id;
  const allowed = company?.on_behalf === true;
  const { data = [] } = useGetList<Membership>(
    'company-user',
    {
      pagination: { page: 1, perPage: 100 },
      filter: { company_id: company?.id },
      meta: { with: ['client'] },
    },
    { enabled: allowed },
  );
  if (!allowed) return null;
  const choices = data
    .filter((m) => m.user_id !== me)
    .map((m) => ({ id: m.user_id, name: m.client?.full_name ?? `#${m.user_id}` }))
    .sort((a, b) => a.name.localeCompare(b.name));
  return (
    <SelectInput
      source="client_id"
      label={translate('app.ticket.for_client')}
      choices={choices}
      emptyText={translate('app.ticket.for_myself')}
      // Empty: the client's own ticket (the server reads null as the caller).
      parse={(value: unknown) => (value === '' ? null : value)}
      translateChoice={false}
      fullWidth
    />
  );
}
