import { createServer, IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { NextFunction, Request, Response } from 'express';

/** Marks a request that came in on the operator port. Only that port's listener sets it, never a client. */
const ON_OPERATOR_PORT = Symbol('on the operator port');

/** The operators' paths: the metrics Prometheus scrapes, and the console with its API. */
export function isOperatorPath(path: string): boolean {
  return path === '/metrics' || path === '/admin' || path.startsWith('/admin/');
}

/**
 * When there is an operator port, each port answers only its own paths. The public port answers the
 * operators' paths with 404, as if they did not exist, so a scan learns nothing. The operator port
 * answers 404 to everything but those paths and /health (which an orchestrator's probes need).
 * Without an operator port, this passes everything through, and both kinds are served on the one
 * port, as before.
 */
export function operatorSurface(operatorPort: number | undefined) {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (operatorPort === undefined) return next();
    const onOperatorPort = (req as unknown as Record<symbol, unknown>)[ON_OPERATOR_PORT] === true;
    const wanted = onOperatorPort
      ? isOperatorPath(req.path) || req.path === '/health' || req.path.startsWith('/health/')
      : !isOperatorPath(req.path);
    if (wanted) return next();
    res.status(404).json({ statusCode: 404, code: 'not_found', message: `Cannot ${req.method} ${req.path}` });
  };
}

/**
 * Opens a second listener in this process, for the operator port. It uses the same handlers as the
 * public port (one Express app), so the console and /metrics have one implementation wherever they
 * are served.
 */
export async function listenForOperators(handler: RequestListener, port: number, host: string): Promise<Server> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    (req as unknown as Record<symbol, unknown>)[ON_OPERATOR_PORT] = true;
    handler(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** Stops the operator listener, including its open streams, such as the console's event stream. */
export async function closeOperatorListener(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}
