import { announceAdminToken } from './admin-token-notice';
import { JsonLog } from './json-log';

const TOKEN = 'generated-admin-token-0123456789abcdefghijkl';
const config = { adminToken: TOKEN, adminTokenGenerated: true, adminTokenFile: '/data/admin-token' };

function run(isTTY: boolean, given = config) {
  const log: string[] = [];
  const terminal: string[] = [];
  announceAdminToken(given, new JsonLog('debug', (line) => log.push(line)), { isTTY, write: (t: string) => terminal.push(t) });
  return { log: log.join('\n'), terminal: terminal.join('') };
}

describe('announceAdminToken', () => {
  it('prints a generated token once to an interactive terminal, and keeps it out of the log', () => {
    const { log, terminal } = run(true);
    expect(terminal).toContain(TOKEN);
    expect(log).not.toContain(TOKEN);
    expect(log).toContain('/data/admin-token');
  });

  it('shows it nowhere without a terminal: the log says where it is and how to set one', () => {
    const { log, terminal } = run(false);
    expect(terminal).toBe('');
    expect(log).not.toContain(TOKEN);
    expect(JSON.parse(log)).toMatchObject({ level: 'warn', file: '/data/admin-token' });
  });

  it('prints a kept token on no later start, terminal or not', () => {
    const { log, terminal } = run(true, { ...config, adminTokenGenerated: false });
    expect(terminal).toBe('');
    expect(log).not.toContain(TOKEN);
  });

  it('says nothing when ADMIN_TOKEN was set', () => {
    expect(run(true, { adminToken: TOKEN, adminTokenGenerated: false, adminTokenFile: undefined as unknown as string })).toEqual({
      log: '',
      terminal: '',
    });
  });
});
