import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CreatedImage, DeckIdParams, errorBody, IMAGE_LIMITS, ImageIdParams } from '@app/protocol';
import { DocParams, DocResponse } from '../api/schema-docs';
import { DECK_IMAGE_BYTES, IMAGE_MAX_INPUT_PIXELS } from './image-limits';

// This file holds the OpenAPI description of the image routes (PROTOCOL.md section 13, "Images"),
// in the same way that api/api-docs.ts describes the other routes.

const MIB = 1024 * 1024;

export const DescribeUploadImage = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({
      summary:
        `Add a picture to a deck with its edit token: the body is the file itself (PNG, JPEG or WebP, at most ${IMAGE_LIMITS.maxBytes / MIB} MiB). ` +
        `The server turns it upright by its EXIF orientation, scales it to at most ${IMAGE_LIMITS.maxSide} px on its longer side, ` +
        'keeps none of its metadata (EXIF, GPS position, ICC profile) and serves it as WebP; a question names it by `imageId`',
    }),
    ApiBearerAuth(),
    DocParams(DeckIdParams),
    ApiConsumes(...IMAGE_LIMITS.types),
    ApiBody({ required: true, schema: { type: 'string', format: 'binary' } }),
    DocResponse(201, 'stored', CreatedImage),
    DocResponse(
      400,
      '`bad_image_type` (the Content-Type, or the bytes, are not PNG, JPEG or WebP), `bad_image` (it does not decode: empty, cut short, damaged) ' +
        `or \`too_many_pixels\` (over ${IMAGE_MAX_INPUT_PIXELS / 1_000_000} megapixels)`,
      errorBody('bad_image_type | bad_image | too_many_pixels'),
    ),
    DocResponse(
      403,
      '`forbidden`: no edit token as `Authorization: Bearer`, or not this deck’s; `deck_read_only`: the built-in deck',
      errorBody('forbidden | deck_read_only'),
    ),
    DocResponse(404, '`deck_not_found`: no deck has this id (also a deleted one)', errorBody('deck_not_found')),
    DocResponse(
      409,
      `\`deck_images_full\`: the deck holds ${IMAGE_LIMITS.perDeck} images, or ${DECK_IMAGE_BYTES / MIB} MiB of them, already`,
      errorBody('deck_images_full'),
    ),
    DocResponse(
      413,
      `\`payload_too_large\`: a body over ${IMAGE_LIMITS.maxBytes / MIB} MiB, refused before more of it is read`,
      errorBody('payload_too_large'),
    ),
    DocResponse(
      429,
      '`rate_limited`: this client address made too many deck writes lately (uploads count with them); `Retry-After` says when to try again',
      errorBody('rate_limited'),
    ),
    DocResponse(
      503,
      '`overloaded` (this instance is re-encoding as many images as it takes; `Retry-After`) or `database_unavailable` (nothing was stored)',
      errorBody('overloaded | database_unavailable'),
    ),
  );

export const DescribeRemoveImage = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({
      summary:
        'Take a picture no question names any more out of a deck with its edit token: it no longer counts in the deck’s caps, and is removed at once, ' +
        'unless an open room’s copy of the deck shows it (then it is served until no open room does)',
    }),
    ApiBearerAuth(),
    DocParams(DeckIdParams.extend(ImageIdParams.shape)),
    DocResponse(204, 'removed from the deck'),
    DocResponse(
      403,
      '`forbidden`: no edit token as `Authorization: Bearer`, or not this deck’s; `deck_read_only`: the built-in deck',
      errorBody('forbidden | deck_read_only'),
    ),
    DocResponse(
      404,
      '`deck_not_found` (no such deck, or a deleted one) or `image_not_found` (the deck has no such picture)',
      errorBody('deck_not_found | image_not_found'),
    ),
    DocResponse(409, '`image_in_use`: a question of the deck shows the picture; save the deck without it first', errorBody('image_in_use')),
    DocResponse(429, '`rate_limited`: this client address made too many deck writes lately', errorBody('rate_limited')),
  );

export const DescribeReadImage = () =>
  applyDecorators(
    ApiTags('decks'),
    ApiOperation({
      summary:
        'A picture, as the server re-encoded it: `Cache-Control: public, max-age=31536000, immutable` and the id as its `ETag` (an id never names other bytes)',
    }),
    DocParams(ImageIdParams),
    DocResponse(200, 'the image', { type: 'string', format: 'binary' }, 'image/webp'),
    DocResponse(304, 'the image is the one `If-None-Match` names'),
    DocResponse(404, '`image_not_found`: no image has this id (its deck was deleted, or it never was)', errorBody('image_not_found')),
  );
