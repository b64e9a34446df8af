import { networkInterfaces, NetworkInterfaceInfo } from 'node:os';

/**
 * Lists the addresses at which phones on the same network can reach this server: every external
 * IPv4 address. The start banner needs them because a host screen opened at localhost would put
 * "localhost" into its QR code.
 */
export function lanUrls(port: number, interfaces: NodeJS.Dict<NetworkInterfaceInfo[]> = networkInterfaces()): string[] {
  const urls: string[] = [];
  for (const infos of Object.values(interfaces)) {
    for (const info of infos ?? []) if (info.family === 'IPv4' && !info.internal) urls.push(`http://${info.address}:${port}`);
  }
  return urls;
}

/** Builds what `npm start` prints: where to host a game, join one, operate the server, and read the API. */
export function startBanner(port: number, lan: string[], operatorPort = port): string {
  const base = lan[0] ?? `http://localhost:${port}`;
  const lines = [
    '',
    `  Trivia rooms are up at http://localhost:${port}`,
    `    host a game:   ${base}/host${lan.length ? '' : '   (no network address found: phones need one)'}`,
    `    players join:  ${base}/  (or scan the host screen's QR code)`,
    ...lan.slice(1).map((url) => `    also at:       ${url}/`),
    `    operators:     http://localhost:${operatorPort}/admin/`,
    `    HTTP API docs: http://localhost:${port}/api/docs   (WebSocket: ws://localhost:${port}/ws)`,
    '',
    '',
  ];
  return lines.join('\n');
}
