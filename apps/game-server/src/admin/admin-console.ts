import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { NextFunction, Request, Response } from 'express';
import { IMMUTABLE } from '../pages/people-pages';

/**
 * Serves the operator console (web-admin's build) at /admin/ on the game server's own origin. It
 * serves the build's files as they are, and index.html for any other /admin/* path, because the
 * console does its own routing. It leaves /admin/api to the API.
 */
export function adminConsole(dir = process.env.ADMIN_CONSOLE_DIR ?? resolve(process.cwd(), 'web-admin/dist')) {
  const files = express.static(dir, {
    index: false,
    maxAge: '1h',
    // Vite puts a hash in these files' names, so a new build has new names and browsers may keep these for good.
    setHeaders: (res, path) => {
      if (path.startsWith(join(dir, 'assets'))) res.setHeader('cache-control', IMMUTABLE);
    },
  });
  const index = join(dir, 'index.html');
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.path === '/api' || req.path.startsWith('/api/')) return next();
    if (req.originalUrl === '/admin' || req.originalUrl.startsWith('/admin?')) {
      return res.redirect(301, '/admin/' + req.originalUrl.slice('/admin'.length));
    }
    if (!existsSync(index)) {
      res
        .status(503)
        .json({ statusCode: 503, code: 'console_not_built', message: `the console is not built: run npm run build (looked in ${dir})` });
      return;
    }
    files(req, res, () => {
      res.setHeader('cache-control', 'no-cache');
      res.sendFile(index);
    });
  };
}
