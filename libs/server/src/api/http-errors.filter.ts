import { ArgumentsHost, Catch, ExceptionFilter, HttpException, HttpStatus, Inject } from '@nestjs/common';
import { Response } from 'express';
import { DatabaseUnavailableError } from '@app/persistence';
import { retryAfterFor, RoomErrorCode, RoomException } from '@app/protocol';
import { JsonLog } from '../config/json-log';
import { JSON_LOG } from '../tokens';

/** Answers every HTTP error as `{statusCode, code, message}`, and a 429 or 503 with `Retry-After`. */
@Catch()
export class HttpErrorsFilter implements ExceptionFilter {
  constructor(@Inject(JSON_LOG) private readonly log: JsonLog) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const res = host.switchToHttp().getResponse<Response>();
    const [statusCode, code, message] = this.describe(error);
    const retryAfter = retryAfterFor(code, error instanceof RoomException ? error.retryAfterSeconds : undefined);
    if (retryAfter !== undefined) res.setHeader('Retry-After', String(retryAfter));
    res.status(statusCode).json({ statusCode, code, message, ...detailsOf(error) });
  }

  private describe(error: unknown): [number, string, string] {
    // Each context's table gave the refusal its HTTP status, and this is where that status is used.
    if (error instanceof RoomException) return [error.httpStatus, error.code, error.message];
    if (error instanceof DatabaseUnavailableError) {
      return [503, RoomErrorCode.DatabaseUnavailable, 'the database is unavailable; nothing was recorded, retry later'];
    }
    if (error instanceof HttpException) {
      const status = error.getStatus();
      if (status === 400 && /JSON/.test(error.message)) return [400, 'bad_json', `the body is not valid JSON: ${error.message}`];
      const code =
        status === 404
          ? 'not_found'
          : status === 401
            ? 'unauthorized'
            : status === 413
              ? 'payload_too_large'
              : status === 400
                ? 'bad_request'
                : `http_${status}`;
      return [status, code, error.message];
    }
    const { status, limit } = error as { status?: number; limit?: number };
    if (status === 413) return [413, 'payload_too_large', `the body is larger than this endpoint takes (${limit ?? '?'} bytes)`];
    if (status === 400) {
      // body-parser reports malformed JSON this way.
      return [400, 'bad_json', (error as Error).message];
    }
    this.log.error('unexpected error in an HTTP request', { error: error instanceof Error ? error.stack : String(error) });
    return [HttpStatus.INTERNAL_SERVER_ERROR, 'internal', 'unexpected server error'];
  }
}

/** The fields a refusal carries besides its code and message, such as bad_csv's line and column. */
function detailsOf(error: unknown): Record<string, unknown> {
  if (!(error instanceof RoomException) || !('details' in error)) return {};
  const { statusCode: _s, code: _c, message: _m, ...details } = error.details as Record<string, unknown>;
  return details;
}
