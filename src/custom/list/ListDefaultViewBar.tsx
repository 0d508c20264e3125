import { presetKey } from './systemViews.ts';
import { DefaultViewBar } from './DefaultViewBar.tsx';
import type { ListViews } from './useListViews.ts';

/**
 * The bar of a list with views of its own (./DefaultViewBar.tsx), wired to the list's views
 * (./useListViews.ts). The list shows it once it can start on its view (`canStart`, the same commit): a
 * choice made before would race it.
 */
export function ListDefaultViewBar({ resource, views }: { resource: string; views: ListViews }) {
  const { systemViews, presetsApi, applySystemView, applyView, storeChoice } = views;
  return (
    <DefaultViewBar
      resource={resource}
      views={systemViews}
      presets={presetsApi.presets}
      currentKey={views.currentViewKey}
      defaultKey={views.defaultViewKey}
      hasChoice={views.hasChoice}
      busy={views.choosing}
      onShow={(key) => {
        const view = systemViews.find((v) => v.key === key);
        const preset = presetsApi.presets.find((p) => presetKey(p.id) === key);
        if (view) applySystemView(view, { keep: true });
        else if (preset) applyView(preset, { keep: true });
      }}
      onUseAsDefault={(key) => void storeChoice(key)}
      onBackToStandard={() => {
        void storeChoice(null).then((done) => {
          const standard = systemViews.find((v) => v.isDefault);
          if (done && standard) applySystemView(standard, { keep: true });
        });
      }}
    />
  );
}
