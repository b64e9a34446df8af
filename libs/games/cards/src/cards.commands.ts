import { badData, clip, CommandFrame, dataObject, Role, RoomErrorCode, RoomException } from '@app/protocol';
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

export const CARDS_EVENT_TYPES = [
  'table.snapshot',
  'table.rules',
  'hand.started',
  'hole_cards.dealt',
  'action.applied',
  'street.dealt',
  'time_bank',
  'hand.finished',
  'standings',
  'table.closed',
] as const;

export const ACTIONS: readonly ActionKind[] = ['fold', 'check', 'call', 'bet', 'raise', 'all_in'];

/** Chips are whole numbers; no stack comes near this. */
const MAX_AMOUNT = 1_000_000_000;

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
  const d = dataObject(frame);
  switch (frame.type) {
    case 'table.act': {
      if (typeof d.action !== 'string' || !(ACTIONS as readonly string[]).includes(d.action)) {
        throw badData('action', `must be one of ${ACTIONS.join(', ')}`);
      }
      if (d.amount === undefined || d.amount === null) return { id: frame.id, type: frame.type, data: { action: d.action as ActionKind } };
      if (typeof d.amount !== 'number' || !Number.isInteger(d.amount) || d.amount < 0 || d.amount > MAX_AMOUNT) {
        throw badData('amount', 'must be a whole number of chips');
      }
      return { id: frame.id, type: frame.type, data: { action: d.action as ActionKind, amount: d.amount } };
    }
    case 'table.rebuy':
    case 'table.leave':
      return { id: frame.id, type: frame.type, data: {} };
  }
}
