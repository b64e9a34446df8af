import { BrowserContext, Page } from 'playwright-core';
import { RunningServer } from '../src/server';
import { TestBrowser, WAIT_MS, withPagesServer } from './browser';
import { TEST_ADMIN_TOKEN } from '../../../test/support/test-server';

// Issue 20: every page of this origin does its job in Chromium under the Content-Security-Policy
// the server sends, with not one violation: the start page, a host opening a room (its QR code),
// a phone joining it over the WebSocket, a card table, the console signed in and live, and the
// API docs. A control shows the listener hears a violation when there is one.

const PHONE = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

// Runs before any page script (playwright injects it outside the page's policy): every
// violation the page's document reports is kept for the test to read.
const RECORD_VIOLATIONS = `
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.__violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI, source: e.sourceFile, sample: e.sample });
  });
`;

interface Watched {
  readonly page: Page;
  /** The violations the page's documents reported, and console lines that speak of the policy. */
  violations(): Promise<unknown[]>;
}

describe('the pages under the Content-Security-Policy', () => {
  let server: RunningServer;
  let browser: TestBrowser;
  withPagesServer((s, b) => {
    server = s;
    browser = b;
  });

  async function watched(options: Parameters<TestBrowser['newPage']>[0] = {}): Promise<Watched & { context: BrowserContext }> {
    const { context, page } = await browser.newPage(options);
    await context.addInitScript({ content: RECORD_VIOLATIONS });
    const consoleLines: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Content-Security-Policy/i.test(m.text())) consoleLines.push(m.text());
    });
    page.on('pageerror', (e) => consoleLines.push(`page error: ${e.message}`));
    return {
      context,
      page,
      violations: async () => [...((await page.evaluate('window.__violations')) as unknown[]), ...consoleLines],
    };
  }

  it('hears a violation when there is one: an injected inline script is blocked and reported', async () => {
    const { page, violations } = await watched();
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Host a game' }).waitFor();
    await page.evaluate(
      `(() => { const s = document.createElement('script'); s.textContent = 'window.__ran = true'; document.head.appendChild(s); })()`,
    );
    await page.waitForFunction('window.__violations.length > 0', undefined, { timeout: WAIT_MS });
    expect(await page.evaluate('window.__ran === true')).toBe(false);
    // Once as the event, once on the console.
    expect(await violations()).toEqual([
      expect.objectContaining({ directive: 'script-src-elem', blocked: 'inline' }),
      expect.stringMatching(/inline script violates .*'script-src 'self''/),
    ]);
  });

  it('refuses to be framed by another page', async () => {
    const { page } = await watched();
    const refused = page.waitForEvent('console', { predicate: (m) => /frame-ancestors/.test(m.text()), timeout: WAIT_MS });
    await page.setContent(`<iframe src="${server.url}/"></iframe>`);
    expect((await refused).text()).toContain("frame-ancestors 'none'");
    expect(await page.frames()[1].locator('text=Host a game').count()).toBe(0);
  });

  it('a host opens a room and shows its code and QR code; a phone joins over the socket; neither violates the policy', async () => {
    const host = await watched({ viewport: { width: 1280, height: 800 } });
    await host.page.goto(`${server.url}/host`);
    await host.page.getByLabel('Host name').fill('Quizmaster');
    await host.page.getByRole('button', { name: 'Open room' }).click();
    await host.page.waitForURL(/\/host\/[A-Z0-9]{6}$/);
    const code = (await host.page.getByTestId('room-code').innerText()).trim();
    await host.page.getByRole('img', { name: `QR code of the join link ${server.url}/play/${code}` }).waitFor();

    const phone = await watched(PHONE);
    await phone.page.goto(`${server.url}/play/${code}`);
    await phone.page.getByLabel('Your name').fill('Ann');
    await phone.page.getByRole('button', { name: 'Join' }).click();
    await phone.page.getByText('You’re in, Ann!').waitFor();
    // The host screen hears of Ann over its own socket.
    await host.page.getByRole('region', { name: 'Players' }).getByText('Ann', { exact: true }).waitFor();

    expect(await host.violations()).toEqual([]);
    expect(await phone.violations()).toEqual([]);
  });

  it('a card table is dealt over the socket with no violation', async () => {
    const { page, violations } = await watched(PHONE);
    await page.goto(`${server.url}/`);
    await page.getByLabel('Name at the table').fill('Bea');
    await page.getByRole('button', { name: 'Practice cards' }).click();
    await page.waitForURL(/\/table\/[A-Z0-9]{6}$/);
    await page.getByLabel('Your cards').locator('[data-card]').nth(1).waitFor();
    expect(await violations()).toEqual([]);
    // The table's own document too, loaded as a reload loads it: the seat is kept in the tab.
    await page.reload();
    await page.getByLabel('Your cards').locator('[data-card]').nth(1).waitFor();
    expect(await violations()).toEqual([]);
  });

  it('the console signs in with the form, shows live rooms and its charts, with no token in any URL and no violation', async () => {
    const opened = await fetch(`${server.url}/api/rooms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ hostName: 'Host' }),
    });
    const { code } = (await opened.json()) as { code: string };
    await fetch(`${server.url}/api/rooms/${code}/players`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Ann' }),
    });

    const { context, page, violations } = await watched({ viewport: { width: 1280, height: 900 } });
    const adminUrls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/admin/')) adminUrls.push(r.url());
    });
    await page.goto(`${server.url}/admin/`);
    await page.getByLabel('Admin token').fill(TEST_ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Live', { exact: true }).waitFor();
    for (const chart of ['Mailbox depth', 'Command latency', 'Pool in use']) {
      await page.getByRole('region', { name: chart }).locator('svg.recharts-surface').first().waitFor();
    }
    await page.getByRole('link', { name: 'Rooms', exact: true }).click();
    await page.locator(`tr[data-room-code="${code}"]`).waitFor();

    expect(await violations()).toEqual([]);
    expect(adminUrls.filter((u) => u.includes('/admin/api/stream')).length).toBeGreaterThan(0);
    expect(adminUrls.filter((u) => /token=/.test(u))).toEqual([]);
    // The session is the cookie, which no script can read, and the console kept no token.
    const cookies = await context.cookies();
    expect(cookies.map((c) => [c.name, c.path, c.httpOnly, c.sameSite])).toEqual([['admin_session', '/admin/api', true, 'Strict']]);
    expect(await page.evaluate('document.cookie')).toBe('');
    expect(await page.evaluate('JSON.stringify({ ...localStorage, ...sessionStorage })')).not.toContain(TEST_ADMIN_TOKEN);
  });

  it("a deck's picture shows on a page, from /api/images and from a blob: URL as the editor previews it, with no violation", async () => {
    const deck = await fetch(`${server.url}/api/decks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Pictures', questions: [{ text: 'Which colour?', choices: ['Red', 'Blue'], correct: 0 }] }),
    });
    const { id, editToken } = (await deck.json()) as { id: string; editToken: string };
    // A 2x2 PNG, red: the smallest picture a host might upload.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAE0lEQVQImWP4z8DwnwGM/zMwAAAf7gP9qS/A4gAAAABJRU5ErkJggg==',
      'base64',
    );
    const uploaded = await fetch(`${server.url}/api/decks/${id}/images`, {
      method: 'POST',
      headers: { 'content-type': 'image/png', authorization: `Bearer ${editToken}` },
      body: png,
    });
    expect(uploaded.status).toBe(201);
    const { url } = (await uploaded.json()) as { url: string };

    const { page, violations } = await watched();
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Host a game' }).waitFor();
    // Each picture drawn as a page would draw it; each resolves to its width once loaded, or fails.
    const widths = await page.evaluate(`(async () => {
      const draw = (src) => new Promise((resolve, reject) => {
        const img = document.createElement('img');
        img.onload = () => resolve(img.naturalWidth);
        img.onerror = () => reject(new Error('not loaded: ' + src));
        img.src = src;
        document.body.appendChild(img);
      });
      const served = await draw(${JSON.stringify(url)});
      const blob = await (await fetch(${JSON.stringify(url)})).blob();
      const previewed = await draw(URL.createObjectURL(blob));
      return [served, previewed];
    })()`);
    expect(widths).toEqual([2, 2]);
    expect(await violations()).toEqual([]);
  });

  it('the API docs render their operations with no violation', async () => {
    const { page, violations } = await watched({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/api/docs`);
    await page.getByText('Trivia rooms HTTP API').first().waitFor();
    const operation = page.locator('.opblock-summary-path', { hasText: /^\/api\/rooms$/ }).first();
    await operation.click();
    await page.getByRole('button', { name: 'Try it out' }).first().waitFor();
    expect(await violations()).toEqual([]);
  });
});
