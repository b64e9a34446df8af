import { useEffect, useState } from 'react'
import { adminRequest, describeError } from '../../../lib/api-client'
import type { FinishedSearch } from './finished-types'

export const FINISHED_PAGE_SIZE = 20

/** Builds the path of GET /admin/api/finished with the search and the page's cursor. Empty fields are left out. */
export function finishedPath(search: FinishedSearch, cursor: string | null, limit = FINISHED_PAGE_SIZE): string {
  const q = new URLSearchParams()
  if (search.code.trim()) q.set('code', search.code.trim())
  if (search.from) q.set('from', search.from)
  if (search.to) q.set('to', search.to)
  if (cursor) q.set('cursor', cursor)
  q.set('limit', String(limit))
  return `/finished?${q.toString()}`
}

export type Loaded<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly value: T }
  | { readonly state: 'failed'; readonly message: string; readonly status?: number }

/**
 * GETs one admin API path, and asks again when the path changes or `asked` changes (a Refresh).
 * An answer to an older path is dropped, and a new path reads as loading until its own answer
 * comes.
 */
export function useAdminGet<T>(path: string, asked = 0): Loaded<T> {
  const key = `${path}#${asked}`
  const [loaded, setLoaded] = useState<{ key: string; value: Loaded<T> } | null>(null)
  useEffect(() => {
    const abort = new AbortController()
    adminRequest<T>(path, { signal: abort.signal }).then(
      (value) => !abort.signal.aborted && setLoaded({ key, value: { state: 'ready', value } }),
      (err: unknown) => {
        if (abort.signal.aborted) return
        const status = (err as { status?: number }).status
        setLoaded({ key, value: { state: 'failed', message: describeError(err), ...(status !== undefined ? { status } : {}) } })
      },
    )
    return () => abort.abort()
  }, [path, key])
  return loaded?.key === key ? loaded.value : { state: 'loading' }
}

/** The path of one finished game's detail. */
export function finishedGamePath(id: string): string {
  return `/finished/${encodeURIComponent(id)}`
}
