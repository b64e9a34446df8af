import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Inject } from '@nestjs/common';
import { Response } from 'express';
import { DatabaseUnavailableError } from '@app/persistence';
import { RoomErrorCode, RoomException } from '@app/protocol';
import { JsonLog } from '../config/json-log';
import { JSON_LOG } from '../tokens';

/** The one place where a room error code becomes an HTTP status. */
const HTTP_STATUS: Record<RoomErrorCode, number> = {
  [RoomErrorCode.BadFrame]: 400,
  [RoomErrorCode.BadId]: 400,
  [RoomErrorCode.BadData]: 400,
  [RoomErrorCode.ChoiceOutOfRange]: 400,
  [RoomErrorCode.Forbidden]: 403,
  [RoomErrorCode.Unauthorized]: 401,
  [RoomErrorCode.UnknownType]: 404,
  [RoomErrorCode.RoomNotFound]: 404,
  [RoomErrorCode.PlayerNotFound]: 404,
  [RoomErrorCode.DeckNotFound]: 404,
  [RoomErrorCode.WrongPhase]: 409,
  [RoomErrorCode.NoPlayers]: 409,
  [RoomErrorCode.QuestionClosed]: 409,
  [RoomErrorCode.AlreadyAnswered]: 409,
  [RoomErrorCode.NotInGame]: 409,
  [RoomErrorCode.RematchClosed]: 409,
  [RoomErrorCode.AlreadyVoted]: 409,
  [RoomErrorCode.RoomFull]: 409,
  [RoomErrorCode.GameInProgress]: 409,
  [RoomErrorCode.RoomClosed]: 409,
  [RoomErrorCode.SeatGone]: 409,
  [RoomErrorCode.TooFast]: 429,
  [RoomErrorCode.MailboxFull]: 503,
  [RoomErrorCode.DatabaseUnavailable]: 503,
  [RoomErrorCode.ShuttingDown]: 503,
};

/** Every HTTP error as `{statusCode, code, message}`. */
@Catch()
export class HttpErrorsFilter implements ExceptionFilter {
  constructor(@Inject(JSON_LOG) private readonly log: JsonLog) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const [statusCode, code, message] = this.describe(error);
    res.status(statusCode).json({ statusCode, code, message });
  }

  private describe(error: unknown): [number, string, string] {
    if (error instanceof RoomException) return [HTTP_STATUS[error.code], error.code, error.message];
    if (error instanceof DatabaseUnavailableError) {
      return [503, RoomErrorCode.DatabaseUnavailable, 'the database is unavailable; nothing was recorded, retry later'];
    }
    if (error instanceof HttpException) {
      const status = error.getStatus();
      if (status === 400 && /JSON/.test(error.message)) return [400, 'bad_json', `the body is not valid JSON: ${error.message}`];
      const code = status === 404 ? 'not_found' : status === 401 ? 'unauthorized' : status === 413 ? 'payload_too_large' : status === 400 ? 'bad_request' : `http_${status}`;
      return [status, code, error.message];
    }
    const status = (error as { status?: number; type?: string }).status;
    if (status === 400 || status === 413) {
      // body-parser: malformed JSON or a body over the limit.
      return [status, status === 400 ? 'bad_json' : 'payload_too_large', (error as Error).message];
    }
    this.log.error('unexpected error in an HTTP request', { error: error instanceof Error ? error.stack : String(error) });
    return [HttpStatus.INTERNAL_SERVER_ERROR, 'internal', 'unexpected server error'];
  }
}
