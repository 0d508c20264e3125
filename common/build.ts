/**
 * Where the build puts its hashed scripts and styles, under dist/ and at /{ASSETS_DIR}/ on the server.
 * Not Vite's default 'assets': the back office's asset detail lives at /assets/{id} (SPEC 2, assets.show).
 */
export const ASSETS_DIR = 'static';
