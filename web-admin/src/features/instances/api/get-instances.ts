import { useEffect, useState } from 'react'
import type { InstancesSnapshot } from '../../../lib/admin-types'
import { adminRequest, describeError } from '../../../lib/api-client'
import { useLive, useLiveStore } from '../../../lib/live-context'

export function getInstances(signal?: AbortSignal): Promise<InstancesSnapshot> {
  return adminRequest<InstancesSnapshot>('/instances', { signal })
}

export interface InstancesData {
  readonly instances: InstancesSnapshot | null
  readonly error: string | null
}

/** Every instance sharing the database, kept current by the stream. One GET comes first so that the table fills at once. */
export function useInstances(): InstancesData {
  const store = useLiveStore()
  const instances = useLive((s) => s.instances)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    if (store.getState().instances) return
    const abort = new AbortController()
    getInstances(abort.signal).then(
      (data) => store.seedInstances(data),
      (err: unknown) => abort.signal.aborted || setError(describeError(err)),
    )
    return () => abort.abort()
  }, [store])
  return { instances, error: instances ? null : error }
}
