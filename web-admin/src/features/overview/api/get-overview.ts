import { useEffect, useState } from 'react'
import type { Overview } from '../../../lib/admin-types'
import { adminRequest, describeError } from '../../../lib/api-client'
import { useLive, useLiveStore } from '../../../lib/live-context'
import type { LiveSample } from '../../../lib/live-samples'

export function getOverview(signal?: AbortSignal): Promise<Overview> {
  return adminRequest<Overview>('/overview', { signal })
}

export interface OverviewData {
  readonly overview: Overview | null
  readonly samples: readonly LiveSample[]
  readonly error: string | null
}

/** The overview, kept current by the stream. One GET comes first so that the page fills at once. */
export function useOverview(): OverviewData {
  const store = useLiveStore()
  const overview = useLive((s) => s.overview)
  const samples = useLive((s) => s.samples)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (store.getState().overview) return
    const abort = new AbortController()
    getOverview(abort.signal).then(
      (data) => store.seedOverview(data),
      (err: unknown) => abort.signal.aborted || setError(describeError(err)),
    )
    return () => abort.abort()
  }, [store])
  return { overview, samples, error: overview ? null : error }
}
