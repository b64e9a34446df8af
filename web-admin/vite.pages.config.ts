import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { HTTP_SCHEMAS_PURE, ZOD_CALLS_PURE } from './http-schemas-pure.ts'
import { defineConfig } from 'vite'

// This builds the pages for people (/, /host, /play/{code}). They are a second entry of this app,
// built on their own so that the console keeps its build, its base (/admin/) and its charts, and a
// phone never loads any of them. The game server serves dist-pages at the root of its origin.
const apiTarget = process.env.ADMIN_API_TARGET ?? 'http://localhost:3000'

export default defineConfig({
  base: '/',
  plugins: [react()],
  server: {
    proxy: { '/api': { target: apiTarget, changeOrigin: true }, '/ws': { target: apiTarget, ws: true } },
  },
  build: {
    outDir: 'dist-pages',
    rolldownOptions: {
      input: fileURLToPath(new URL('./pages.html', import.meta.url)),
      treeshake: { moduleSideEffects: HTTP_SCHEMAS_PURE, manualPureFunctions: ZOD_CALLS_PURE },
    },
  },
})
