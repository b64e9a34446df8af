import { DataSource } from 'typeorm';
import { openDataSource, PERSISTENCE_ENTITIES, StatementMeter } from '@app/persistence';
import { MIGRATIONS } from '../../../migrations';
import { createTestDatabase } from '../../../test/support/database';

// The entities must describe the tables exactly as the migrations make them: TypeORM's schema
// builder, run against the migrated database, must find nothing to change.
describe('entities against the migrated schema', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    const url = await createTestDatabase();
    await (await openDataSource({ url, poolMax: 1, migrations: MIGRATIONS }, new StatementMeter())).destroy();
    dataSource = new DataSource({ type: 'postgres', url, entities: PERSISTENCE_ENTITIES, synchronize: false, poolSize: 1 });
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource?.destroy();
  });

  it('the schema builder finds nothing to change', async () => {
    const { upQueries } = await dataSource.driver.createSchemaBuilder().log();
    expect(upQueries.map((q) => q.query)).toEqual([]);
  });
});
