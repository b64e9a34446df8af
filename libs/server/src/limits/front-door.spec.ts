import { Controller, Get, Post, Put, UseGuards } from '@nestjs/common';
import { AdmissionGuard } from './admission.guard';
import { JoinGuard, LookupGuard } from './anonymous-work.guard';
import { doorRoutes, pathPattern, requestPath } from './front-door';

@Controller('api/rooms')
class Rooms {
  @Post(':code/players')
  @UseGuards(AdmissionGuard, JoinGuard)
  join() {}

  @Get(':code')
  @UseGuards(LookupGuard)
  summary() {}

  @Put(':code')
  edit() {}
}

describe('the front door reads its routes from the controllers', () => {
  it('finds each guarded route with its surface and whether it creates work, and no other', () => {
    const routes = doorRoutes([Rooms]);
    expect(routes.map(({ method, surface, createsWork }) => ({ method, surface, createsWork }))).toEqual([
      { method: 'POST', surface: 'join', createsWork: true },
      { method: 'GET', surface: 'lookup', createsWork: false },
    ]);
    expect(routes[0].pattern.test('/api/rooms/ABC123/players')).toBe(true);
    expect(routes[1].pattern.test('/api/rooms/ABC123')).toBe(true);
  });

  it('matches paths as Express does: any case, a trailing slash, one segment per parameter', () => {
    const join = pathPattern('api/rooms', ':code/players');
    expect(['/api/rooms/ABC123/players', '/API/Rooms/abc/players/', '/api/rooms/x/players'].map((p) => join.test(p))).toEqual([
      true,
      true,
      true,
    ]);
    expect(
      ['/api/rooms/players', '/api/rooms/a/b/players', '/api/rooms/a/players/x', '/xapi/rooms/a/players'].map((p) => join.test(p)),
    ).toEqual([false, false, false, false]);
    expect(pathPattern('api/rooms', '/').test('/api/rooms')).toBe(true);
    // A dot in a literal segment is a dot, not any character.
    expect(pathPattern('api/decks', 'template.csv').test('/api/decks/templateXcsv')).toBe(false);
  });
});

describe('the path the front door reads from a request target', () => {
  it('is the target up to its query, and nothing for a target that is not a path', () => {
    expect(['/api/rooms', '/api/rooms/ABC123?x=1', '/api/decks?', '/'].map(requestPath)).toEqual([
      '/api/rooms',
      '/api/rooms/ABC123',
      '/api/decks',
      '/',
    ]);
    // An absolute target or none is left to Express, where the route's guard spends for it.
    expect(['http://host/api/rooms', '*', '', undefined].map(requestPath)).toEqual([undefined, undefined, undefined, undefined]);
  });
});
