import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { PagesApp } from './app/pages-app'
import './pages.css'

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PagesApp />
  </StrictMode>,
)
