import { RoomException } from './room-error';
import { Status } from '@game-rooms/client';
import { ReplyFrame } from '@game-rooms/client';

export function okReply(id: string | null, data: unknown = {}): ReplyFrame {
  return { type: 'reply', id, status: Status.ok, data };
}

export function errorReply(id: string | null, error: RoomException): ReplyFrame {
  return { type: 'reply', id, status: error.status, error: { code: error.code, message: error.message } };
}
