import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { ServerConfig } from '../../../libs/server/src/config/server-config';
import { RunningServer } from '../src/server';
import { startTestServer } from '../../../test/support/test-server';

// What the browser tests share: Debian's Chromium driven by playwright-core (never a downloaded
// browser), web-admin's builds, and pages whose every wait has a hard timeout.

const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));
const WEB_ADMIN = resolve(__dirname, '../../../web-admin');
export const WAIT_MS = 10_000;

// Runs before any page script (playwright injects it outside the page's policy): every
// Content-Security-Policy violation the document reports is kept, as "directive blocked-uri".
const RECORD_VIOLATIONS = `window.__violations = []; document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.effectiveDirective + ' ' + e.blockedURI));`;

/** The policy violations a page from `TestBrowser.newWatchedPage` has reported so far. */
export function violationsOf(page: Page): Promise<string[]> {
  return page.evaluate('window.__violations') as Promise<string[]>;
}

/** The server serves web-admin's two builds; the test command builds them, a bare jest run may not have. */
export function ensurePagesBuilt(): void {
  if (existsSync(join(WEB_ADMIN, 'dist-pages/pages.html')) && existsSync(join(WEB_ADMIN, 'dist/index.html'))) return;
  const built = spawnSync('npm', ['run', 'build', '-w', 'web-admin'], {
    cwd: resolve(WEB_ADMIN, '..'),
    stdio: 'inherit',
    timeout: 120_000,
  });
  if (built.status !== 0) throw new Error('could not build web-admin (npm run build -w web-admin)');
}

/** Where a spec's screenshots go: the README's pictures with `UPDATE_SCREENSHOTS=1`, else a temporary folder. */
export function screenshotsDir(spec: string): string {
  const dir = process.env.UPDATE_SCREENSHOTS ? resolve(__dirname, '../../../docs/screenshots') : join(tmpdir(), `${spec}-screenshots`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A headless Chromium whose contexts are closed after each test (`closeContexts`) and itself after the file. */
export class TestBrowser {
  private readonly contexts: BrowserContext[] = [];

  private constructor(private readonly browser: Browser) {}

  static async launch(): Promise<TestBrowser> {
    if (!CHROMIUM) throw new Error('Chromium is missing: `apt-get install -y chromium` (npm test installs it when run as root)');
    const browser = await chromium.launch({
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
    });
    return new TestBrowser(browser);
  }

  async newPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await this.browser.newContext(options);
    this.contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(WAIT_MS);
    page.setDefaultNavigationTimeout(WAIT_MS);
    return { context, page };
  }

  /** A page that keeps the policy violations its documents report (`violationsOf`), and fails the test on a script error. */
  async newWatchedPage(options: Parameters<Browser['newContext']>[0] = {}): Promise<Page> {
    const { context, page } = await this.newPage(options);
    await context.addInitScript({ content: RECORD_VIOLATIONS });
    page.on('pageerror', (e) => {
      throw e;
    });
    return page;
  }

  async closeContexts(): Promise<void> {
    for (const c of this.contexts.splice(0)) await c.close();
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}

/**
 * A server over web-admin's builds and a Chromium for a describe block: started before its tests
 * (`use` receives them, and may prepare more), stopped after; each test's contexts closed after it.
 */
export function withPagesServer(
  use: (server: RunningServer, browser: TestBrowser) => void | Promise<void>,
  overrides: Partial<ServerConfig> = {},
): void {
  let server: RunningServer | undefined;
  let browser: TestBrowser | undefined;
  beforeAll(async () => {
    ensurePagesBuilt();
    server = await startTestServer(overrides);
    browser = await TestBrowser.launch();
    await use(server, browser);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  afterEach(async () => {
    await browser?.closeContexts();
  });
}
