import { TABLE_ACTIONS } from './cards.wire';
import { ActionKind } from './cards.types';

/** The card table's commands as a room takes them, after validation (PROTOCOL.md section 8). */
export interface CardsCommandData {
  'table.act': { action: ActionKind; amount?: number };
  'table.rebuy': Record<string, never>;
  'table.leave': Record<string, never>;
}

export type CardsCommandType = keyof CardsCommandData;

export type TableCommand = {
  [T in CardsCommandType]: { readonly id: string; readonly type: T; readonly data: CardsCommandData[T] };
}[CardsCommandType];

export const ACTIONS: readonly ActionKind[] = TABLE_ACTIONS;
