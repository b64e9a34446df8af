import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BrowserContext, chromium, Locator, Page } from 'playwright-core';
import { HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { startTestServer, TEST_ADMIN_TOKEN } from '../../../test/support/test-server';
import { closeAll, holdTable, seatRoom, SeatedRoom, untilWaitingOnLock } from './support';

// The operator console in a real browser (Debian's Chromium driven by playwright-core) against a
// real server with a game in progress. Every wait has a hard timeout: WAIT_MS per step.

const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));
const CONSOLE_DIR = resolve(__dirname, '../../../web-admin/dist');
const WAIT_MS = 10_000;

/** The server serves web-admin/dist; the test command builds it, a bare `jest` run may not have. */
function ensureConsoleBuilt(): void {
  if (existsSync(join(CONSOLE_DIR, 'index.html'))) return;
  const built = spawnSync('npm', ['run', 'build', '-w', 'web-admin'], {
    cwd: resolve(CONSOLE_DIR, '../..'),
    stdio: 'inherit',
    timeout: 120_000,
  });
  if (built.status !== 0) throw new Error('could not build the console (npm run build -w web-admin)');
}

function launchChromium(userDataDir: string): Promise<BrowserContext> {
  if (!CHROMIUM) throw new Error('Chromium is missing: `apt-get install -y chromium` (npm test installs it when run as root)');
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
    viewport: { width: 1280, height: 900 },
  });
}

/** Waits until the locator's text matches, and returns that text. */
async function textMatching(locator: Locator, pattern: RegExp): Promise<string> {
  await locator.filter({ hasText: pattern }).first().waitFor({ timeout: WAIT_MS });
  return (await locator.first().innerText()).trim();
}

