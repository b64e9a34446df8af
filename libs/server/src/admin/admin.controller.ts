import { InstancesSnapshot, KickBody, StreamQuery, Overview, readBody, RoomCodeParams, RoomDetail, RoomsSnapshot } from '@app/protocol';
import { Body, Controller, Get, HttpCode, MessageEvent, Param, Post, Query, Sse, UseGuards } from '@nestjs/common';
import { concatMap, from, interval, Observable, startWith } from 'rxjs';
import { normalizeRoomCode } from '../rooms/room-code';
import { RoomsService } from '../rooms/rooms.service';
import { DescribeAdmin } from '../api/api-docs';
import { AdminTokenGuard } from './admin-token.guard';
import { AdminViewService } from './admin-view.service';
import { InstanceHeartbeat } from '../cluster/instance-heartbeat';

const PUSH_EVERY_MS = 1000;

@Controller('admin/api')
@UseGuards(AdminTokenGuard)
export class AdminController {
  constructor(
    private readonly view: AdminViewService,
    private readonly rooms: RoomsService,
    private readonly heartbeat: InstanceHeartbeat,
  ) {}

  @Get('overview')
  @DescribeAdmin('Rooms, sockets, command rates and timings, the pool, admission (whether new work is shed as overloaded), the build', [], {
    ok: Overview,
  })
  overview() {
    return this.view.overview();
  }

  @Get('instances')
  @DescribeAdmin(
    "Every instance sharing this database (name, url, pid, health, rooms, last seen), as of this instance's last heartbeat",
    [],
    { ok: InstancesSnapshot },
  )
  instances(): InstancesSnapshot {
    return { instances: this.heartbeat.instances() };
  }

  @Get('rooms')
  @DescribeAdmin('The rooms live in this process', [], { ok: RoomsSnapshot })
  roomList() {
    return this.view.roomList();
  }

  @Get('rooms/:code')
  @DescribeAdmin(
    'One live room with its players and last 100 commands',
    [{ status: 404, description: '`room_not_found`: the room is not live' }],
    { params: RoomCodeParams, ok: RoomDetail },
  )
  room(@Param('code') code: string) {
    return this.view.roomDetail(code);
  }

  @Post('rooms/:code/close')
  @DescribeAdmin(
    'Close a room (reason operator_closed)',
    [
      { status: 204, description: 'closed' },
      { status: 404, description: '`room_not_found`' },
    ],
    { params: RoomCodeParams },
  )
  @HttpCode(204)
  async close(@Param('code') code: string) {
    await this.rooms.closeByOperator(code);
  }

  @Post('rooms/:code/kick')
  @DescribeAdmin(
    'Kick a seated player: its sockets close with 4003',
    [
      { status: 204, description: 'kicked' },
      { status: 400, description: '`bad_data`: no playerId' },
      { status: 404, description: '`room_not_found` or `player_not_found`' },
    ],
    { params: RoomCodeParams, body: KickBody },
  )
  @HttpCode(204)
  async kick(@Param('code') code: string, @Body() body: unknown) {
    await this.rooms.kickByOperator(code, readBody(KickBody, body).playerId);
  }

  /**
   * The console's live feed, as server-sent events. It pushes the overview and the room list about
   * once a second, and one room's detail when `room` is given, so the console never polls.
   */
  @Sse('stream')
  @DescribeAdmin(
    'Server-sent events: overview, instances and rooms each second, and one room with ?room=; signed by the session cookie (or Bearer); a ?token= is refused',
    [],
    { query: StreamQuery },
  )
  stream(@Query('room') room?: string): Observable<MessageEvent> {
    const code = room ? normalizeRoomCode(room) : null;
    return interval(PUSH_EVERY_MS).pipe(
      startWith(0),
      concatMap(() => from(this.snapshot(room, code))),
    );
  }

  private snapshot(asked: string | undefined, code: string | null): MessageEvent[] {
    const events: MessageEvent[] = [
      { type: 'overview', data: this.view.overview() },
      { type: 'rooms', data: this.view.roomList() },
      { type: 'instances', data: { instances: this.heartbeat.instances() } },
    ];
    if (asked !== undefined) {
      try {
        events.push({ type: 'room', data: this.view.roomDetail(code ?? asked) });
      } catch {
        events.push({ type: 'room-gone', data: { code: code ?? asked } });
      }
    }
    return events;
  }
}
