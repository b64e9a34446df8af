import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';

// What the browser tests share: Debian's Chromium driven by playwright-core (never a downloaded
// browser), web-admin's builds, and pages whose every wait has a hard timeout.

const CHROMIUM = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'].find((p) => existsSync(p));
const WEB_ADMIN = resolve(__dirname, '../../../web-admin');
export const WAIT_MS = 10_000;

/** The server serves web-admin's two builds; the test command builds them, a bare jest run may not have. */
export function ensurePagesBuilt(): void {
  if (existsSync(join(WEB_ADMIN, 'dist-pages/pages.html')) && existsSync(join(WEB_ADMIN, 'dist/index.html'))) return;
  const built = spawnSync('npm', ['run', 'build', '-w', 'web-admin'], { cwd: resolve(WEB_ADMIN, '..'), stdio: 'inherit', timeout: 120_000 });
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
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
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

  async closeContexts(): Promise<void> {
    for (const c of this.contexts.splice(0)) await c.close();
  }

  close(): Promise<void> {
    return this.browser.close();
  }
}