describe('admin console', () => {
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  let userDataDir: string;
  let room: SeatedRoom | undefined;

  beforeAll(async () => {
    ensureConsoleBuilt();
    // It holds a table lock on purpose to keep a statement in flight: a held lock must not run into
    // the command budget, which is there for outages (outage.e2e-spec.ts).
    server = await startTestServer({ commandTimeoutMs: 60_000, pipelineDepth: 1 });
    userDataDir = mkdtempSync(join(tmpdir(), 'admin-console-chromium-'));
    context = await launchChromium(userDataDir);
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(WAIT_MS);
    page.setDefaultNavigationTimeout(WAIT_MS);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    await server?.stop();
  });

  afterEach(() => {
    if (room) closeAll(room);
    room = undefined;
  });

  it('signs in from ?token=, shows the game live with its mailbox depth and the pool, and kicks a player: 4003', async () => {
    room = await seatRoom(server, ['Ann', 'Bob', 'Cy'], { questionCount: 3, secondsPerQuestion: 30 });
    const [ann, bob, cy] = room.players;
    expect((await room.host.send('room.start')).status).toBe(200);
    await room.host.nextEvent('question.open');

    const requested: string[] = [];
    const record = (r: { url(): string }) => requested.push(r.url());
    page.on('request', record);
    await page.goto(`${server.url}/admin/?token=${encodeURIComponent(TEST_ADMIN_TOKEN)}`);
    // Signed in by the link, which then leaves the token out of the address bar.
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.getByText('Live', { exact: true }).waitFor();
    // The link itself is the only URL that carried the token: the stream rides on the session cookie.
    expect(requested.filter((u) => u.includes('token='))).toEqual([`${server.url}/admin/?token=${encodeURIComponent(TEST_ADMIN_TOKEN)}`]);
    expect(requested.some((u) => u.startsWith(`${server.url}/admin/api/stream`))).toBe(true);
    page.off('request', record);
    expect((await context.cookies()).map((c) => [c.name, c.httpOnly, c.sameSite])).toEqual([['admin_session', true, 'Strict']]);

    // The pool as gauges with numbers against the configured maximum (poolMax 10).
    for (const name of ['Connections open', 'In use', 'Idle', 'Waiting']) {
      const gauge = page.getByRole('meter', { name });
      await gauge.waitFor();
      expect(await gauge.getAttribute('aria-valuemax')).toBe('10');
      expect(await gauge.getAttribute('aria-valuenow')).toMatch(/^\d+$/);
      expect(await gauge.locator('.gauge-reading').innerText()).toMatch(/^\d+\s*\/\s*10$/);
    }
    expect(Number(await page.getByRole('meter', { name: 'Connections open' }).getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(1);
    expect(await page.getByRole('group', { name: 'Rooms active' }).innerText()).toMatch(/\b1\b/);
    for (const chart of ['Mailbox depth', 'Command latency', 'Pool in use']) {
      await page.getByRole('region', { name: chart }).locator('svg.recharts-surface').first().waitFor();
    }

    // The room's row, live: phase, players, and its mailbox depth, which the next step fills.
    await page.getByRole('link', { name: 'Rooms', exact: true }).click();
    const row = page.locator(`tr[data-room-code="${room.code}"]`);
    await row.waitFor();
    expect(await row.locator('.badge').innerText()).toMatch(/question/i);
    expect(await row.locator('[data-col="players"]').innerText()).toMatch(/^3\s*\/\s*3$/);
    const depth = row.locator('[data-col="mailbox"] .mailbox-depth');
    expect(await textMatching(depth, /^0$/)).toBe('0');

    // Ann's answer waits on a locked table, so Bob's and Cy's wait in the room's mailbox.
    const release = await holdTable(server, 'room_journal');
    const replies: Promise<unknown>[] = [];
    try {
      replies.push(ann.send('room.answer', { question: 0, choice: 0 }));
      await untilWaitingOnLock(server, 'room_journal');
      replies.push(bob.send('room.answer', { question: 0, choice: 0 }), cy.send('room.answer', { question: 0, choice: 0 }));
      expect(await textMatching(depth, /^[1-9]\d*$/)).toBe('2');
      await page.locator(`tr.deepest[data-room-code="${room.code}"]`).waitFor();
    } finally {
      await release();
    }
    for (const reply of await Promise.all(replies)) expect(reply).toMatchObject({ status: 200 });
    expect(await textMatching(depth, /^0$/)).toBe('0');
    expect(await row.locator('.mailbox-max').innerText()).toMatch(/\/\s*[1-9]/);

    // The room's detail: players with presence, the commands with their timings.
    await row.getByRole('link', { name: room.code }).click();
    const players = page.getByRole('region', { name: 'Players' });
    const bobRow = players.locator(`tr[data-player-id="${room.playerIds[1]}"]`);
    await bobRow.waitFor();
    expect(await bobRow.innerText()).toMatch(/Bob\s+connected/);
    const lastCommands = page.getByRole('region', { name: 'Last commands' });
    await lastCommands.getByText('room.answer').first().waitFor();

    // Kick Bob through the page: a confirmation, then his socket closes with 4003.
    await bobRow.getByRole('button', { name: 'Kick Bob' }).click();
    const dialog = page.getByRole('dialog', { name: 'Kick Bob?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Kick Bob' }).click();
    expect((await bob.waitClosed()).code).toBe(4003);
    await page.getByRole('status').getByText(`Kicked Bob from ${room.code}`, { exact: false }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    // The stream brings the room without him.
    await bobRow.waitFor({ state: 'detached' });
    expect(await players.locator('tr[data-player-id]').count()).toBe(2);
  }, 60_000);

  it('shows when the stream is down and recovers by itself', async () => {
    await page.goto(`${server.url}/admin/`);
    await page.getByText('Live', { exact: true }).waitFor();
    // Refuse the stream, then reload so the page has to open a new one.
    await page.route('**/admin/api/stream**', (route) => route.abort('connectionrefused'));
    await page.reload();
    const banner = page.getByRole('alert').filter({ hasText: 'Stream down, reconnecting' });
    await banner.waitFor();
    await page.unroute('**/admin/api/stream**');
    await page.getByText('Live', { exact: true }).waitFor({ timeout: 20_000 });
    await banner.waitFor({ state: 'detached' });
  }, 60_000);

  it('asks for the token again when the server refuses it', async () => {
    await page.goto(`${server.url}/admin/?token=wrong-token`);
    await page
      .getByRole('alert')
      .getByText(/refused/)
      .waitFor();
    expect(new URL(page.url()).search).toBe('');
    await page.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('meter', { name: 'Connections open' }).waitFor();
  }, 30_000);

  it('asks to sign in again, saying why, when the session ends under it', async () => {
    const api = new HttpApi(server.url);
    const { code } = await api.createRoom({ hostName: 'Host' });
    await api.join(code, 'Ann');
    await page.goto(`${server.url}/admin/rooms`);
    const row = page.locator(`tr[data-room-code="${code}"]`);
    await row.waitFor();
    // As when the 12 hours run out or ADMIN_TOKEN changes: the browser's cookie is no longer a session.
    await context.clearCookies();
    await row.getByRole('link', { name: code }).click();
    await page
      .getByRole('alert')
      .getByText(/session has ended/)
      .waitFor();
    await page.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: `Room ${code}` }).waitFor();
  }, 30_000);

  it('signs out: the cookie is gone, a reload asks for the token, and the stream is refused', async () => {
    await page.goto(`${server.url}/admin/`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Admin token').waitFor();
    expect(await context.cookies()).toEqual([]);
    await page.reload();
    await page.getByLabel('Admin token').waitFor();
    expect(await page.evaluate(`fetch('/admin/api/stream').then((r) => r.status)`)).toBe(401);
  }, 30_000);
});
