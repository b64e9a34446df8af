// The protocol's HTTP schemas (libs/protocol/src/http, and a game's settings schema) build zod
// objects at module level, which a bundler must keep unless told they have no side effects: a
// page that only names their types would otherwise ship zod (about 95 kB) for nothing.
export const HTTP_SCHEMAS_PURE = [
  { test: /[\\/]libs[\\/]protocol[\\/]src[\\/]http[\\/]/, sideEffects: false },
  { test: /[\\/]libs[\\/]games[\\/][^\\/]+[\\/]src[\\/][^\\/]+\.settings-schema\.ts$/, sideEffects: false },
]
