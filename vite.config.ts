import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { ASSETS_DIR } from './common/build.ts';
import { schemaLabelsApart } from './common/schema/label-split-plugin.ts';

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside each built script, style sheet and page, which
 * the server sends to browsers that accept them (server/web/plugin.ts, preCompressed): the portal's first
 * screen is a quarter of the bytes, without compressing on every request.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((f) =>
        /\.(js|css|html|svg|json)$/.test(f),
      );
      for (const file of files) {
        const path = join(outDir, file);
        const content = readFileSync(path);
        if (content.length < 1024) continue;
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(
          `${path}.br`,
          brotliCompressSync(content, { params: { [zlib.BROTLI_PARAM_QUALITY]: 10 } }),
        );
      }
    },
  };
}

/** In dev, /app/… is the portal's page and every other non-API path the back office's (history mode). */
function twoApps(): Plugin {
  return {
    name: 'two-apps-history-fallback',
    configureServer(server) {
      server.middlewares.use((req, _res, next) => {
        const url = req.url ?? '/';
        const isFile =
          /\.[a-z0-9]+($|\?)/i.test(url.split('?')[0]!) ||
          url.startsWith('/@') ||
          url.startsWith('/src/') ||
          url.startsWith('/node_modules/');
        if (!isFile && !url.startsWith('/api'))
          req.url = url.startsWith('/app') ? '/app/index.html' : '/index.html';
        next();
      });
    },
  };
}

export default defineConfig({
  plugins: [react(), schemaLabelsApart(), twoApps(), precompress()],
  appType: 'mpa',
  // Native instead of a polyfill and its twenty helper packages (src/shims/object-entries.cjs).
  resolve: {
    alias: [
      {
        find: /^object\.entries$/,
        replacement: fileURLToPath(new URL('./src/shims/object-entries.cjs', import.meta.url)),
      },
    ],
  },
  build: {
    outDir: 'dist',
    assetsDir: ASSETS_DIR,
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    // A lazy screen's shared chunks are not listed beside each dynamic import for preloading: with some
    // 180 lazy chunks those lists were over 4 kB gzip of the first download (issue 17's 300 kB budget),
    // and most of what they named is loaded with the shell already. A screen's own chunk still loads at
    // once; what it imports that is not loaded yet follows as its imports are read (docs/decisions.md).
    modulePreload: { resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
    rollupOptions: { input: { backoffice: 'index.html', portal: 'app/index.html' } },
  },
  server: { port: 5173, proxy: { '/api': `http://localhost:${process.env.PORT ?? 3000}` } },
});
