/**
 * A record's generic detail with the tab bar of its schema's x-tabs below (SPEC 2, the back office's
 * ticket detail): the messages tab holds the thread, every other tab the related rows. The badges of the
 * relation tabs come in one call (withCount / withSum); the other tabs' counts in one preset-count call
 * per related resource.
 */
import { useCallback, useEffect, useId, useMemo, useState } from 'react';
import { Box, Card, CardContent } from '@mui/material';
import {
  useDataProvider,
  useGetOne,
  useLocaleState,
  usePermissions,
  useResourceContext,
  useTranslate,
  type RaRecord,
} from 'react-admin';
import { useLocation, useParams } from 'react-router-dom';
import type { DetailLinkState } from '../detail/createDefaults.ts';
import type { DetailTab, Resource } from '../../../common/schema/types.ts';
import type { ServiceDeskDataProvider } from '../../dataProvider/index.ts';
import { RAW_BUILDER_KEY } from '../../dataProvider/builder.ts';
import { registry } from '../../schema.ts';
import { iconNamed } from '../../resources/icons.ts';
import DetailScreen, { referencesOf } from '../detail/DetailScreen.tsx';
import { useLive } from '../../live/useLive.ts';
import { useReloadOnEvent } from '../detail/parts.tsx';
import MessageThread from '../thread/MessageThread.tsx';
import { TabBar, type TabBarItem } from './TabBar.tsx';
import { TabList } from './TabList.tsx';
import { TabCreateForm } from './TabCreateForm.tsx';
import { requestReload } from '../../dataProvider/reload.ts';
import {
  badgeQuery,
  badgeText,
  relationBadge,
  tabBuilder,
  tabCreateValues,
  tabTarget,
  visibleTabs,
} from './tabs.ts';

/** The counts of the tabs that are not relations: one preset-count call per related resource. */
function useMatchCounts(owner: Resource, tabs: DetailTab[], record: RaRecord | undefined) {
  const dataProvider = useDataProvider<ServiceDeskDataProvider>();
  const [counts, setCounts] = useState<Record<string, number>>({});
  const [epoch, setEpoch] = useState(0);
  const requests = useMemo(
    () =>
      record
        ? tabs
            .filter((tab) => tab.relation === undefined)
            .map((tab) => ({ tab, builder: tabBuilder(owner, tab, record) }))
        : [],
    [owner, tabs, record],
  );
  useEffect(() => {
    const abort = new AbortController();
    // A tab whose record value is empty (no company) matches nothing: 0 without a call.
    const found: Record<string, number> = Object.fromEntries(
      requests.filter((r) => r.builder === null).map((r) => [r.tab.name, 0]),
    );
    const byTarget = new Map<string, typeof requests>();
    for (const r of requests.filter((r) => r.builder !== null)) {
      const target = tabTarget(owner, r.tab);
      byTarget.set(target, [...(byTarget.get(target) ?? []), r]);
    }
    void Promise.all(
      [...byTarget].map(async ([target, list]) => {
        const answer = await dataProvider.presetCounts(
          target,
          list.map((r) => ({ id: r.tab.name, filter: { [RAW_BUILDER_KEY]: r.builder } })),
          { signal: abort.signal },
        );
        for (const { id, count } of answer) found[String(id)] = count;
      }),
    )
      .then(() => !abort.signal.aborted && setCounts(found))
      .catch(() => undefined); // a badge is a hint: without it the tab still works
    return () => abort.abort();
  }, [dataProvider, owner, requests, epoch]);
  const refetch = useCallback(() => setEpoch((e) => e + 1), []);
  return { counts, refetch };
}

