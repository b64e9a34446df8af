import { hostname } from 'node:os';
import { ServerConfig } from '../config/server-config';

/**
 * Who this process is among the instances that share one database: the name that /health, the
 * registry and the console show, the URL where it is reached, and its process id. The defaults
 * need the port the server got, so they are settled once the server listens, before any request
 * can ask.
 */
export class InstanceIdentity {
  readonly pid = process.pid;
  readonly startedAt = Date.now();
  private settled?: { readonly name: string; readonly url: string };

  constructor(private readonly config: Pick<ServerConfig, 'instanceName' | 'instanceUrl'>) {}

  settle(port: number): void {
    const host = hostname();
    this.settled = { name: this.config.instanceName ?? `${host}-${port}`, url: this.config.instanceUrl ?? `http://${host}:${port}` };
  }

  get name(): string {
    return this.require().name;
  }

  get url(): string {
    return this.require().url;
  }

  private require(): { readonly name: string; readonly url: string } {
    if (!this.settled) throw new Error('the instance has no name before the server listens');
    return this.settled;
  }
}
