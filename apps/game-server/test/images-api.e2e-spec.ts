import { get as httpGet, request as httpRequest } from 'node:http';
import exifr from 'exifr';
import sharp from 'sharp';
import { HttpApi, MetricsSnapshot } from '@app/bot-kit';
import { RetentionPruner } from '../../../libs/server/src/retention/retention-pruner';
import { openDataSource, StatementMeter } from '@app/persistence';
import { BUILTIN_DECK_ID, MIGRATIONS } from '../../../migrations';
import { DeckImages1764903600000 } from '../../../migrations/1764903600000-deck-images';
import { DeckImagesByDeck1764907200000 } from '../../../migrations/1764907200000-deck-images-by-deck';
import { createTestDatabase } from '../../../test/support/database';
import { withTestServer } from '../../../test/support/test-server';
import { RunningServer } from '../src/server';
import { queryDb, statementsOf } from './support';

// Pictures on deck questions (PROTOCOL.md section 13, "Images") against a real server, real HTTP
// and real PostgreSQL: what is served carries no metadata and is bounded in size, every refusal
// answers with its code and stores nothing, and an image goes with its deck except while an open
// room's deck copy shows it.

const DECK = {
  name: 'Maps',
  questions: [
    { text: 'Which river is this?', choices: ['Rhine', 'Danube'], correct: 0 },
    { text: 'Which city is this?', choices: ['Bonn', 'Basel'], correct: 1 },
  ],
};
const UNKNOWN = '11111111-1111-4111-8111-111111111111';

/** A photo as a phone takes it: JPEG, with the camera's EXIF and the place it was taken (GPS). */
async function photoWithGps(width = 640, height = 480): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'PhoneMaker', Model: 'Phone 12', Copyright: 'A teacher' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 8/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '11/1 34/1 0/1' },
    })
    .toBuffer();
}

const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 250, g: 200, b: 0 } } });

