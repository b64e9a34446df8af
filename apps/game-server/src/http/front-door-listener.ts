import { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { NestExpressApplication } from '@nestjs/platform-express';
import proxyaddr from 'proxy-addr';
import { apiCors, FrontDoor } from '@app/server';
import { strictSecurityHeaders } from './security-headers';

/** The API's paths, as Express's `app.use('/api', ...)` matches them. */
const API_PATH = /^\/api(?:[/?]|$)/i;

/**
 * Makes the front door the HTTP server's request listener, ahead of Express, so that a refused
 * request costs no routing and no middleware (FrontDoor). Its refusals carry what Express would
 * have added to them: the security headers, and on the API the CORS headers, so that a player app on
 * another origin can read them. The client's address is read with Express's own compiled `trust
 * proxy` setting, so the door and `req.ip` always agree. Call it after `trust proxy` is set.
 */
export function putFrontDoorAhead(app: NestExpressApplication, allowedOrigins: readonly string[]): void {
  const express = app.getHttpAdapter().getInstance() as RequestListener & { get(setting: string): unknown };
  const server = app.getHttpServer() as Server;
  if (!server.listeners('request').includes(express)) {
    throw new Error('the HTTP server does not call Express as its request listener, so the front door cannot be put ahead of it');
  }
  const trust = express.get('trust proxy fn') as (address: string, hop: number) => boolean;
  const security = strictSecurityHeaders();
  const cors = apiCors(allowedOrigins);
  const door = app.get(FrontDoor).listener(express, {
    clientOf: (req: IncomingMessage) => proxyaddr(req, trust),
    headers: (req: IncomingMessage, res: ServerResponse) => {
      security(req, res);
      if (API_PATH.test(req.url ?? '')) cors(req, res, () => undefined);
    },
  });
  server.removeListener('request', express);
  server.on('request', door);
}
