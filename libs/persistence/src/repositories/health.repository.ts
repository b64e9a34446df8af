import { Database } from '../database';

export class HealthRepository {
  constructor(private readonly db: Database) {}

  /** One round trip. Its time is the database's distance as the server sees it. */
  async ping(timeoutMs?: number): Promise<number> {
    const started = process.hrtime.bigint();
    await this.db.run('HealthRepository.ping', 'SELECT 1', [], timeoutMs);
    return Number(process.hrtime.bigint() - started) / 1e6;
  }
}
