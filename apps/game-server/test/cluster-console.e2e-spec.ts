import { HttpApi } from '@app/bot-kit';
import { RunningServer } from '../src/server';
import { startTestServer, TEST_ADMIN_TOKEN } from '../../../test/support/test-server';
import { createTestDatabase } from '../../../test/support/database';
import { ensurePagesBuilt, TestBrowser } from './browser';

/**
 * Issue 14 item 2's console half, in Chromium: the Instances view lists every instance sharing
 * the database, whichever of them serves the console, and follows them live (the admin stream).
 */
describe('the console’s Instances view', () => {
  let databaseUrl: string;
  let a: RunningServer | undefined;
  let b: RunningServer;
  let browser: TestBrowser;

  beforeAll(async () => {
    ensurePagesBuilt();
    databaseUrl = await createTestDatabase();
    a = await startTestServer({ databaseUrl, instanceName: 'alpha', heartbeatMs: 500 });
    b = await startTestServer({ databaseUrl, instanceName: 'bravo', heartbeatMs: 500 });
    browser = await TestBrowser.launch();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await a?.stop();
    await b?.stop();
  });

  it('shows both instances from the other one’s console, its rooms, and one stopping', async () => {
    const api = new HttpApi(a!.url);
    const room = await api.createRoom({ hostName: 'Host', questionCount: 3, secondsPerQuestion: 10, revealSeconds: 0 });
    await api.join(room.code, 'Ann'); // live on alpha

    const { page } = await browser.newPage();
    await page.goto(`${b.url}/admin/?token=${encodeURIComponent(TEST_ADMIN_TOKEN)}`);
    await page.getByRole('link', { name: 'Instances', exact: true }).click();
    const alpha = page.locator('tr[data-instance="alpha"]');
    const bravo = page.locator('tr[data-instance="bravo"]');
    await bravo.filter({ hasText: 'this console' }).waitFor();
    await alpha.locator('[data-col="rooms"]', { hasText: /^1$/ }).waitFor();
    // In-process servers: alpha's pid is this test's, and its URL the default, on alpha's port.
    expect(await alpha.innerText()).toContain(String(process.pid));
    expect(await alpha.innerText()).toContain(`:${a!.port}`);
    // Up is a state the console reaches and keeps while alpha beats: waited for, not sampled once
    // (on a busy machine a beat can come late, and the row reads silent until the next one).
    await alpha.locator('.badge', { hasText: /^up$/i }).waitFor();
    expect(await alpha.innerText()).not.toContain('this console');

    await a!.stop();
    a = undefined;
    await alpha.locator('.badge', { hasText: /stopped/i }).waitFor();
    await page.getByText('1 of 2 up').waitFor();
  });
});
