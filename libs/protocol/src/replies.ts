import { RoomException } from './room-error';
import { Status } from './statuses';
import { ReplyFrame } from './wire.types';

export function okReply(id: string | null, data: unknown = {}): ReplyFrame {
  return { type: 'reply', id, status: Status.ok, data };
}

export function errorReply(id: string | null, error: RoomException): ReplyFrame {
  return { type: 'reply', id, status: error.status, error: { code: error.code, message: error.message } };
}
