/**
 * The screens of the translation sweep, from the schemas (tests/e2e/translation-sweep.spec.ts), and the
 * visit of one screen: opened inside the app, looked at at one width, the viewport turned to the other
 * width, looked at again. Each look checks the texts (./texts.ts) and, in the one language pass whose turn
 * it is, runs axe.
 */
import { expect, type Locator, type Page } from '@playwright/test';
import { writableFieldsFor } from '../../../common/schema/fields.ts';
import type { Resource } from '../../../common/schema/types.ts';
import { registry } from '../../../server/schema/registry.ts';
import { menuResources } from '../../../src/resources/menus.ts';
import { expectAccessible, type App } from '../support.ts';
import { LANGUAGES, textProblems, type Catalogue, type Language } from './texts.ts';

export const WIDTHS = { wide: 1280, narrow: 375 } as const;
type Width = keyof typeof WIDTHS;
const HEIGHT = 800;

/** The dialogs and menus of a list and a detail, by the key of the button that opens them. */
export const DIALOGS = {
  'columns dialog': 'list.settings',
  'new view dialog': 'list.presets.create',
  'order dialog': 'list.reorder.title',
  'views menu': 'list.presets.menu',
} as const;
export const DELETE_DIALOG = 'delete confirmation';

/** The screens one resource has in an app, each with its number in the app's axe rotation. */
export interface ResourcePlan {
  resource: Resource;
  list: number;
  detail?: number;
  edit?: number;
  create?: number;
  /** The list's dialogs and the detail's delete confirmation, on the resource chosen for them. */
  dialogs?: Record<string, number>;
}

export interface AppPlan {
  resources: ResourcePlan[];
  /** The app's other screens and states by name. */
  pages: Record<string, number>;
}

/** The pages besides the resources' screens, per app. */
const PAGES: Record<App, string[]> = {
  backoffice: [
    'login',
    'login errors',
    'dashboard',
    'exports',
    'reports',
    'reports time',
    'reports satisfaction',
    'not found',
    'access denied',
    'reports subscribe',
  ],
  portal: [
    'login',
    'login errors',
    'password reset request',
    'password reset',
    'service overview',
    'not found',
    'access denied',
  ],
};

/**
 * Every screen of an app as its menu and the schemas' actions decide (src/resources/menus.ts and
 * screensOf in src/resources/index.tsx): a list for index, a detail for show, the detail's edit form
 * for update (when there are fields to write), a create form for store; in the portal its x-portal
 * actions. The list dialogs open on the first list whose schema offers update-order (so the order
 * dialog is among them; the portal, without one, uses its first list).
 */
export function planOf(app: App): AppPlan {
  const portal = app === 'portal';
  let next = 0;
  const resources: ResourcePlan[] = [];
  const listed = menuResources(registry(), app).filter((r) => actionsOf(r, app).includes('index'));
  const withDialogs =
    listed.find((r) => !portal && r.actions.includes('update-order') && r.actions.includes('destroy')) ??
    listed[0]!;
  for (const resource of listed) {
    const actions = actionsOf(resource, app);
    const plan: ResourcePlan = { resource, list: next++ };
    if (actions.includes('show')) {
      plan.detail = next++;
      const writable = writableFieldsFor(resource, portal).filter((f) => !f.writeOnly && f.name !== 'id');
      if (actions.includes('update') && writable.length > 0) plan.edit = next++;
    }
    if (actions.includes('store')) plan.create = next++;
    if (resource === withDialogs) {
      const names = Object.keys(DIALOGS).filter((name) => name !== 'order dialog' || !portal);
      if (!portal) names.push(DELETE_DIALOG);
      plan.dialogs = Object.fromEntries(names.map((name) => [name, next++]));
    }
    resources.push(plan);
  }
  const pages = Object.fromEntries(PAGES[app].map((name) => [name, next++]));
  return { resources, pages };
}

export function actionsOf(resource: Resource, app: App): string[] {
  return app === 'portal' ? (resource.portal?.actions ?? []) : resource.actions;
}

/** What a page shows as text: the body's text, the document title, and names and hints of elements. */
function collectText() {
  const attributes: string[] = [document.title];
  for (const element of Array.from(document.querySelectorAll('[aria-label],[title],[placeholder],[alt]'))) {
    for (const name of ['aria-label', 'title', 'placeholder', 'alt']) {
      const value = element.getAttribute(name);
      if (value) attributes.push(value);
    }
  }
  return { text: document.body.innerText, attributes };
}

/** One language pass over one app: looks at screens, gathers their problems, counts its axe scans. */
export class Sweep {
  readonly problems: string[] = [];
  scans = 0;
  width: Width = 'wide';
  /** Milliseconds spent reading texts and in axe: the rest of a pass is opening and drawing screens. */
  readonly spent = { texts: 0, axe: 0 };
  private readonly started = Date.now();

  constructor(
    readonly page: Page,
    readonly language: Language,
    readonly catalogue: Catalogue,
  ) {}

