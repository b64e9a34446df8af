import { IncomingMessage, ServerResponse } from 'node:http';
import { RequestHandler } from 'express';
import helmet, { HelmetOptions } from 'helmet';

// A Host header that the policy can name: a DNS name or IP address (IPv6 in brackets) and a port,
// nothing else.
const HOST = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

// The pages' socket is this origin's /ws. CSP3 lets 'self' match it, but not every browser a
// phone may run does, so the same host's ws: and wss: are named too.
function sameOriginSockets(req: IncomingMessage): string {
  const host = req.headers.host ?? '';
  return HOST.test(host) ? `ws://${host} wss://${host}` : "'self'";
}

type Directives = Record<string, null | Iterable<string | ((req: IncomingMessage, res: ServerResponse) => string)>>;

/** What every page of this origin may load: its own files, its own API and socket, and nothing inline. */
const STRICT: Directives = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  scriptSrcAttr: ["'none'"],
  styleSrc: ["'self'"],
  // Deck pictures come from this origin (/api/images/{id}); the editor previews a chosen file from a blob: URL.
  imgSrc: ["'self'", 'blob:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'", sameOriginSockets],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  // No upgrade-insecure-requests: a phone on a plain-http LAN must still load the pages.
  upgradeInsecureRequests: null,
};

function headers(directives: Directives): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives },
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // Browsers ignore this over plain http. Over https it covers this host only, because sibling hosts
    // are not ours to decide for.
    strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
    // helmet also sends nosniff, removes X-Powered-By, and sets same-origin opener and resource policies.
  };
}

/**
 * Sends the headers that a public site sends, on every HTTP answer (pages, console, API, health,
 * metrics): a Content-Security-Policy with no inline script anywhere, no framing, nosniff, no
 * referrer, and no X-Powered-By. Swagger UI at /api/docs writes its layout in inline `<style>` and
 * draws its icons from data: URLs, so its page alone may use those. Its scripts are files, as
 * everywhere else.
 */
export function securityHeaders(): RequestHandler {
  const strict = helmet(headers(STRICT));
  const docs = helmet(headers({ ...STRICT, styleSrc: ["'self'", "'unsafe-inline'"], imgSrc: ["'self'", 'blob:', 'data:'] }));
  return (req, res, next) => (req.path === '/api/docs' || req.path.startsWith('/api/docs/') ? docs : strict)(req, res, next);
}

/**
 * The strict headers of `securityHeaders` (those of every path but /api/docs), for an answer that
 * is written before Express sees the request: the front door's refusals. It takes Node's own
 * request and response. Helmet sets the headers at once, so they are on the response when this returns.
 */
export function strictSecurityHeaders(): (req: IncomingMessage, res: ServerResponse) => void {
  const strict = helmet(headers(STRICT));
  return (req, res) => strict(req, res, () => undefined);
}