export default function DetailWithTabs() {
  const name = useResourceContext()!;
  const owner = registry.require(name);
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { permissions } = usePermissions<string[]>();
  const { id } = useParams<{ id: string }>();
  const baseId = useId();
  const tabs = useMemo(() => visibleTabs(owner, permissions ?? []), [owner, permissions]);
  // The chosen tab belongs to one record: another record opens on its first tab.
  const location = useLocation();
  // Back from adding a row on a tab (a time registration), the same tab opens again.
  const [selected, setSelected] = useState<{ id?: string; name: string } | undefined>(() => {
    const tab = (location.state as DetailLinkState | null)?.tab;
    return tab ? { id, name: tab } : undefined;
  });
  const current = tabs.find((t) => selected?.id === id && t.name === selected?.name) ?? tabs[0];
  // Rows saved through a tab's form: its list is read again.
  const [saved, setSaved] = useState(0);

  // The record with its references (the same call as the detail's: one request) …
  const { data: record } = useGetOne(
    name,
    { id: id!, meta: { with: referencesOf(owner, false) } },
    // A record that is not there is a 404 at once (the detail goes back to the list), not three retries.
    { enabled: id !== undefined, retry: false },
  );
  // … and the relation tabs' badges in one more.
  const badges = badgeQuery(tabs);
  const { data: badgeAnswer, refetch: refetchBadges } = useGetOne(
    name,
    { id: id!, meta: { ...badges, list: 'tab-badges' } },
    { enabled: id !== undefined && (badges.withCount.length > 0 || badges.withSum.length > 0), retry: false },
  );
  const { counts, refetch: refetchCounts } = useMatchCounts(owner, tabs, record);
  useReloadOnEvent(refetchBadges);
  useReloadOnEvent(refetchCounts);
  // A message posted elsewhere (the client in the portal, a colleague) shows in the open thread at once
  // (MessageThread); its tab's count follows it.
  useLive(({ event, data }) => {
    if (
      event === 'message' &&
      data?.morphable_type === owner.morphType &&
      String(data.morphable_id) === String(id)
    )
      void refetchBadges();
  });

  const label = (tab: DetailTab) =>
    translate(`resources.${owner.name}.tabs.${tab.name}`, {
      _: translate(`resources.${tabTarget(owner, tab)}.name`, { smart_count: 2 }),
    });
  const items: TabBarItem[] = tabs.map((tab) => {
    const value = tab.relation !== undefined ? relationBadge(tab, badgeAnswer) : counts[tab.name];
    return {
      name: tab.name,
      label: label(tab),
      Icon: iconNamed(tab.icon),
      badge: value === undefined ? undefined : badgeText(tab, value, locale),
    };
  });
  const idOf = (tabName: string) => ({
    tab: `${baseId}-tab-${tabName}`,
    panel: `${baseId}-panel-${tabName}`,
  });
  const canShow = (target: string) =>
    (permissions ?? []).includes(`tenant.${target}.show`) &&
    registry.require(target).actions.includes('show');
  const canCreate = (target: string) =>
    (permissions ?? []).includes(`tenant.${target}.store`) &&
    registry.require(target).actions.includes('store');
  // A relation tab's add button: a new row tied to this record, back to this tab when saved.
  const addLink = (tab: DetailTab) => {
    const values = record ? tabCreateValues(owner, tab, record) : null;
    if (!values || !canCreate(tabTarget(owner, tab))) return undefined;
    return { record: values, returnTo: location.pathname, returnTab: tab.name };
  };

  return (
    <DetailScreen>
      {record && current && (
        <Box sx={{ px: { xs: 1, sm: 2 }, pb: 2 }}>
          <Card>
            <TabBar
              items={items}
              value={current.name}
              onChange={(tabName) => setSelected({ id, name: tabName })}
              idOf={idOf}
              label={translate('app.tabs.label')}
            />
            <CardContent
              role="tabpanel"
              id={idOf(current.name).panel}
              aria-labelledby={idOf(current.name).tab}
            >
              {tabTarget(owner, current) === 'messages' ? (
                <MessageThread
                  morphType={owner.morphType!}
                  record={record}
                  description={typeof record.description === 'string' ? record.description : null}
                />
              ) : (
                <>
                  {/* A form in place (x-tabs form); the add button still leads to the whole create form. */}
                  {current.form && addLink(current) && (
                    <TabCreateForm
                      target={tabTarget(owner, current)}
                      fields={current.form}
                      values={addLink(current)!.record}
                      onSaved={() => {
                        setSaved((n) => n + 1);
                        // The badges and whatever else shows this record's figures (a header's total).
                        requestReload();
                      }}
                    />
                  )}
                  <TabList
                    key={`${current.name}-${saved}`}
                    target={tabTarget(owner, current)}
                    builder={tabBuilder(owner, current, record)}
                    label={label(current)}
                    linkRows={canShow(tabTarget(owner, current))}
                    add={addLink(current)}
                  />
                </>
              )}
            </CardContent>
          </Card>
        </Box>
      )}
    </DetailScreen>
  );
}
