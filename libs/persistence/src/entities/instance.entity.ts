import { Check, Column, Entity, PrimaryColumn } from 'typeorm';

/** A server process that shares the database (created by the instances migration). */
@Entity({ name: 'instances' })
@Check('instances_health_check', `health IN ('ok', 'draining', 'stopped')`)
export class InstanceEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'instances_pkey' })
  name: string;

  @Column({ type: 'text' })
  url: string;

  @Column({ type: 'integer' })
  pid: number;

  @Column({ name: 'started_at', type: 'timestamp with time zone' })
  startedAt: Date;

  @Column({ name: 'last_seen', type: 'timestamp with time zone', default: () => 'now()' })
  lastSeen: Date;

  @Column({ type: 'integer' })
  rooms: number;

  @Column({ type: 'text' })
  health: string;
}
