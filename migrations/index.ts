import { InitialSchema1764489600000 } from './1764489600000-initial-schema';
import { BuiltinDeck1764489600001 } from './1764489600001-builtin-deck';

export { BUILTIN_DECK_ID } from './1764489600001-builtin-deck';

/** Every migration, in order. The data source runs them at start. */
export const MIGRATIONS = [InitialSchema1764489600000, BuiltinDeck1764489600001];
