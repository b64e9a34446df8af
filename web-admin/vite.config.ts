import react from '@vitejs/plugin-react'
import { HTTP_SCHEMAS_PURE, ZOD_CALLS_PURE } from './http-schemas-pure.ts'
import { defineConfig } from 'vitest/config'

// The game server serves the built console at /admin/. The console and the API share one origin,
// so there is no CORS and the admin token never leaves that origin. In `npm run dev`, Vite proxies
// the API and the stream to a running server.
const apiTarget = process.env.ADMIN_API_TARGET ?? 'http://localhost:3000'

export default defineConfig({
  base: '/admin/',
  plugins: [react()],
  server: {
    proxy: { '/admin/api': { target: apiTarget, changeOrigin: true } },
  },
  build: {
    outDir: 'dist',
    // recharts is most of the bundle. Putting it in a separate chunk lets the app code change
    // without invalidating recharts in operators' caches.
    rolldownOptions: {
      treeshake: { moduleSideEffects: HTTP_SCHEMAS_PURE, manualPureFunctions: ZOD_CALLS_PURE },
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'charts',
              test: /node_modules[\\/](recharts|d3-|victory-vendor|@reduxjs|immer|es-toolkit|decimal\.js-light|reselect|react-redux)/,
            },
          ],
        },
      },
    },
  },
  test: {
    environment: 'happy-dom',
    setupFiles: ['./src/testing/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    restoreMocks: true,
  },
})
