// The HTTP schemas (the client package's packages/client/src/http/, and a game's settings schema) build zod
// objects at module level, which a bundler must keep unless told they have no side effects: a
// page that only names their types would otherwise ship zod (about 95 kB) for nothing.
export const HTTP_SCHEMAS_PURE = [
  { test: /[\\/]packages[\\/]client[\\/](src|dist)[\\/]http[\\/]/, sideEffects: false },
  // The events every room sends (room.paused, room.resumed): the pages take their names only.
  { test: /[\\/]packages[\\/]client[\\/](src|dist)[\\/]room-events\.(ts|js)$/, sideEffects: false },
  { test: /[\\/]libs[\\/]games[\\/][^\\/]+[\\/]src[\\/][^\\/]+\.settings-schema\.ts$/, sideEffects: false },
]

// Inside such a module, a page may use a plain value (a limit, a path helper) beside schemas it
// never reads: zod's calls are then pure too, so those schemas go and zod with them. A zod object
// built in a page would also probe for eval, which the pages' CSP reports as a violation.
export const ZOD_CALLS_PURE = ['z']
