import { Client } from 'pg';
import { DataSource, EntityMetadata } from 'typeorm';
import { openDataSource, PERSISTENCE_ENTITIES, StatementMeter } from '@app/persistence';
import { MIGRATIONS } from '../../../migrations';
import { RoomJournal1764846000000 } from '../../../migrations/1764846000000-room-journal';
import { createTestDatabase } from '../../../test/support/database';

// The entities must describe the tables exactly as the migrations make them: TypeORM's schema
// builder, run against the migrated database, must find nothing to change. The builder compares
// checks, uniques and foreign keys by name only, and indexes by name, uniqueness and the set of
// their columns (not their order, direction or WHERE). So the second test compares those to the
// letter. What an entity cannot express at all exists only in the migrations: room_heads'
// fillfactor, and the trigger that gives each new room its head.

/** Index columns that the migrations make descending, because an entity's @Index cannot express that. */
const DESCENDING: Readonly<Record<string, readonly string[]>> = { rooms_code: ['created_at'] };

/** A table's checks, uniques, keys and indexes as PostgreSQL prints them, by name. */
async function definitions(client: Client, table: string): Promise<Record<string, string>> {
  const { rows } = await client.query<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = $1::regclass AND contype IN ('c', 'u', 'p', 'f')
     UNION ALL
     SELECT i.relname, regexp_replace(pg_get_indexdef(x.indexrelid), ' ON \\S+ ', ' ON t ')
     FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
     WHERE x.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
    [table],
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.def]));
}

/**
 * The same, from the entity. Its checks, uniques, key and indexes are made on an empty copy of the
 * table, so that PostgreSQL prints them its own way. Its foreign keys are printed as PostgreSQL
 * would print them, because a temporary table may not reference a real one.
 */
async function entityDefinitions(client: Client, entity: EntityMetadata): Promise<Record<string, string>> {
  const list = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');
  await client.query(`CREATE TEMP TABLE probe (LIKE ${entity.tableName})`);
  try {
    for (const check of entity.checks) await client.query(`ALTER TABLE probe ADD CONSTRAINT "${check.name}" CHECK (${check.expression})`);
    for (const unique of entity.uniques)
      await client.query(`ALTER TABLE probe ADD CONSTRAINT "${unique.name}" UNIQUE (${list(unique.columns.map((c) => c.databaseName))})`);
    const key = entity.primaryColumns;
    await client.query(
      `ALTER TABLE probe ADD CONSTRAINT "${key[0].primaryKeyConstraintName}" PRIMARY KEY (${list(key.map((c) => c.databaseName))})`,
    );
    for (const index of entity.indices) {
      const columns = index.columns.map((c) => `"${c.databaseName}"${DESCENDING[index.name!]?.includes(c.databaseName) ? ' DESC' : ''}`);
      await client.query(
        `CREATE ${index.isUnique ? 'UNIQUE ' : ''}INDEX "${index.name}" ON probe (${columns.join(', ')})${index.where ? ` WHERE ${index.where}` : ''}`,
      );
    }
    const defs = await definitions(client, 'probe');
    for (const fk of entity.foreignKeys) {
      defs[fk.name] =
        `FOREIGN KEY (${fk.columnNames.join(', ')}) REFERENCES ${fk.referencedTablePath}(${fk.referencedColumnNames.join(', ')})` +
        (fk.onDelete && fk.onDelete !== 'NO ACTION' ? ` ON DELETE ${fk.onDelete}` : '');
    }
    return defs;
  } finally {
    await client.query('DROP TABLE probe');
  }
}

describe('entities against the migrated schema', () => {
  let url: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    url = await createTestDatabase();
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

  it('checks, uniques, keys and indexes say what the migrations say, to the letter', async () => {
    const client = new Client({ connectionString: url });
    await client.connect();
    try {
      for (const entity of dataSource.entityMetadatas) {
        expect({ [entity.tableName]: await entityDefinitions(client, entity) }).toEqual({
          [entity.tableName]: await definitions(client, entity.tableName),
        });
      }
    } finally {
      await client.end();
    }
  });
});

describe(RoomJournal1764846000000.name, () => {
  it('goes down to the schema before it and up again', async () => {
    const dataSource = await openDataSource({ url: await createTestDatabase(), poolMax: 1, migrations: MIGRATIONS }, new StatementMeter());
    const runner = dataSource.createQueryRunner();
    const present = async () =>
      (
        await runner.query(`SELECT array_agg(table_name || '.' || column_name ORDER BY table_name, column_name) AS names FROM information_schema.columns
                           WHERE table_schema = 'public' AND (table_name IN ('room_journal', 'room_snapshots', 'finished_games') OR (table_name, column_name) = ('rooms', 'settings'))`)
      )[0].names;
    try {
      const migration = new RoomJournal1764846000000();
      expect(await present()).toContain('rooms.settings');
      await migration.down(runner);
      expect(await present()).toBeNull();
      await migration.up(runner);
      expect(await present()).toEqual(
        expect.arrayContaining(['finished_games.summary', 'room_journal.body', 'room_snapshots.state', 'rooms.settings']),
      );
    } finally {
      await runner.release();
      await dataSource.destroy();
    }
  });
});
