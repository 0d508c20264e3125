/**
 * A list of portal resources as people read it (`x-input: "portal-resources"`, beside
 * ./PortalResourcesInput.tsx): one chip per resource by its translated name, on a detail and in a table
 * cell or card, instead of the raw names ('tickets', 'invoices') the API stores.
 */
import { useTranslate } from 'react-admin';
import { portalResourceName } from './portalResourceNames.ts';
import { ChipList } from './ChipList.tsx';

export default function PortalResourcesDisplay({ value }: { value: unknown; full?: boolean }) {
  const translate = useTranslate();
  const names = Array.isArray(value) ? value.map(String) : [];
  return <ChipList items={names.map((key) => ({ key, label: portalResourceName(translate, key) }))} />;
}