describe('image API', () => {
  let server: RunningServer;
  let api: HttpApi;
  withTestServer((s) => {
    server = s;
    api = new HttpApi(s.url);
  });

  async function createdDeck(): Promise<{ id: string; editToken: string }> {
    const res = await api.request('POST', '/api/decks', DECK);
    expect(res.status).toBe(201);
    return res.body;
  }
  async function upload(deckId: string, token: string | undefined, body: Buffer | string, type = 'image/jpeg') {
    const res = await fetch(`${server.url}/api/decks/${deckId}/images`, {
      method: 'POST',
      headers: { 'content-type': type, ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body,
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as any };
  }
  async function served(imageId: string, headers: Record<string, string> = {}) {
    const res = await fetch(`${server.url}/api/images/${imageId}`, { headers });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  }
  const imagesOf = async (deckId: string) =>
    (await queryDb<{ n: number }>(server, 'SELECT count(*)::int AS n FROM deck_images WHERE deck_id = $1', [deckId]))[0].n;
  /** `n` copies of a stored image, made in the database: a deck filled without uploading each. */
  const copies = (imageId: string, n: number) =>
    queryDb(
      server,
      `INSERT INTO deck_images (id, deck_id, bytes, content_type, width, height, size)
       SELECT gen_random_uuid(), deck_id, bytes, content_type, width, height, size FROM deck_images, generate_series(1, $2) WHERE id = $1`,
      [imageId, n],
    );
  /**
   * The deck's first question given the picture (PUT /api/decks/{id}), then a room opened with the
   * deck: the room's copy of the deck shows the picture (its item's `image` is the id).
   */
  async function roomShowing(
    deck: { id: string; editToken: string },
    imageId: string,
  ): Promise<{ roomId: string; code: string; hostToken: string }> {
    const questions = DECK.questions.map((q, i) => (i === 0 ? { ...q, image: imageId } : q));
    const put = await api.request('PUT', `/api/decks/${deck.id}`, { ...DECK, questions }, { authorization: `Bearer ${deck.editToken}` });
    expect(put.status).toBe(200);
    const room = await api.request('POST', '/api/rooms', { hostName: 'Teacher', deckId: deck.id, questionCount: 2 });
    expect(room.status).toBe(201);
    const [copy] = await queryDb<{ images: string[] }>(
      server,
      `SELECT array_agg(q->>'image') FILTER (WHERE q ? 'image') AS images FROM rooms, jsonb_array_elements(deck) AS q WHERE id = $1`,
      [room.body.roomId],
    );
    expect(copy.images).toEqual([imageId]);
    return room.body;
  }
  const closeRoom = async (room: { code: string; hostToken: string }) =>
    expect((await api.request('DELETE', `/api/rooms/${room.code}`, undefined, { authorization: `Bearer ${room.hostToken}` })).status).toBe(
      204,
    );

  describe('POST /api/decks/{id}/images', () => {
    it('stores a photo without its EXIF and GPS position, as WebP, and serves exactly that', async () => {
      const photo = await photoWithGps();
      // The control: the photo as uploaded does carry the place it was taken.
      expect(await exifr.gps(photo)).toEqual({ latitude: expect.closeTo(48.133, 2), longitude: expect.closeTo(11.567, 2) });
      expect(photo.includes('PhoneMaker')).toBe(true);

      const deck = await createdDeck();
      const res = await upload(deck.id, deck.editToken, photo);
      expect(res).toMatchObject({ status: 201, body: { imageId: expect.any(String), width: 640, height: 480 } });
      const { imageId } = res.body;
      expect(res.body.url).toBe(`/api/images/${imageId}`);
      expect(imageId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

      const image = await served(imageId);
      expect(image.status).toBe(200);
      expect(image.headers.get('content-type')).toBe('image/webp');
      const meta = await sharp(image.bytes).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 640, height: 480 });
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      for (const trace of ['Exif', 'PhoneMaker', 'A teacher', 'GPS']) expect(image.bytes.includes(trace)).toBe(false);
    });

    it('turns a photo upright by its EXIF orientation before it drops the EXIF', async () => {
      // Stored 300 wide and 100 high, to be shown turned a quarter clockwise (orientation 6): 100 wide, 300 high.
      const sideways = await solid(300, 100).jpeg().withMetadata({ orientation: 6 }).toBuffer();
      const deck = await createdDeck();
      const res = await upload(deck.id, deck.editToken, sideways);
      expect(res.body).toMatchObject({ width: 100, height: 300 });
      const meta = await sharp((await served(res.body.imageId)).bytes).metadata();
      expect(meta).toMatchObject({ width: 100, height: 300 });
      expect(meta.orientation).toBeUndefined();
    });

    it('scales a large image down to 1600 px on its longer side, never a small one up, and keeps a PNG’s transparency', async () => {
      const deck = await createdDeck();
      const wide = await upload(deck.id, deck.editToken, await solid(3200, 1200).jpeg().toBuffer());
      expect(wide.body).toMatchObject({ width: 1600, height: 600 });
      const tall = await upload(deck.id, deck.editToken, await solid(900, 2400).webp().toBuffer(), 'image/webp');
      expect(tall.body).toMatchObject({ width: 600, height: 1600 });
      const small = sharp({ create: { width: 50, height: 40, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0.5 } } });
      const png = await upload(deck.id, deck.editToken, await small.png().toBuffer(), 'image/png');
      expect(png.body).toMatchObject({ width: 50, height: 40 });
      expect(await sharp((await served(png.body.imageId)).bytes).metadata()).toMatchObject({ width: 50, height: 40, hasAlpha: true });
      const sizes = await Promise.all([wide, tall].map(async (r) => (await sharp((await served(r.body.imageId)).bytes).metadata()).width));
      expect(sizes).toEqual([1600, 600]);
    });

    it('goes by the bytes, not the label, among the three types: a JPEG sent as image/png is stored', async () => {
      const deck = await createdDeck();
      expect((await upload(deck.id, deck.editToken, await photoWithGps(), 'image/png')).status).toBe(201);
    });

    it('costs two statements: the deck and its count read, then the image stored', async () => {
      const deck = await createdDeck();
      const photo = await photoWithGps();
      const statements = await statementsOf(server, () => upload(deck.id, deck.editToken, photo));
      expect(statements).toEqual(['ImageRepository.findDeckForImages', 'ImageRepository.addImage']);
    });

    describe('refusals: each answers with its code and stores nothing', () => {
      let deck: { id: string; editToken: string };
      beforeAll(async () => {
        deck = await createdDeck();
      });

      const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw==', 'base64');
      it.each([
        [
          'a Content-Type that is no image type',
          () => Buffer.from('hello'),
          'text/plain',
          400,
          'bad_image_type',
          /Content-Type image\/png, image\/jpeg, image\/webp/,
        ],
        ['a GIF, named as one', () => gif, 'image/gif', 400, 'bad_image_type', /this one is image\/gif/],
        ['a GIF sent as a PNG', () => gif, 'image/png', 400, 'bad_image_type', /this body is a GIF/],
        [
          'text sent as a PNG',
          () => Buffer.from('not a picture at all'),
          'image/png',
          400,
          'bad_image_type',
          /not an image the server can read/,
        ],
        ['an empty body', () => Buffer.alloc(0), 'image/jpeg', 400, 'bad_image_type', /an empty body/],
        [
          'a JPEG cut short',
          async () => {
            const photo = await photoWithGps();
            return photo.subarray(0, photo.length / 2);
          },
          'image/jpeg',
          400,
          'bad_image',
          /could not be read/,
        ],
        [
          'a PNG of 49 megapixels (a decompression bomb: a few hundred KB of one colour)',
          async () => solid(7000, 7000).png({ compressionLevel: 9 }).toBuffer(),
          'image/png',
          400,
          'too_many_pixels',
          /at most 40 megapixels/,
        ],
      ] as const)('refuses %s', async (_what, body, type, status, code, message) => {
        const res = await upload(deck.id, deck.editToken, await body(), type);
        expect(res).toMatchObject({ status, body: { statusCode: status, code, message: expect.stringMatching(message) } });
        expect(await imagesOf(deck.id)).toBe(0);
      });

      it('refuses 403 without the edit token or with another deck’s, 403 deck_read_only for the built-in deck, 404 for no deck', async () => {
        const other = await createdDeck();
        const photo = await photoWithGps();
        expect(await upload(deck.id, undefined, photo)).toMatchObject({ status: 403, body: { code: 'forbidden' } });
        expect(await upload(deck.id, other.editToken, photo)).toMatchObject({
          status: 403,
          body: { code: 'forbidden', message: 'this is not the deck’s edit token' },
        });
        expect(await upload(BUILTIN_DECK_ID, deck.editToken, photo)).toMatchObject({ status: 403, body: { code: 'deck_read_only' } });
        expect(await upload(UNKNOWN, deck.editToken, photo)).toMatchObject({ status: 404, body: { code: 'deck_not_found' } });
        expect(await upload('not-a-deck', deck.editToken, photo)).toMatchObject({ status: 404, body: { code: 'deck_not_found' } });
        expect(await imagesOf(deck.id)).toBe(0);
      });

      it('refuses a body declared over 2 MiB with 413 before any of it is sent', async () => {
        const answer = await new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
          const req = httpRequest(`${server.url}/api/decks/${deck.id}/images`, {
            method: 'POST',
            headers: { 'content-type': 'image/jpeg', 'content-length': 2 * 1024 * 1024 + 1, authorization: `Bearer ${deck.editToken}` },
          });
          req.on('response', (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
          });
          req.on('error', reject);
          // The headers alone: the server answers without waiting for a byte of the body.
          req.flushHeaders();
        });
        expect(answer.status).toBe(413);
        expect(answer.connection).toBe('close');
        expect(JSON.parse(answer.body)).toMatchObject({
          code: 'payload_too_large',
          message: 'an image may be at most 2 MiB (2097152 bytes)',
        });
        expect(await imagesOf(deck.id)).toBe(0);
      });

      it('refuses a streamed body with 413 as soon as it passes 2 MiB, without waiting for its end', async () => {
        const answer = await new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
          const req = httpRequest(`${server.url}/api/decks/${deck.id}/images`, {
            method: 'POST',
            // No Content-Length: chunked, so only reading it tells its size.
            headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${deck.editToken}` },
          });
          req.on('response', (res) => {
            res.resume();
            resolve({ status: res.statusCode!, connection: res.headers.connection });
          });
          req.on('error', reject);
          // One byte past 2 MiB, and the body never ends: only a refusal made as the limit is passed answers it.
          req.write(Buffer.alloc(2 * 1024 * 1024 + 1, 0xab));
        });
        expect(answer).toEqual({ status: 413, connection: 'close' });
        expect(await imagesOf(deck.id)).toBe(0);
      });

      it('refuses the 201st image of a deck with 409 deck_images_full, also when two race for the last place', async () => {
        const full = await createdDeck();
        const first = await upload(full.id, full.editToken, await photoWithGps(64, 48));
        expect(first.status).toBe(201);
        // 198 more, copied in the database: the deck then holds 199 of its 200.
        await copies(first.body.imageId, 198);
        const photo = await photoWithGps(64, 48);
        const raced = await Promise.all([upload(full.id, full.editToken, photo), upload(full.id, full.editToken, photo)]);
        expect(raced.map((r) => r.status).sort()).toEqual([201, 409]);
        expect(raced.find((r) => r.status === 409)!.body).toMatchObject({
          code: 'deck_images_full',
          message: 'a deck holds at most 200 images and 64 MiB of them; this one is full',
        });
        expect(await imagesOf(full.id)).toBe(200);
        expect(await upload(full.id, full.editToken, photo)).toMatchObject({ status: 409, body: { code: 'deck_images_full' } });
        expect(await imagesOf(full.id)).toBe(200);
      });
    });

    it('counts uploads in /metrics by outcome, and the bytes stored', async () => {
      const before = await MetricsSnapshot.fetch(server.url);
      const deck = await createdDeck();
      const stored = await upload(deck.id, deck.editToken, await photoWithGps());
      await upload(deck.id, deck.editToken, Buffer.from('nope'), 'image/png');
      const photo = await photoWithGps();
      await upload(deck.id, deck.editToken, photo.subarray(0, photo.length / 2));
      const after = await MetricsSnapshot.fetch(server.url);
      const counted = (outcome: string) =>
        after.value('game_image_uploads_total', { outcome }) - before.value('game_image_uploads_total', { outcome });
      expect(['stored', 'bad_type', 'bad_image', 'too_large'].map(counted)).toEqual([1, 1, 1, 0]);
      const bytes = (await served(stored.body.imageId)).bytes.length;
      expect(after.value('game_image_stored_bytes_total') - before.value('game_image_stored_bytes_total')).toBe(bytes);
    });
  });

  describe('GET /api/images/{imageId}', () => {
    it('serves with a year’s immutable cache, nosniff and the id as ETag, and answers a matching If-None-Match with 304', async () => {
      const deck = await createdDeck();
      const { imageId } = (await upload(deck.id, deck.editToken, await photoWithGps())).body;
      const image = await served(imageId);
      expect(image.status).toBe(200);
      expect(image.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(image.headers.get('x-content-type-options')).toBe('nosniff');
      expect(image.headers.get('etag')).toBe(`"${imageId}"`);
      expect(Number(image.headers.get('content-length'))).toBe(image.bytes.length);
      // As a browser revalidates (fetch() would add Cache-Control: no-cache, which asks for the bytes again).
      const again = await new Promise<{ status: number; length: number }>((resolve, reject) => {
        httpGet(`${server.url}/api/images/${imageId}`, { headers: { 'if-none-match': `"${imageId}"` } }, (res) => {
          let length = 0;
          res.on('data', (c: Buffer) => (length += c.length));
          res.on('end', () => resolve({ status: res.statusCode!, length }));
        }).on('error', reject);
      });
      expect(again).toEqual({ status: 304, length: 0 });
    });

    it('costs one statement', async () => {
      const deck = await createdDeck();
      const { imageId } = (await upload(deck.id, deck.editToken, await photoWithGps())).body;
      expect(await statementsOf(server, () => served(imageId))).toEqual(['ImageRepository.readImage']);
    });

    it('answers 404 image_not_found for an unknown id, and for one that is not a UUID', async () => {
      for (const id of [UNKNOWN, 'nope', '..%2F..%2Fetc']) {
        const res = await fetch(`${server.url}/api/images/${id}`);
        expect(res.status).toBe(404);
        expect(await res.json()).toMatchObject({ statusCode: 404, code: expect.stringMatching(/^(image_not_found|not_found)$/) });
      }
      expect(await (await fetch(`${server.url}/api/images/${UNKNOWN}`)).json()).toMatchObject({ code: 'image_not_found' });
    });
  });

  describe('DELETE /api/decks/{id}/images/{imageId}', () => {
    const remove = (deckId: string, imageId: string, token?: string) =>
      api.request('DELETE', `/api/decks/${deckId}/images/${imageId}`, undefined, token ? { authorization: `Bearer ${token}` } : {});

    it('takes a picture out of its deck at once, which frees its place under the cap', async () => {
      const deck = await createdDeck();
      const first = (await upload(deck.id, deck.editToken, await photoWithGps())).body.imageId;
      // 199 more, copied in the database: the deck is full.
      await copies(first, 199);
      expect((await upload(deck.id, deck.editToken, await photoWithGps())).status).toBe(409);
      const statements = await statementsOf(server, async () => expect((await remove(deck.id, first, deck.editToken)).status).toBe(204));
      expect(statements).toEqual(['ImageRepository.findDeckForImages', 'ImageRepository.removeImage']);
      expect((await served(first)).status).toBe(404);
      expect((await upload(deck.id, deck.editToken, await photoWithGps())).status).toBe(201);
      expect(await imagesOf(deck.id)).toBe(200);
    });

    it('refuses without the deck’s token (403), for another deck’s picture or none (404), and changes nothing', async () => {
      const [deck, other] = [await createdDeck(), await createdDeck()];
      const mine = (await upload(deck.id, deck.editToken, await photoWithGps())).body.imageId;
      expect(await remove(deck.id, mine)).toMatchObject({ status: 403, body: { code: 'forbidden' } });
      expect(await remove(deck.id, mine, other.editToken)).toMatchObject({ status: 403, body: { code: 'forbidden' } });
      expect(await remove(other.id, mine, other.editToken)).toMatchObject({ status: 404, body: { code: 'image_not_found' } });
      expect(await remove(deck.id, UNKNOWN, deck.editToken)).toMatchObject({ status: 404, body: { code: 'image_not_found' } });
      expect(await remove(deck.id, 'nope', deck.editToken)).toMatchObject({ status: 404, body: { code: 'image_not_found' } });
      expect(await remove(UNKNOWN, mine, deck.editToken)).toMatchObject({ status: 404, body: { code: 'deck_not_found' } });
      expect((await served(mine)).status).toBe(200);
      expect(await imagesOf(deck.id)).toBe(1);
    });

    it('refuses 409 image_in_use while a question of the deck names the picture, and takes it once the deck is saved without it', async () => {
      const deck = await createdDeck();
      const named = (await upload(deck.id, deck.editToken, await photoWithGps())).body.imageId;
      const questions = DECK.questions.map((q, i) => (i === 1 ? { ...q, image: named } : q));
      const bearer = { authorization: `Bearer ${deck.editToken}` };
      expect((await api.request('PUT', `/api/decks/${deck.id}`, { ...DECK, questions }, bearer)).status).toBe(200);
      expect(await remove(deck.id, named, deck.editToken)).toMatchObject({
        status: 409,
        body: { code: 'image_in_use', message: 'a question of the deck shows this picture: save the deck without it first' },
      });
      expect((await served(named)).status).toBe(200);
      expect((await api.request('PUT', `/api/decks/${deck.id}`, DECK, bearer)).status).toBe(200);
      expect((await remove(deck.id, named, deck.editToken)).status).toBe(204);
      expect((await served(named)).status).toBe(404);
    });

    it('keeps serving a picture an open room shows until the room closes, though the deck no longer counts it', async () => {
      const deck = await createdDeck();
      const shown = (await upload(deck.id, deck.editToken, await photoWithGps())).body.imageId;
      const room = await roomShowing(deck, shown);
      // The host edits the deck while the room plays: no question names the picture any more, and it is taken out.
      expect((await api.request('PUT', `/api/decks/${deck.id}`, DECK, { authorization: `Bearer ${deck.editToken}` })).status).toBe(200);
      expect((await remove(deck.id, shown, deck.editToken)).status).toBe(204);
      expect((await served(shown)).status).toBe(200);
      // Removed from the deck: a second removal finds nothing, and the deck's count is back to 0.
      expect((await remove(deck.id, shown, deck.editToken)).status).toBe(404);
      expect(
        (await queryDb(server, 'SELECT count(*)::int AS n FROM deck_images WHERE deck_id = $1 AND orphaned_at IS NULL', [deck.id]))[0].n,
      ).toBe(0);
      const pruner = server.app.get(RetentionPruner);
      await pruner.sweep();
      expect((await served(shown)).status).toBe(200);
      await closeRoom(room);
      await pruner.sweep();
      expect((await served(shown)).status).toBe(404);
    });
  });

  describe('removal with the deck', () => {
    it('removes every image of a deleted deck at once', async () => {
      const deck = await createdDeck();
      const ids = [];
      for (let i = 0; i < 2; i++) ids.push((await upload(deck.id, deck.editToken, await photoWithGps())).body.imageId);
      expect((await api.request('DELETE', `/api/decks/${deck.id}`, undefined, { authorization: `Bearer ${deck.editToken}` })).status).toBe(
        204,
      );
      expect(await Promise.all(ids.map(async (id) => (await served(id)).status))).toEqual([404, 404]);
      expect(await imagesOf(deck.id)).toBe(0);
    });

    it('removes them with the deck’s row, whatever removes it (the foreign key cascades)', async () => {
      const deck = await createdDeck();
      const { imageId } = (await upload(deck.id, deck.editToken, await photoWithGps())).body;
      await queryDb(server, 'DELETE FROM decks WHERE id = $1', [deck.id]);
      expect((await served(imageId)).status).toBe(404);
    });

    it('keeps the images an open room’s deck copy shows until the room closes, then the pruning removes them', async () => {
      const deck = await createdDeck();
      const shown = (await upload(deck.id, deck.editToken, await photoWithGps())).body.imageId;
      const unused = (await upload(deck.id, deck.editToken, await photoWithGps())).body.imageId;
      const room = await roomShowing(deck, shown);

      expect((await api.request('DELETE', `/api/decks/${deck.id}`, undefined, { authorization: `Bearer ${deck.editToken}` })).status).toBe(
        204,
      );
      // The room shows its picture still; the picture no room shows is gone with the deck.
      expect((await served(shown)).status).toBe(200);
      expect((await served(unused)).status).toBe(404);
      // The pruning leaves it while the room is open.
      const pruner = server.app.get(RetentionPruner);
      expect((await pruner.sweep())!.removed.deck_images).toBe(0);
      expect((await served(shown)).status).toBe(200);

      const before = await MetricsSnapshot.fetch(server.url);
      await closeRoom(room);
      expect((await pruner.sweep())!.removed.deck_images).toBe(1);
      expect((await served(shown)).status).toBe(404);
      expect(await imagesOf(deck.id)).toBe(0);
      const after = await MetricsSnapshot.fetch(server.url);
      expect(
        after.value('game_retention_removed_total', { table: 'deck_images' }) -
          before.value('game_retention_removed_total', { table: 'deck_images' }),
      ).toBe(1);
    });
  });
});

describe('image uploads under their own rate', () => {
  let server: RunningServer;
  withTestServer((s) => (server = s), { imageUploadsPerMinute: 3 });

  it('counts uploads against the address’s picture allowance: past it 429 with Retry-After, nothing stored', async () => {
    const api = new HttpApi(server.url);
    const deck = (await api.request('POST', '/api/decks', DECK)).body as { id: string; editToken: string };
    const photo = await photoWithGps(64, 48);
    const send = () =>
      fetch(`${server.url}/api/decks/${deck.id}/images`, {
        method: 'POST',
        headers: { 'content-type': 'image/jpeg', authorization: `Bearer ${deck.editToken}` },
        body: photo,
      });
    // Creating the deck spent nothing of the pictures' allowance: three uploads go, the fourth is refused.
    expect([(await send()).status, (await send()).status, (await send()).status]).toEqual([201, 201, 201]);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited' });
    expect((await queryDb(server, 'SELECT count(*)::int AS n FROM deck_images'))[0].n).toBe(3);
  });
});

describe(DeckImages1764903600000.name, () => {
  it('goes down to the schema before it and up again', async () => {
    const dataSource = await openDataSource({ url: await createTestDatabase(), poolMax: 1, migrations: MIGRATIONS }, new StatementMeter());
    const runner = dataSource.createQueryRunner();
    const present = async () =>
      (
        await runner.query(
          `SELECT to_regclass('deck_images') IS NOT NULL AS images,
                  EXISTS (SELECT 1 FROM pg_trigger WHERE tgname = 'deck_images_follow_deck') AS follows,
                  EXISTS (SELECT 1 FROM pg_proc WHERE proname = 'add_deck_image') AS adds`,
        )
      )[0];
    try {
      const migration = new DeckImages1764903600000();
      expect(await present()).toEqual({ images: true, follows: true, adds: true });
      await migration.down(runner);
      expect(await present()).toEqual({ images: false, follows: false, adds: false });
      await migration.up(runner);
      expect(await present()).toEqual({ images: true, follows: true, adds: true });
    } finally {
      await runner.release();
      await dataSource.destroy();
    }
  });
});

describe(DeckImagesByDeck1764907200000.name, () => {
  it("asks a deck's own rooms whether they show its picture, and goes down to asking every open room", async () => {
    const dataSource = await openDataSource({ url: await createTestDatabase(), poolMax: 1, migrations: MIGRATIONS }, new StatementMeter());
    const runner = dataSource.createQueryRunner();
    const byDeck = async () =>
      (
        await runner.query(
          `SELECT bool_and(pg_get_functiondef(p.oid) LIKE '%r.deck_id = %') AS by_deck FROM pg_proc p
           WHERE p.proname IN ('remove_deck_image', 'deck_images_follow_deck')`,
        )
      )[0].by_deck;
    try {
      const migration = new DeckImagesByDeck1764907200000();
      expect(await byDeck()).toBe(true);
      await migration.down(runner);
      expect(await byDeck()).toBe(false);
      await migration.up(runner);
      expect(await byDeck()).toBe(true);
    } finally {
      await runner.release();
      await dataSource.destroy();
    }
  });
});
