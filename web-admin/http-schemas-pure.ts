// The HTTP schemas (the client package's packages/client/src/http/, and a game's settings schema)
// build zod objects at module level. A bundler must keep such objects unless it is told they have
// no side effects. Otherwise a page that only names their types would ship zod (about 95 kB) for
// nothing.
export const HTTP_SCHEMAS_PURE = [
  { test: /[\\/]packages[\\/]client[\\/](src|dist)[\\/]http[\\/]/, sideEffects: false },
  // These are the events every room sends (room.paused, room.resumed). The pages use only their names.
  { test: /[\\/]packages[\\/]client[\\/](src|dist)[\\/]room-events\.(ts|js)$/, sideEffects: false },
  { test: /[\\/]libs[\\/]games[\\/][^\\/]+[\\/]src[\\/][^\\/]+\.settings-schema\.ts$/, sideEffects: false },
]

// A page may use a plain value from such a module (a limit, a path helper) and never read the
// schemas beside it. Zod's calls are then marked pure too, so the bundler drops those schemas, and
// zod with them. A zod object built in a page would also probe for eval, which the pages' CSP
// reports as a violation.
export const ZOD_CALLS_PURE = ['z']
