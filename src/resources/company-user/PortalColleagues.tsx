/**
 * The portal's colleagues screen (issue 39): for a client whose company role manages colleagues' access
 * (the signed-in user's `companies[].manage_access`; the menu entry and the route guard read the schema's
 * `x-portal.ability`), the clients of each such company, by name and e-mail, each with a role chosen in
 * place among the tenant's company roles (their names in the user's language). The client's own row
 * shows its role without a choice: the server refuses changing one's own role (company-roles/access.ts),
 * as it refuses every change outside the companies the caller manages.
 */
import { useId, useState } from 'react';
import Box from '@mui/material/Box';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useGetList, useTranslate, type RaRecord } from 'react-admin';
import { getUser } from '../../dataProvider/storage.ts';
import { ScreenFrame } from '../../custom/detail/ScreenFrame.tsx';
import { ListPagination } from '../../custom/list/ListPagination.tsx';
import { useActionCall, useActionsProvider } from '../../custom/detail/recordActions.tsx';
import { Waiting } from '../../shell/Waiting.tsx';
import { LoadFailed } from '../../shell/LoadFailed.tsx';
import { portalName } from '../../shell/portalName.ts';

const RESOURCE = 'company-user';
const ROLES = 'company-roles';
/** The API's largest page: a bigger company's colleagues come in pages. */
const PER_PAGE = 100;

interface Membership extends RaRecord {
  company_id: number;
  user_id: number;
  company_role_id: number | null;
  client?: { full_name?: string | null; email?: string | null } | null;
}

const key = (name: string) => `resources.${RESOURCE}.screen.${name}`;

export default function PortalColleagues() {
  const translate = useTranslate();
  const user = getUser();
  const companies = (user?.companies ?? []).filter((c) => c.manage_access === true);
  const [page, setPage] = useState(1);
  const members = useGetList<Membership>(RESOURCE, {
    pagination: { page, perPage: PER_PAGE },
    sort: { field: 'id', order: 'ASC' },
    filter: { company_id: companies.map((c) => c.id) },
    meta: { with: ['client'] },
  });
  const roles = useGetList(ROLES, {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'name', order: 'ASC' },
  });
  const title = portalName(translate, RESOURCE);

  let body;
  if (members.error || roles.error) {
    body = (
      <LoadFailed
        text="app.errors.generic"
        onRetry={() => {
          void members.refetch();
          void roles.refetch();
        }}
      />
    );
  } else if (members.isPending || roles.isPending) {
    body = <Waiting />;
  } else {
    const pages = Math.ceil((members.total ?? 0) / PER_PAGE);
    body = companies.map((company) => (
      <CompanyColleagues
        key={company.id}
        name={companies.length > 1 ? company.name : undefined}
        members={members.data.filter((m) => m.company_id === company.id)}
        roles={roles.data}
        me={user?.id}
        onChanged={() => void members.refetch()}
      />
    ));
    if (pages > 1)
      body = (
        <>
          {body}
          <ListPagination page={page} lastPage={pages} onPage={setPage} />
        </>
      );
  }
  return (
    <ScreenFrame title={title}>
      {/* The list is the resource's own (tests/e2e/sweep: no counter, no rows that open a record). */}
      <Box data-own-list>
        <Typography color="text.secondary" sx={{ mb: 2, maxWidth: '60rem' }}>
          {translate(key('intro'))}
        </Typography>
        {body}
      </Box>
    </ScreenFrame>
  );
}

const nameOf = (m: Membership) => m.client?.full_name || m.client?.email || `#${m.user_id}`;

function CompanyColleagues({
  name,
  members,
  roles,
  me,
  onChanged,
}: {
  /** The company's name, as a heading, when the client manages more than one. */
  name?: string;
  members: Membership[];
  roles: RaRecord[];
  me: number | undefined;
  onChanged: () => void;
}) {
  const translate = useTranslate();
  const headingId = useId();
  const dataProvider = useActionsProvider();
  const { run, busy } = useActionCall();
  const roleName = (id: unknown) => String(roles.find((r) => r.id === id)?.name ?? '');
  const sorted = [...members].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
  const change = (member: Membership, roleId: number) =>
    run(
      () =>
        dataProvider.update(RESOURCE, {
          id: member.id,
          data: { company_role_id: roleId },
          previousData: member,
        }),
      { message: key('saved'), args: { name: nameOf(member), role: roleName(roleId) } },
      onChanged,
    );

  return (
    <Box component="section" aria-labelledby={name ? headingId : undefined} sx={{ mb: 3 }}>
      {name && (
        <Typography id={headingId} variant="h6" component="h2" sx={{ mb: 1 }}>
          {name}
        </Typography>
      )}
      {sorted.length === 0 ? (
        <Typography color="text.secondary">{translate(`resources.${RESOURCE}.empty`)}</Typography>
      ) : (
        <Box component="ul" sx={{ listStyle: 'none', p: 0, m: 0, maxWidth: '60rem' }}>
          {sorted.map((member, index) => {
            const own = member.user_id === me;
            const label = nameOf(member);
            return (
              <Box
                component="li"
                key={member.id}
                data-colleague={label}
                sx={{
                  display: 'flex',
                  flexWrap: 'wrap',
                  alignItems: 'center',
                  justifyContent: 'space-between',
                  gap: 1,
                  py: 1.5,
                  borderTop: index ? 1 : 0,
                  borderColor: 'divider',
                }}
              >
                <Box sx={{ minWidth: 0, flex: '1 1 14rem' }}>
                  <Typography sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
                    {own ? translate(key('you'), { name: label }) : label}
                  </Typography>
                  {member.client?.email && (
                    <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                      {member.client.email}
                    </Typography>
                  )}
                </Box>
                {own ? (
                  <Box sx={{ flex: '0 1 16rem' }}>
                    <Typography>{roleName(member.company_role_id)}</Typography>
                    <Typography variant="body2" color="text.secondary">
                      {translate(key('own_role'))}
                    </Typography>
                  </Box>
                ) : (
                  <TextField
                    select
                    size="small"
                    label={translate(key('role_of'), { name: label })}
                    value={member.company_role_id ?? ''}
                    disabled={busy}
                    onChange={(event) => void change(member, Number(event.target.value))}
                    sx={{ flex: '0 1 16rem', minWidth: '12rem' }}
                  >
                    {roles.map((role) => (
                      <MenuItem key={role.id} value={role.id as number}>
                        {String(role.name)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              </Box>
            );
          })}
        </Box>
      )}
    </Box>
  );
}
