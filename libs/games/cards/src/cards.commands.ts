import { clip, CommandFrame, Role, RoomErrorCode, RoomException, validData } from '@app/protocol';
import { CARDS_COMMANDS, CARDS_EVENTS, TABLE_ACTIONS } from './cards.wire';
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

const ROLES: Record<CardsCommandType, readonly Role[]> = {
  'table.act': ['player'],
  'table.rebuy': ['player'],
  'table.leave': ['player'],
};

export const CARDS_COMMAND_TYPES = Object.keys(ROLES) as CardsCommandType[];

export const CARDS_EVENT_TYPES = Object.keys(CARDS_EVENTS) as (keyof typeof CARDS_EVENTS)[];

export const ACTIONS: readonly ActionKind[] = TABLE_ACTIONS;

function isCardsCommandType(type: string): type is CardsCommandType {
  return Object.prototype.hasOwnProperty.call(ROLES, type);
}

/**
 * Checks a frame in the order PROTOCOL.md fixes: unknown type (404), role (403), then the shape
 * of data (400). Whose turn it is and what the amount may be are the rules' to say (409, 400).
 */
export function parseCardsCommand(frame: CommandFrame, role: Role): TableCommand {
  if (!isCardsCommandType(frame.type)) {
    throw new RoomException(RoomErrorCode.UnknownType, `unknown command type '${clip(frame.type)}'`);
  }
  if (!ROLES[frame.type].includes(role)) {
    throw new RoomException(RoomErrorCode.Forbidden, `a ${role} may not send ${frame.type}`);
  }
  if (frame.type !== 'table.act') return { id: frame.id, type: frame.type, data: validData(CARDS_COMMANDS[frame.type], frame) };
  const { action, amount } = validData(CARDS_COMMANDS['table.act'], frame);
  // A null amount is taken as none: the rules see only a number or no field at all.
  return { id: frame.id, type: frame.type, data: amount === undefined || amount === null ? { action } : { action, amount } };
}
