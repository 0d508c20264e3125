import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { ASSETS_DIR } from './common/build.ts';

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
  plugins: [react(), twoApps()],
  appType: 'mpa',
  build: {
    outDir: 'dist',
    assetsDir: ASSETS_DIR,
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    rollupOptions: { input: { backoffice: 'index.html', portal: 'app/index.html' } },
  },
  server: { port: 5173, proxy: { '/api': `http://localhost:${process.env.PORT ?? 3000}` } },
});
