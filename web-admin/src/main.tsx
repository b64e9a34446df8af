import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/app'
import { session } from './lib/session'
import './index.css'

// Before the first render, so a `?token=` link signs in without flashing the form.
session.adoptTokenFromUrl(window.location, window.history)

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