  /** A message of the catalogue in this pass's language. */
  t(key: string): string {
    const text = this.catalogue.messages[this.language].get(key);
    if (text === undefined) throw new Error(`no message ${key} in ${this.language}`);
    return text;
  }

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1 }).first();
  }

  /**
   * Checks the screen's texts at the current width, and runs axe when the screen's number falls to this
   * language (number modulo 3: every screen is scanned once per width over the three passes).
   */
  async look(screen: string, index: number): Promise<void> {
    const where = `${screen} (${this.language}, ${WIDTHS[this.width]} px)`;
    // Two frames: what a resize or a click changed has been laid out and painted.
    await this.page.evaluate(
      () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))),
    );
    let since = Date.now();
    const text = await this.page.evaluate(collectText);
    for (const problem of textProblems(text, this.language, this.catalogue))
      this.problems.push(`${where}: ${problem}`);
    this.spent.texts += Date.now() - since;
    if (index % LANGUAGES.length !== LANGUAGES.indexOf(this.language)) return;
    this.scans += 1;
    since = Date.now();
    try {
      await expectAccessible(this.page, where);
    } catch (error) {
      // The violations, one line each, without the assertion's diff around them.
      const lines = (error as Error).message.split('\n').filter((line) => line.includes(where));
      this.problems.push(...(lines.length ? lines.map((l) => l.replace(/^[\s+"-]+|[",]+$/g, '')) : [where]));
    }
    this.spent.axe += Date.now() - since;
  }

  /** What the pass did and where its time went, for the report. */
  account(): string {
    const total = Date.now() - this.started;
    const { texts, axe } = this.spent;
    return `${this.scans} axe scans; ${total} ms: axe ${axe}, texts ${texts}, opening and drawing ${total - texts - axe}`;
  }

  /** Turns the viewport to the other width. */
  async flip(): Promise<void> {
    this.width = this.width === 'wide' ? 'narrow' : 'wide';
    await this.page.setViewportSize({ width: WIDTHS[this.width], height: HEIGHT });
  }

  async setWidth(width: Width): Promise<void> {
    if (this.width !== width) await this.flip();
  }

  /** Looks at the screen as it is, turns the viewport, waits until `drawn` holds again and looks again. */
  async both(screen: string, index: number, drawn: () => Promise<void>): Promise<void> {
    await this.look(screen, index);
    await this.flip();
    await drawn();
    await this.look(screen, index);
  }

  /**
   * Opens `path` as the app's own links do: a history entry and the router told of it, no page load (the
   * app, its language and the signed-in user stay loaded, as for a person who moves between screens).
   */
  async navigate(path: string): Promise<void> {
    await this.page.evaluate((to) => {
      history.pushState(null, '', to);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, path);
  }

  /** Opens a path and waits until the heading differs from the screen before's (its text must not pass). */
  async open(path: string): Promise<void> {
    const before = (await this.heading.textContent().catch(() => '')) ?? '';
    await this.navigate(path);
    await expect(this.page).toHaveURL(new RegExp(`${path.replace(/[?]/g, '\\?')}$`));
    if (before) await expect(this.heading).not.toHaveText(before, { timeout: 15_000 });
  }

  /**
   * The list has drawn: its heading, and its counter or its empty text, without loading rows; or a
   * resource's own list screen (`data-own-list`: the portal's colleagues), whose rows open nothing.
   */
  async listDrawn(resource: Resource): Promise<'rows' | 'empty' | 'own'> {
    const counter = this.page.getByRole('status').filter({ hasText: /^\d+-\d+ \S+ \d+$/ });
    const empty = this.page.getByText(this.t(`resources.${resource.name}.empty`), { exact: true });
    const own = this.page.locator('[data-own-list]');
    await expect(counter.or(empty).or(own).first()).toBeVisible({ timeout: 15_000 });
    await expect(this.page.locator('[data-testid^="skeleton-"]')).toHaveCount(0);
    await expect(this.heading).not.toHaveText('');
    if ((await own.count()) > 0) return 'own';
    return (await empty.count()) > 0 ? 'empty' : 'rows';
  }

  /** The first record of the list: a table row at the wide width, a card at the narrow one. */
  firstRecord(): Locator {
    return this.width === 'wide'
      ? this.page.locator('tbody tr:not([data-testid="skeleton-row"])').first()
      : this.page.locator('[data-shortcut-rows] > *').first();
  }

  /** Whether the first record opens something: a focusable row, or a card that is one of the list's rows. */
  async firstRecordOpens(): Promise<boolean> {
    const record = this.firstRecord();
    return this.width === 'wide'
      ? (await record.getAttribute('tabindex')) !== null
      : (await record.getAttribute('data-shortcut-row')) !== null;
  }

  /** Opens the first record from the keyboard (a click may land on a link to a related record). */
  async openFirstRecord(): Promise<void> {
    const record = this.firstRecord();
    await record.focus();
    await record.press('Enter');
  }

  /** A form is on the screen, with its save button. */
  async formDrawn(): Promise<void> {
    await expect(this.page.locator('form').first()).toBeVisible({ timeout: 15_000 });
  }

  /** A dialog, or a menu that pops up (in a presentation layer: the app's side menu is a menu too). */
  popup(): Locator {
    return this.page.getByRole('dialog').or(this.page.locator('[role="presentation"] [role="menu"]:visible'));
  }

  async popupDrawn(): Promise<void> {
    await expect(this.popup().first()).toBeVisible();
  }
}
