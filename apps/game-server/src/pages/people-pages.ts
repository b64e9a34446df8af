import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { NextFunction, Request, Response } from 'express';

// These paths answer with the pages' single HTML document. From there, the app does its own routing.
const PAGE_PATHS = [
  /^\/$/,
  /^\/host\/?$/,
  /^\/host\/[^/]+\/?$/,
  /^\/host\/decks\/[^/]+\/?$/,
  /^\/play\/[^/]+\/?$/,
  /^\/table\/[^/]+\/?$/,
  /^\/results\/[^/]+\/?$/,
];

/** Vite names built assets by their content's hash, so a browser may keep them for good. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * Serves the pages for people (web-admin's second build, dist-pages) at the root of the game
 * server's origin. `/`, `/host`, `/host/{code}`, `/host/decks/{id}`, `/play/{code}`, `/table/{code}`
 * and `/results/{id}` get the HTML, which is never cached so that a deploy is picked up at once.
 * `/assets/*` gets the hashed files, which are cached for good. Every other path is left to the API,
 * the console and the socket.
 */
export function peoplePages(dir = process.env.PAGES_DIR ?? resolve(process.cwd(), 'web-admin/dist-pages')) {
  const html = join(dir, 'pages.html');
  const assets = express.static(join(dir, 'assets'), { index: false, immutable: true, maxAge: '365d' });
  const missing = (res: Response) => res.status(404).json({ statusCode: 404, code: 'not_found', message: 'no such file' });
  const favicon = join(dir, 'favicon.svg');
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path.startsWith('/assets/')) {
      req.url = req.url.slice('/assets'.length);
      return assets(req, res, () => missing(res));
    }
    if (req.path === '/favicon.svg' && existsSync(favicon)) {
      res.setHeader('cache-control', 'public, max-age=86400');
      return res.sendFile(favicon);
    }
    if (!PAGE_PATHS.some((p) => p.test(req.path))) return next();
    if (!existsSync(html)) {
      res
        .status(503)
        .json({ statusCode: 503, code: 'pages_not_built', message: `the pages are not built: run npm run build (looked in ${dir})` });
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(html);
  };
}
