import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app'
import { resumeSession } from './features/auth/api/resume-session'
import './index.css'

// This takes a `?token=` out of the address bar at once. The console shows "Signing in…" until the
// server has answered, so a link or a live cookie signs in without flashing the sign-in form.
void resumeSession(window.location, window.history, browserStorage())

function browserStorage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
