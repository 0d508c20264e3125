/**
 * The browser of the end-to-end tests: Debian's Chromium headless shell (package chromium-headless-shell),
 * the same Blink and V8 as the full `chromium` without the browser's own window and interface layers.
 * Measured on the same four spec files, back to back: a fifth less wall time and CPU than the full
 * browser in its headless mode (docs/decisions.md, 2026-11-25). Being faster, it met two races of tests
 * with the app that the full browser met rarely; both tests were made to wait for what they meant. No
 * browser download: Playwright launches this executable.
 */
export const CHROMIUM = '/usr/bin/chromium-headless-shell';

/** The Debian package that has it, installed by .ci/run and by the browser tests' global setup. */
export const CHROMIUM_PACKAGE = 'chromium-headless-shell';

/** Debian's full browser (package chromium): the bench's browser figures are taken in what users run. */
export const FULL_CHROMIUM = '/usr/bin/chromium';

/**
 * The switches every Chromium of ours starts with (the browser tests, the bench's portal and Lighthouse
 * sections): headless, without the sandbox (our machines run as root, where Chromium refuses it), and
 * without the browser's own background traffic (component updates, sync, QUIC probes) beside the app's.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
