/**
 * The tab bar of a detail screen (SPEC 2): per tab an icon, a title and a count badge; when the tabs do
 * not fit, arrows scroll them by 100 px (SPEC 9), shown only on the side where more tabs hide.
 */
import { useCallback, useEffect, useRef, useState, type ComponentType } from 'react';
import { Box, Chip, IconButton, Tab, Tabs } from '@mui/material';
import ChevronLeft from '@mui/icons-material/ChevronLeft';
import ChevronRight from '@mui/icons-material/ChevronRight';
import { useTranslate } from 'react-admin';
import { TAB_SCROLL_STEP } from './tabs.ts';

export interface TabBarItem {
  name: string;
  label: string;
  Icon: ComponentType;
  /** The badge text; none while unknown. */
  badge?: string;
}

export interface TabBarProps {
  items: TabBarItem[];
  value: string;
  onChange: (name: string) => void;
  /** Ids that tie each tab to its panel (aria-controls / aria-labelledby). */
  idOf: (name: string) => { tab: string; panel: string };
  label: string;
}

export function TabBar({ items, value, onChange, idOf, label }: TabBarProps) {
  const translate = useTranslate();
  const wrapper = useRef<HTMLDivElement>(null);
  const [overflow, setOverflow] = useState({ left: false, right: false });

  // MUI's own scroll buttons move by the visible width; the spec's step is 100 px, so the arrows are ours.
  const scroller = () => wrapper.current?.querySelector<HTMLElement>('.MuiTabs-scroller') ?? null;
  const measure = useCallback(() => {
    const el = scroller();
    if (!el) return;
    const left = el.scrollLeft > 0;
    const right = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
    setOverflow((o) => (o.left === left && o.right === right ? o : { left, right }));
  }, []);
  useEffect(() => {
    const el = scroller();
    if (!el) return;
    // The observer measures once at the start, then on every resize.
    el.addEventListener('scroll', measure, { passive: true });
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    // The tabs grow when their badges arrive, inside a scroller that keeps its size.
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => {
      el.removeEventListener('scroll', measure);
      observer.disconnect();
    };
  }, [measure, items.length]);
  const scrollBy = (delta: number) => scroller()?.scrollBy({ left: delta, behavior: 'smooth' });

  return (
    <Box
      ref={wrapper}
      sx={{ display: 'flex', alignItems: 'center', borderBottom: 1, borderColor: 'divider' }}
    >
      {overflow.left && (
        <IconButton
          size="small"
          aria-label={translate('app.tabs.scroll_left')}
          onClick={() => scrollBy(-TAB_SCROLL_STEP)}
        >
          <ChevronLeft />
        </IconButton>
      )}
      <Tabs
        value={value}
        onChange={(_, name: string) => onChange(name)}
        variant="scrollable"
        scrollButtons={false}
        aria-label={label}
        sx={{ flexGrow: 1, minWidth: 0 }}
      >
        {items.map(({ name, label: title, Icon, badge }) => (
          <Tab
            key={name}
            value={name}
            id={idOf(name).tab}
            aria-controls={idOf(name).panel}
            iconPosition="start"
            icon={<Icon />}
            sx={{ minHeight: 48, textTransform: 'none' }}
            label={
              <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
                {title}
                {badge !== undefined && (
                  <Chip
                    component="span"
                    size="small"
                    label={badge}
                    data-testid={`tab-badge-${name}`}
                    sx={{ height: 20, fontSize: 12 }}
                  />
                )}
              </Box>
            }
          />
        ))}
      </Tabs>
      {overflow.right && (
        <IconButton
          size="small"
          aria-label={translate('app.tabs.scroll_right')}
          onClick={() => scrollBy(TAB_SCROLL_STEP)}
        >
          <ChevronRight />
        </IconButton>
      )}
    </Box>
  );
}
